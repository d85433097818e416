import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * On PostgreSQL, a session that ends (signed out, revoked, swept when expired, its account
 * deleted) or whose token or expiry changes sends NOTIFY chime_changes with its account's id, as
 * the account's reminders already do (migration 2026-11-27-002). An instance may then answer
 * requests from the sessions it read before, as long as nothing of that account was heard since:
 * the end of a session reaches every instance before its next request is answered. Recording
 * where and when a session was last used (last_used_at, network) notifies nobody.
 *
 * SQLite needs none: its sessions are read in the process, from the file. Frozen in time: no
 * application imports.
 */
const onPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!onPostgres(db)) return;
  await sql
    .raw(
      `CREATE FUNCTION chime_notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
       BEGIN
         PERFORM pg_notify('chime_changes', OLD.account_id);
         IF TG_OP = 'UPDATE' AND NEW.account_id IS DISTINCT FROM OLD.account_id THEN
           PERFORM pg_notify('chime_changes', NEW.account_id);
         END IF;
         RETURN NULL;
       END $fn$`,
    )
    .execute(db);
  await sql
    .raw('CREATE TRIGGER sessions_notify_change AFTER DELETE OR UPDATE OF account_id, token_hash, expires_at ON sessions FOR EACH ROW EXECUTE FUNCTION chime_notify_session_change()')
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!onPostgres(db)) return;
  await sql.raw('DROP TRIGGER IF EXISTS sessions_notify_change ON sessions').execute(db);
  await sql.raw('DROP FUNCTION IF EXISTS chime_notify_session_change()').execute(db);
}
