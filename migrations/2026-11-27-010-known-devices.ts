import type { Kysely } from 'kysely';

/**
 * Known devices (docs/security.md, OWASP "device cookies"): a browser that signed into an account
 * with its password carries a long-lived random token in the `chime_device` cookie; this table
 * says which accounts that browser is known for. A sign-in presenting it is judged on the
 * device's own failure budget, so a network slowed for spraying never holds the owner back.
 *
 *  - token_hash: SHA-256 (hex) of the cookie's token; the token itself is never stored. One
 *    browser has one token, and one row per account it signed into.
 *  - last_used_at: the last sign-in from it.
 *
 * Deleting the account deletes its rows (ON DELETE CASCADE). Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('known_devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('known_devices_token_account').unique().on('known_devices').columns(['token_hash', 'account_id']).execute();
  await db.schema.createIndex('known_devices_account').on('known_devices').columns(['account_id', 'last_used_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('known_devices').execute();
}
