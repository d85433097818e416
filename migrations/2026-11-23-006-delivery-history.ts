import { type Kysely, sql } from 'kysely';

/**
 * Delivery history, dismissable problems and destinations that stop after repeated failures
 * (README "Delivery history and problems").
 *
 *  - deliveries.dismissed_at: the owner hid this failed delivery from "Delivery problems"; the
 *    history still shows it. A resend clears it.
 *  - destinations.disabled_code: the machine code of disabled_reason (DESTINATION_FAILING after
 *    5 failed deliveries in a row, WEBHOOK_GONE, DISCORD_UNKNOWN_CHANNEL...), so the dashboard
 *    can say why in the owner's language. Destinations disabled before this migration keep a
 *    null code and their English reason.
 *  - deliveries (destination_id, occurrence_utc): the last deliveries of a destination, read after
 *    every failed delivery; it replaces the single-column index it starts with.
 *  - deliveries (account_id, updated_at) for failed and retrying rows only: the problems list
 *    reads a handful of rows per account out of millions of delivered ones.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deliveries').addColumn('dismissed_at', 'text').execute();
  await db.schema.alterTable('destinations').addColumn('disabled_code', 'text').execute();
  await db.schema.createIndex('deliveries_destination_occurrence_idx').on('deliveries').columns(['destination_id', 'occurrence_utc']).execute();
  await db.schema.dropIndex('deliveries_destination_idx').ifExists().execute();
  await db.schema
    .createIndex('deliveries_problems_idx')
    .on('deliveries')
    .columns(['account_id', 'updated_at'])
    .where(sql.ref('status'), 'in', sql`('failed', 'retrying')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('deliveries_problems_idx').ifExists().execute();
  await db.schema.createIndex('deliveries_destination_idx').ifNotExists().on('deliveries').column('destination_id').execute();
  await db.schema.dropIndex('deliveries_destination_occurrence_idx').ifExists().execute();
  await db.schema.alterTable('destinations').dropColumn('disabled_code').execute();
  await db.schema.alterTable('deliveries').dropColumn('dismissed_at').execute();
}
