import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A per-account counter of changes to what `GET /api/reminders` shows: any insert, update or
 * delete of one of the account's reminders or of their destinations moves it, whichever connection
 * makes it (the API, the delivery thread, another process on the same file). The list cache checks
 * it instead of the database-wide change counter, so one account's writes no longer throw away every
 * other account's cached list.
 *
 * SQLite only: there every write is serialized, so the triggers cannot deadlock. On PostgreSQL
 * several instances update reminders of the same accounts concurrently, and a row lock per account
 * taken in arbitrary order could; the column stays 0 there and the cache keeps the database-wide
 * token. Frozen in time: no application imports.
 */
const onPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const BUMP_REMINDER = (row: 'NEW' | 'OLD') => `UPDATE accounts SET list_version = list_version + 1 WHERE id = ${row}.account_id;`;
const BUMP_DESTINATION = (row: 'NEW' | 'OLD') =>
  `UPDATE accounts SET list_version = list_version + 1 WHERE id = (SELECT account_id FROM reminders WHERE id = ${row}.reminder_id);`;

const TRIGGERS: [name: string, event: string, body: string][] = [
  ['reminders_list_version_insert', 'AFTER INSERT ON reminders', BUMP_REMINDER('NEW')],
  ['reminders_list_version_update', 'AFTER UPDATE ON reminders', BUMP_REMINDER('NEW')],
  ['reminders_list_version_delete', 'AFTER DELETE ON reminders', BUMP_REMINDER('OLD')],
  ['destinations_list_version_insert', 'AFTER INSERT ON destinations', BUMP_DESTINATION('NEW')],
  ['destinations_list_version_update', 'AFTER UPDATE ON destinations', BUMP_DESTINATION('NEW')],
  ['destinations_list_version_delete', 'AFTER DELETE ON destinations', BUMP_DESTINATION('OLD')],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('list_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (onPostgres(db)) return;
  for (const [name, event, body] of TRIGGERS) await sql.raw(`CREATE TRIGGER ${name} ${event} BEGIN ${body} END`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!onPostgres(db)) for (const [name] of TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  await db.schema.alterTable('accounts').dropColumn('list_version').execute();
}
