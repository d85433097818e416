import type { Kysely } from 'kysely';

/**
 * accounts.disabled_at: when an administrator disabled the account (`npm run admin -- accounts
 * disable`), null while it is usable. A disabled account cannot sign in and its reminders do not
 * fire; nothing else about it changes, so enabling it again restores it as it was.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('disabled_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('disabled_at').execute();
}
