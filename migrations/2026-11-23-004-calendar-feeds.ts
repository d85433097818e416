import type { Kysely } from 'kysely';

/**
 * The calendar feed of an account (README "Calendar feed, export and import"): one secret
 * address per account, at most.
 *
 *  - token_hash: SHA-256 (hex) of the token in the address; the public feed route looks the
 *    token up by it (unique index), as sessions are.
 *  - token: the token itself, so the dashboard can show the address again. Readable by the
 *    calendar-feed service only (server/accounts/calendar-feed.ts); it grants read access to
 *    what this same database holds in clear anyway (the reminders' messages and times).
 *
 * Deleting the account deletes its feed (ON DELETE CASCADE; foreign keys are on).
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('calendar_feeds_token_hash').unique().on('calendar_feeds').column('token_hash').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feeds').execute();
}
