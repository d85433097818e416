import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// delivery_attempts referenced reminders and destinations directly, besides its delivery. Every
// delete of a reminder or destination then made the database look for attempts by reminder_id or
// destination_id, columns without an index: a scan of the whole delivery log per delete. The
// attempt already belongs to its delivery, which belongs to the reminder and the destination, so
// those two references were redundant; the columns stay for reading. The table is rebuilt because
// SQLite cannot drop a foreign key in place.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('delivery_attempts_rebuilt')
    .addColumn('id', onPostgres(db) ? 'bigint' : 'integer', (c) => (onPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('reminder_id', 'text', (c) => c.notNull())
    .addColumn('destination_id', 'text', (c) => c.notNull())
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
  const columns = [
    'id',
    'delivery_id',
    'reminder_id',
    'destination_id',
    'account_id',
    'occurrence_utc',
    'attempt',
    'outcome',
    'error',
    'http_status',
    'discord_code',
    'duration_ms',
    'created_at',
  ];
  await db
    .insertInto('delivery_attempts_rebuilt')
    .columns(columns)
    .expression(db.selectFrom('delivery_attempts').select(columns))
    .execute();
  await db.schema.dropTable('delivery_attempts').execute();
  await db.schema.alterTable('delivery_attempts_rebuilt').renameTo('delivery_attempts').execute();
  await db.schema.createIndex('delivery_attempts_account_idx').on('delivery_attempts').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('delivery_attempts_delivery_idx').on('delivery_attempts').column('delivery_id').execute();
  await db.schema.createIndex('delivery_attempts_created_idx').on('delivery_attempts').column('created_at').execute();
}

export async function down(): Promise<void> {
  // The two references were redundant; nothing to restore.
}

/**
 * PostgreSQL has no AUTOINCREMENT: there the id is a bigint identity column (SQLite's integer is
 * 64-bit too). SQLite gets exactly the column it always had.
 */
const onPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
