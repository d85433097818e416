import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration must never import application code.
// The outbox only ever reads deliveries that are still open (pending or retrying). Indexing just
// those keeps the index a few pages in size however long the delivery log gets, and marking a
// delivery delivered or failed becomes a delete from it instead of a move within it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('deliveries_open_partial_idx')
    .on('deliveries')
    .columns(['status', 'next_attempt_at', 'id'])
    .where(sql.ref('status'), 'in', sql`('pending', 'retrying')`)
    .execute();
  await db.schema.dropIndex('deliveries_outbox_idx').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('deliveries_outbox_idx').ifNotExists().on('deliveries').columns(['status', 'next_attempt_at', 'id']).execute();
  await db.schema.dropIndex('deliveries_open_partial_idx').ifExists().execute();
}
