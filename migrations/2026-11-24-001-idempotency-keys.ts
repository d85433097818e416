import type { Kysely } from 'kysely';

/**
 * Idempotency keys of the requests that create (POST /api/reminders, .../duplicate,
 * /api/reminders/import; README "Retrying a create safely"). A client that sends an
 * `Idempotency-Key` and gets no answer (a timeout, a dropped connection, a 503 on a commit that
 * went through) may send the request again: the key's row, written in the same transaction as
 * what the request created, makes the second one answer the first one's result instead of
 * creating it again.
 *
 *  - key_hash: SHA-256 of the client's key, per account (another account's key is another key).
 *  - fingerprint: SHA-256 of the operation and its input; the same key with another input is refused.
 *  - result: JSON of what the first request did (the id it created, or the import's summary).
 *
 * Rows older than a day are of no use and are deleted. Times are ISO-8601 UTC text like every
 * other instant in the schema. Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key_hash'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
