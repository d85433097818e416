import type { Kysely } from 'kysely';

/**
 * Several instances share one outbox (README "Running several instances"): an instance takes a
 * lease on the deliveries it is about to send (lease_owner, lease_expires_at) and renews it while
 * they are in its memory. Another instance skips leased rows; when the holder dies, its leases
 * expire and the rows are sent by another instance, with their original idempotency key.
 * Writing an attempt's result clears the lease. Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deliveries').addColumn('lease_owner', 'text').execute();
  await db.schema.alterTable('deliveries').addColumn('lease_expires_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deliveries').dropColumn('lease_expires_at').execute();
  await db.schema.alterTable('deliveries').dropColumn('lease_owner').execute();
}
