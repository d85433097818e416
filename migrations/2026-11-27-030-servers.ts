import type { Kysely } from 'kysely';

/**
 * Servers (docs/servers.md): what a Discord server's managers see and decide.
 *
 *  - destinations.guild_id: the Discord server of a `discord_channel` destination (null for every
 *    other type), copied out of its metadata so a server's reminders are one indexed lookup;
 *    filled here for the rows that exist.
 *  - destinations.server_paused_at: a manager of that server paused this destination (the
 *    reminder's other destinations, the creator's own, keep firing); null otherwise.
 *  - reminders.server_notice: why a server's manager changed the creator's reminder (its channel
 *    destinations removed or taken over), shown to the creator; null otherwise.
 *  - server_settings: one row per Discord server whose managers saved rules; a server without a
 *    row has the defaults. allowed_channel_ids is JSON text (an array of ids) or null for any.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('destinations').addColumn('guild_id', 'text').execute();
  await db.schema.alterTable('destinations').addColumn('server_paused_at', 'text').execute();
  await db.schema.alterTable('reminders').addColumn('server_notice', 'text').execute();
  await db.schema.createIndex('destinations_guild').on('destinations').columns(['guild_id', 'reminder_id']).execute();

  const rows = (await db.selectFrom('destinations').select(['id', 'metadata']).where('type', '=', 'discord_channel').execute()) as Array<{ id: string; metadata: string }>;
  for (const row of rows) {
    let guildId: unknown = null;
    try {
      guildId = (JSON.parse(row.metadata) as { guild_id?: unknown }).guild_id ?? null;
    } catch {
      guildId = null;
    }
    if (typeof guildId === 'string' && guildId !== '') await db.updateTable('destinations').set({ guild_id: guildId }).where('id', '=', row.id).execute();
  }

  await db.schema
    .createTable('server_settings')
    .addColumn('guild_id', 'text', (c) => c.primaryKey())
    .addColumn('manager_role_id', 'text')
    .addColumn('default_timezone', 'text')
    .addColumn('who_can_create', 'text', (c) => c.notNull().defaultTo('everyone'))
    .addColumn('creator_role_id', 'text')
    .addColumn('role_mentions', 'text', (c) => c.notNull().defaultTo('everyone'))
    .addColumn('everyone_mention', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allowed_channel_ids', 'text')
    .addColumn('max_reminders', 'integer')
    .addColumn('former_members', 'text', (c) => c.notNull().defaultTo('keep'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_settings').execute();
  await db.schema.dropIndex('destinations_guild').execute();
  await db.schema.alterTable('reminders').dropColumn('server_notice').execute();
  await db.schema.alterTable('destinations').dropColumn('server_paused_at').execute();
  await db.schema.alterTable('destinations').dropColumn('guild_id').execute();
}
