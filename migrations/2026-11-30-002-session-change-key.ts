import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * On PostgreSQL, a session's notice (migration 2026-11-30-001) names `session:<account id>`
 * instead of the account's id. Instances remember sessions against that key alone, so an
 * account's reminders changing (as often as its owner edits them) no longer makes every instance
 * read its sessions again, and the account's own key no longer moves when a session is merely
 * created elsewhere or ends.
 *
 * SQLite needs none. Frozen in time: no application imports.
 */
const onPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const functionWith = (key: (column: string) => string) =>
  `CREATE OR REPLACE FUNCTION chime_notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
   BEGIN
     PERFORM pg_notify('chime_changes', ${key('OLD.account_id')});
     IF TG_OP = 'UPDATE' AND NEW.account_id IS DISTINCT FROM OLD.account_id THEN
       PERFORM pg_notify('chime_changes', ${key('NEW.account_id')});
     END IF;
     RETURN NULL;
   END $fn$`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!onPostgres(db)) return;
  await sql.raw(functionWith((column) => `'session:' || ${column}`)).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!onPostgres(db)) return;
  await sql.raw(functionWith((column) => column)).execute(db);
}
