import type { Kysely } from 'kysely';

/**
 * Personal access tokens (docs/api.md): credentials a script uses instead of a session, limited
 * to the reminder routes their scopes allow.
 *
 *  - token_hash: SHA-256 (hex) of the token; the token itself is never stored, it is shown once.
 *  - scopes: the scopes granted, space-separated (`reminders:read`, `reminders:write`).
 *  - expires_at: null for a token that does not expire.
 *  - last_used_at: written at most once a minute per token.
 *
 * Deleting the account deletes its tokens (ON DELETE CASCADE; foreign keys are on). Ids are text
 * UUIDs as elsewhere, so the table is the same on SQLite and PostgreSQL.
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('access_tokens_token_hash').unique().on('access_tokens').column('token_hash').execute();
  await db.schema.createIndex('access_tokens_account').on('access_tokens').columns(['account_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('access_tokens').execute();
}
