import type { Kysely } from 'kysely';

/**
 * "Remind me too" (docs/discord.md): people who pressed the button under a channel reminder's
 * delivery and are sent its coming occurrences by DM.
 *
 *  - reminder_subscriptions: one row per reminder and subscriber account (unique). destination_id
 *    is the subscriber's own delivery target, a `discord_subscriber` row of `destinations` on the
 *    reminder, so each occurrence reaches the subscriber through the outbox like any destination
 *    (exactly once per occurrence, retries, history). Deleting the reminder, the destination or the
 *    subscriber's account deletes the subscription (ON DELETE CASCADE).
 *  - server_settings.allow_remind_me_too: a server's managers may turn the button off (1 = allowed).
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reminder_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reminder_id', 'text', (c) => c.notNull().references('reminders.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reminder_subscriptions_reminder_account').on('reminder_subscriptions').columns(['reminder_id', 'account_id']).unique().execute();
  await db.schema.createIndex('reminder_subscriptions_account').on('reminder_subscriptions').column('account_id').execute();
  await db.schema.createIndex('reminder_subscriptions_destination').on('reminder_subscriptions').column('destination_id').execute();
  await db.schema.alterTable('server_settings').addColumn('allow_remind_me_too', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('server_settings').dropColumn('allow_remind_me_too').execute();
  await db.schema.dropTable('reminder_subscriptions').execute();
}
