import type { Kysely } from 'kysely';

/**
 * The delivery log's index by (account_id, created_at) goes. Nothing reads the log by account
 * (history reads it by delivery), and the two writes that went by account (deleting an account,
 * moving a bot-made account into a real one) now reach the attempts through the account's
 * reminders and their deliveries.
 *
 * Why it matters: every attempt written added an entry to it, keyed by an account that is random
 * among all accounts, so each one dirtied an index page of its own. In a burst of 100,000 due at
 * once that was about a tenth of the server's CPU per delivery (README "Benchmarks"). The foreign
 * key to accounts stays, so deleting an account now reads the log once; that happens once per
 * account, where the index cost something on every delivery.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('delivery_attempts_account_idx').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('delivery_attempts_account_idx').on('delivery_attempts').columns(['account_id', 'created_at']).execute();
}
