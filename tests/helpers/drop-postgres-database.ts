/**
 * Drops a throwaway PostgreSQL database (a test's or a benchmark's) even while something is still
 * connected to it.
 */
import type pg from 'pg';

const ATTEMPTS = 5;

/**
 * `DROP DATABASE … WITH (FORCE)` ends the other sessions first, but only if this role may end every
 * one of them. An autovacuum worker belongs to no role, so while one is vacuuming the database
 * PostgreSQL 15 refuses the drop (42501, "must be a member of the role whose process is being
 * terminated"). A plain `DROP DATABASE` stops autovacuum workers itself; so then end this role's own
 * sessions and drop without FORCE, again if a session came back in between (55006).
 */
export async function dropPostgresDatabaseNamed(client: pg.Client, name: string): Promise<void> {
  if (!/^chime_(test|bench)_\w+$/.test(name)) throw new Error(`refusing to drop ${name}: not a throwaway database`);
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`drop database if exists ${name} with (force)`);
      return;
    } catch (err) {
      if (codeOf(err) !== '42501' || attempt === ATTEMPTS) throw err;
    }
    await client.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and usename = current_user and pid <> pg_backend_pid()',
      [name],
    );
    try {
      await client.query(`drop database if exists ${name}`);
      return;
    } catch (err) {
      if (codeOf(err) !== '55006' || attempt === ATTEMPTS) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}

const codeOf = (err: unknown) => (err as { code?: string } | null)?.code;
