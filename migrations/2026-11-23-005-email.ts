import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Email (README "Email"): password-reset links, the addresses an account confirmed for email
 * destinations, and a log of the mails each account sent (the hourly cap).
 *
 *  - password_reset_tokens: one row per link; only the SHA-256 (hex) of the token is stored. A
 *    link is used once (used_at) and expires (expires_at, one hour after it was made).
 *  - email_addresses: per account and address (lower-cased in address_normalized), whether it was
 *    confirmed (confirmed_at) and the hash of the latest confirmation link sent to it.
 *  - email_sends: one row per mail sent on an account's behalf (reminders, confirmations, resets).
 *
 * Deleting the account deletes all three (ON DELETE CASCADE; deleteAccount also deletes them).
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_reset_tokens_account').on('password_reset_tokens').column('account_id').execute();

  await db.schema
    .createTable('email_addresses')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('address_normalized', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('token_hash', 'text')
    .addColumn('token_expires_at', 'text')
    .addColumn('confirmation_sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_addresses_pk', ['account_id', 'address_normalized'])
    .execute();
  await db.schema.createIndex('email_addresses_token_hash').unique().on('email_addresses').column('token_hash').execute();

  await db.schema
    .createTable('email_sends')
    .addColumn('id', onPostgres(db) ? 'bigint' : 'integer', (c) => (onPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_sends_account_created').on('email_sends').columns(['account_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_sends').execute();
  await db.schema.dropTable('email_addresses').execute();
  await db.schema.dropTable('password_reset_tokens').execute();
}

/**
 * PostgreSQL has no AUTOINCREMENT: there the id is a bigint identity column (SQLite's integer is
 * 64-bit too). SQLite gets exactly the column it always had.
 */
const onPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
