import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * On PostgreSQL, every change to an account's reminders, their destinations or the account itself
 * sends NOTIFY chime_changes with the account's id, delivered when its transaction commits,
 * whoever made it (an instance's API or delivery thread, psql, an admin tool). The instances
 * LISTEN: it wakes their schedulers and tells their caches which account changed (README "Running
 * several instances"). Notices of one transaction with the same account are sent once.
 *
 * SQLite has no such thing and needs none: its processes read the file's change counter and the
 * per-account list_version (migration 2026-11-23-012). Frozen in time: no application imports.
 */
const onPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const FUNCTIONS: [name: string, body: string][] = [
  [
    'chime_notify_reminder_change',
    `BEGIN
       IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('chime_changes', OLD.account_id); END IF;
       IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.account_id IS DISTINCT FROM OLD.account_id) THEN
         PERFORM pg_notify('chime_changes', NEW.account_id);
       END IF;
       RETURN NULL;
     END`,
  ],
  [
    // A destination deleted with its reminder finds no reminder: the reminder's own notice says it.
    'chime_notify_destination_change',
    `DECLARE owner text;
     BEGIN
       IF TG_OP <> 'INSERT' THEN
         SELECT account_id INTO owner FROM reminders WHERE id = OLD.reminder_id;
         IF owner IS NOT NULL THEN PERFORM pg_notify('chime_changes', owner); END IF;
       END IF;
       IF TG_OP <> 'DELETE' THEN
         SELECT account_id INTO owner FROM reminders WHERE id = NEW.reminder_id;
         IF owner IS NOT NULL THEN PERFORM pg_notify('chime_changes', owner); END IF;
       END IF;
       RETURN NULL;
     END`,
  ],
  [
    'chime_notify_account_change',
    `BEGIN
       PERFORM pg_notify('chime_changes', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
       RETURN NULL;
     END`,
  ],
];

const TRIGGERS: [name: string, table: string, events: string, fn: string][] = [
  ['reminders_notify_change', 'reminders', 'INSERT OR UPDATE OR DELETE', 'chime_notify_reminder_change'],
  ['destinations_notify_change', 'destinations', 'INSERT OR UPDATE OR DELETE', 'chime_notify_destination_change'],
  ['accounts_notify_change', 'accounts', 'UPDATE OR DELETE', 'chime_notify_account_change'],
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!onPostgres(db)) return;
  for (const [name, body] of FUNCTIONS) {
    await sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$ ${body} $fn$`).execute(db);
  }
  for (const [name, table, events, fn] of TRIGGERS) {
    await sql.raw(`CREATE TRIGGER ${name} AFTER ${events} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!onPostgres(db)) return;
  for (const [name, table] of TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`).execute(db);
  for (const [name] of FUNCTIONS) await sql.raw(`DROP FUNCTION IF EXISTS ${name}()`).execute(db);
}
