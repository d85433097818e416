import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this migration must never import application code.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text')
    .addColumn('email_normalized', 'text')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('locale', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_email_normalized_uq').unique().on('accounts').column('email_normalized').execute();

  await db.schema
    .createTable('identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('token_expires_at', 'text')
    .addColumn('scope', 'text')
    .addColumn('dm_channel_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('identities_provider_external_uq').unique().on('identities').columns(['provider', 'external_id']).execute();
  await db.schema.createIndex('identities_account_provider_uq').unique().on('identities').columns(['account_id', 'provider']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_token_hash_uq').unique().on('sessions').column('token_hash').execute();
  await db.schema.createIndex('sessions_account_idx').on('sessions').column('account_id').execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('reminders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('remind_at_utc', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('recurrence_type', 'text', (c) => c.notNull().defaultTo('ONCE'))
    .addColumn('is_paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('snoozed_at_utc', 'text')
    .addColumn('next_fire_utc', 'text')
    .addColumn('next_occurrence_utc', 'text')
    .addColumn('last_fired_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // "Reminders of one account", newest first.
  await db.schema.createIndex('reminders_account_created_idx').on('reminders').columns(['account_id', 'created_at']).execute();
  // "Due reminders": only rows that can fire are indexed, so the index stays small and hot.
  await db.schema
    .createIndex('reminders_due_idx')
    .on('reminders')
    .column('next_fire_utc')
    .where(sql.ref('next_fire_utc'), 'is not', null)
    .where(sql.ref('is_paused'), '=', 0)
    .execute();

  await db.schema
    .createTable('destinations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reminder_id', 'text', (c) => c.notNull().references('reminders.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('secret', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_at', 'text')
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('destinations_reminder_idx').on('destinations').columns(['reminder_id', 'position']).execute();

  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reminder_id', 'text', (c) => c.notNull().references('reminders.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('occurrence_utc', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('late', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  // Exactly once per occurrence and destination, across crashes and restarts.
  await db.schema
    .createIndex('deliveries_occurrence_uq')
    .unique()
    .on('deliveries')
    .columns(['reminder_id', 'occurrence_utc', 'destination_id'])
    .execute();
  await db.schema
    .createIndex('deliveries_open_idx')
    .on('deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('deliveries_destination_idx').on('deliveries').column('destination_id').execute();

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', onPostgres(db) ? 'bigint' : 'integer', (c) => (onPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('reminder_id', 'text', (c) => c.notNull().references('reminders.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('occurrence_utc', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('discord_code', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_attempts_account_idx').on('delivery_attempts').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('delivery_attempts_delivery_idx').on('delivery_attempts').column('delivery_id').execute();
  await db.schema.createIndex('delivery_attempts_created_idx').on('delivery_attempts').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['delivery_attempts', 'deliveries', 'destinations', 'reminders', 'sessions', 'identities', 'accounts']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

/**
 * PostgreSQL has no AUTOINCREMENT: there the id is a bigint identity column (SQLite's integer is
 * 64-bit too). SQLite gets exactly the column it always had.
 */
const onPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
