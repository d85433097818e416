import type { Kysely } from 'kysely';

/**
 * Telegram chats an account connected (docs/notifications.md "Telegram"): a private chat with the
 * bot, or a group the bot was added to, where someone sent `/start <code>` with a one-time code the
 * account asked for. Only a connected chat can be a reminder's Telegram destination.
 *
 *  - chat_id: Telegram's chat id, as text (it may exceed 32 bits, and groups are negative).
 *  - chat_type: private, group or supergroup.
 *  - label: what the dashboard shows: @username or the first name of a private chat, a group's title.
 *
 * One row per account and chat (a second /start in the same chat refreshes it). Deleting the
 * account deletes its chats (ON DELETE CASCADE). Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('telegram_chats')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('chat_id', 'text', (c) => c.notNull())
    .addColumn('chat_type', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('telegram_chats_account_chat').on('telegram_chats').columns(['account_id', 'chat_id']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('telegram_chats').execute();
}
