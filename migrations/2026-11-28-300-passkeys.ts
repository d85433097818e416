import type { Kysely } from 'kysely';

/**
 * Passkeys (docs/security.md "Passkeys"): WebAuthn credentials an account signs in with, without
 * a password. One row per credential:
 *
 *  - credential_id: the credential's id (base64url) the authenticator answers with; unique.
 *  - public_key: its COSE public key (base64url), what signatures are checked against.
 *  - counter: the signature counter last seen (a counter that goes back means a cloned key).
 *  - transports: the transports the browser reported (JSON array), or null.
 *  - device_type / backed_up: 'singleDevice' or 'multiDevice', and whether it is backed up
 *    (synced passkeys), from the authenticator's flags; backed_up is 0 or 1.
 *  - name: what the owner called it; last_used_at: its last sign-in.
 *
 * The challenges of a registration or a sign-in in progress are short-lived records
 * (short_lived_records, single use, 5 minutes). Deleting the account deletes its passkeys
 * (ON DELETE CASCADE). Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text')
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  // A named unique index, not a column constraint: the same index by the same name on SQLite and PostgreSQL.
  await db.schema.createIndex('passkeys_credential_id').on('passkeys').column('credential_id').unique().execute();
  await db.schema.createIndex('passkeys_account').on('passkeys').columns(['account_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkeys').execute();
}
