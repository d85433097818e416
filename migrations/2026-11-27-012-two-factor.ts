import type { Kysely } from 'kysely';

/**
 * Two-factor codes (docs/security.md "Two-factor codes"): TOTP (RFC 6238) asked after the
 * password, and single-use recovery codes.
 *
 *  - two_factor: one row per account that started or finished setting it up.
 *    - secret: the TOTP secret (base32), which the server needs in clear to compute codes.
 *    - enabled_at: null while the setup waits for its first code; the account asks for codes
 *      only once it is set.
 *    - last_step: the 30-second step of the last code accepted: a code is never taken twice.
 *  - recovery_codes: 10 per account, each stored as a SHA-256 (hex) of the code; used_at set when
 *    used (single use).
 *
 * Deleting the account deletes both (ON DELETE CASCADE). Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('enabled_at', 'text')
    .addColumn('last_step', 'integer')
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_account').on('recovery_codes').columns(['account_id', 'code_hash']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('two_factor').execute();
}
