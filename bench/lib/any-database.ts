/**
 * Seeding and throwaway databases for the benchmarks that run on SQLite or PostgreSQL (the
 * scale-out and chaos benchmarks). Writes go through Kysely, so the same code fills either.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, isPostgresUrl } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { dropPostgresDatabaseNamed } from '../../tests/helpers/drop-postgres-database.ts';

/** A role allowed to CREATE DATABASE (the one `.ci/run` creates for the tests). */
/** Read when used, so that a benchmark may start a throwaway server first and set BENCH_POSTGRES_URL. */
const postgresBase = () => process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL || 'postgres://chime:chime@127.0.0.1:5432/postgres';

async function admin(work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: postgresBase() });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A new database: a PostgreSQL one when `postgres`, else a SQLite file in `dir`. Its URL and how to drop it. */
export async function throwawayDatabase(kind: 'sqlite' | 'postgres', dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') return { url: path.join(dir, 'chime.db'), drop: async () => {} };
  const name = `chime_bench_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`));
  const url = new URL(postgresBase());
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin((c) => dropPostgresDatabaseNamed(c, name)) };
}

export const databaseLabel = (url: string) => (isPostgresUrl(url) ? 'PostgreSQL' : 'SQLite');

/**
 * `count` reminders due at `dueAtIso`, each with one webhook to `hookUrl`, in one account;
 * ONCE and DAILY mixed (recurring ones are advanced by the claim, ONCE ones completed).
 */
export async function seedDue(databaseUrl: string, count: number, hookUrl: string, dueAtIso: string): Promise<void> {
  const { db } = createDatabase(databaseUrl);
  try {
    await migrateToLatest(db);
    const now = new Date().toISOString();
    const accountId = randomUUID();
    await db
      .insertInto('accounts')
      .values({ id: accountId, email: `${accountId}@example.com`, email_normalized: `${accountId}@example.com`, username: 'bench', timezone: 'UTC', locale: null, created_at: now, updated_at: now })
      .execute();
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const metadata = JSON.stringify({ url: hookUrl, platform: 'generic' });
    for (let i = 0; i < count; i += 500) {
      const ids = Array.from({ length: Math.min(500, count - i) }, () => randomUUID());
      await db
        .insertInto('reminders')
        .values(
          ids.map((id, j) => ({
            id,
            account_id: accountId,
            message: `Due ${i + j}`,
            local_date: dueAtIso.slice(0, 10),
            local_time: dueAtIso.slice(11, 19),
            remind_at_utc: dueAtIso,
            timezone: 'UTC',
            recurrence_type: (i + j) % 2 === 0 ? ('ONCE' as const) : ('DAILY' as const),
            is_paused: 0,
            snoozed_at_utc: null,
            next_fire_utc: dueAtIso,
            next_occurrence_utc: dueAtIso,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      await db
        .insertInto('destinations')
        .values(ids.map((id) => ({ id: randomUUID(), reminder_id: id, type: 'webhook' as const, metadata, secret, position: 0, created_at: now })))
        .execute();
    }
  } finally {
    await db.destroy();
  }
}

/** Moves every reminder due at `fromIso` to `toIso` (seed far ahead, then aim once the servers are up). */
export async function retimeDue(databaseUrl: string, fromIso: string, toIso: string): Promise<number> {
  const { db } = createDatabase(databaseUrl);
  try {
    const res = await db
      .updateTable('reminders')
      .set({ local_date: toIso.slice(0, 10), local_time: toIso.slice(11, 19), remind_at_utc: toIso, next_fire_utc: toIso, next_occurrence_utc: toIso })
      .where('next_fire_utc', '=', fromIso)
      .executeTakeFirst();
    // A running database has statistics that know where its reminders fall due (autovacuum
    // analyzes after this many changes); without them PostgreSQL takes the due reminders for a
    // handful and every claim reads and sorts all 30,000 instead of taking the first ones in order.
    if (isPostgresUrl(databaseUrl)) await sql`analyze`.execute(db);
    // Chime's own writes tell the other instances (LISTEN/NOTIFY, README "Running several
    // instances"); this one comes from outside, so it says so itself. SQLite instances poll.
    if (isPostgresUrl(databaseUrl)) await sql`select pg_notify('chime_changes', 'bench')`.execute(db);
    return Number(res.numUpdatedRows);
  } finally {
    await db.destroy();
  }
}
