/** Telegram chats accounts connected (migration 2026-11-28-310): plain data access; the rules are in server/accounts/telegram.ts. */
import type { Executor } from './executor.ts';

/** Adds the chat to the account, or refreshes its type and label when it is already there (one statement). */
export async function upsertTelegramChat(
  db: Executor,
  row: { id: string; account_id: string; chat_id: string; chat_type: string; label: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('telegram_chats')
    .values({ ...row, updated_at: row.created_at })
    .onConflict((oc) => oc.columns(['account_id', 'chat_id']).doUpdateSet({ chat_type: row.chat_type, label: row.label, updated_at: row.created_at }))
    .execute();
}

export async function listTelegramChats(db: Executor, accountId: string) {
  return db.selectFrom('telegram_chats').selectAll().where('account_id', '=', accountId).orderBy('updated_at', 'desc').orderBy('id').execute();
}

export async function findTelegramChat(db: Executor, accountId: string, chatId: string) {
  return db.selectFrom('telegram_chats').selectAll().where('account_id', '=', accountId).where('chat_id', '=', chatId).executeTakeFirst();
}

export async function deleteTelegramChat(db: Executor, accountId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('telegram_chats').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What a delivery delivered (its reminder and occurrence), to rebuild the action token a Telegram button refers to. */
export async function findDeliveryOccurrence(db: Executor, deliveryId: string) {
  return db.selectFrom('deliveries').select(['reminder_id', 'occurrence_utc']).where('id', '=', deliveryId).executeTakeFirst();
}
