import type { Kysely } from 'kysely';

/**
 * State that lived in one process's memory moves to the database, so several instances behind one
 * load balancer share it and a restart keeps it (README "Running several instances"):
 *
 *  - short_lived_records: Discord OAuth states and setup tickets. Keyed by (kind, SHA-256 of the
 *    random key the browser holds in a cookie); single-use; expires_at bounds their life.
 *  - rate_windows: fixed-window counters (test sends and resends per account, calendar feed
 *    requests per token and per client address). reset_at ends the window.
 *  - attempt_failures: the sliding windows of the password-guessing throttle, one row per failed
 *    (or still running) attempt and counter key (account+network, account, network).
 *
 * Times are ISO-8601 UTC text like every other instant in the schema. Frozen in time: no
 * application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('short_lived_records')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('short_lived_records_pk', ['kind', 'key_hash'])
    .execute();
  await db.schema.createIndex('short_lived_records_expires_idx').on('short_lived_records').column('expires_at').execute();

  await db.schema
    .createTable('rate_windows')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_windows_reset_idx').on('rate_windows').column('reset_at').execute();

  await db.schema
    .createTable('attempt_failures')
    .addColumn('attempt_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('net', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('attempt_failures_pk', ['attempt_id', 'key'])
    .execute();
  await db.schema.createIndex('attempt_failures_key_at_idx').on('attempt_failures').columns(['key', 'at']).execute();
  await db.schema.createIndex('attempt_failures_at_idx').on('attempt_failures').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attempt_failures').execute();
  await db.schema.dropTable('rate_windows').execute();
  await db.schema.dropTable('short_lived_records').execute();
}
