import type { Kysely } from 'kysely';

/**
 * Secrets this server made for itself and every instance and delivery thread must share
 * (docs/notifications.md): the key that signs action links (`action_links`). Made at first use
 * with an insert that keeps the first writer's value, so parallel instances agree.
 *
 *  - name: what the secret is for.
 *  - value: the secret (base64url), never logged, never answered by the API.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_secrets').execute();
}
