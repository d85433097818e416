import type { Kysely } from 'kysely';

/**
 * server_audit: every change to a Discord server's reminders (those with a channel destination in
 * it) or to its settings, by anyone (docs/servers.md "Audit log"), kept 90 days.
 *
 *  - actor_account_id: the Chime account that made the change (null once that account is gone);
 *    actor_discord_user_id and actor_username are copied at the time, so the entry still names them.
 *  - action: create, edit, pause, resume, delete, take_over or settings.
 *  - reminder_id: no foreign key: the entry outlives a deleted reminder.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_account_id', 'text', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('actor_discord_user_id', 'text')
    .addColumn('actor_username', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('reminder_id', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('server_audit_guild_at').on('server_audit').columns(['guild_id', 'at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_audit').execute();
}
