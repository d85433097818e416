import type { Kysely } from 'kysely';

/**
 * Each delivery keeps the concurrency key of its destination (webhook host, "discord") as its
 * sender computed it when the delivery was written. A claim of outbox rows leaves the rows of the
 * keys whose share of memory is full in the table, so one slow host's backlog never stands in
 * front of another host's deliveries. Null for rows written before: claimed like any other.
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deliveries').addColumn('concurrency_key', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deliveries').dropColumn('concurrency_key').execute();
}
