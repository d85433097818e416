import type { Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
// The scheduler pages through the outbox with a keyset on (next_attempt_at, id) per status; with
// `id` in the index the pages come out in index order instead of being sorted on every read.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('deliveries_outbox_idx').on('deliveries').columns(['status', 'next_attempt_at', 'id']).execute();
  // Same leading columns: the new index serves every query the old one did.
  await db.schema.dropIndex('deliveries_open_idx').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('deliveries_open_idx').ifNotExists().on('deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.dropIndex('deliveries_outbox_idx').ifExists().execute();
}
