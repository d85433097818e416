import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Ok, TelegramChatList, TelegramLinkCode } from '@/lib/api/types';

/** While a code waits for its /start, the chats are asked again this often. */
export const TELEGRAM_POLL_MS = 2_000;
export const TELEGRAM_CHATS_KEY = '/api/telegram/chats';

/** A new one-time code for connecting a Telegram chat (docs/notifications.md "Telegram"). */
export const createTelegramLinkCode = () => api.post<TelegramLinkCode>('/api/telegram/link-codes');

/** Forgets a connected chat (`id`: Chime's id of the connection, not Telegram's chat id). */
export const forgetTelegramChat = (id: string) => api.delete<Ok>(`/api/telegram/chats/${encodeURIComponent(id)}`);

/** The account's connected chats; polled while `waiting` (a code is shown and has not been used yet). */
export function useTelegramChats(waiting: boolean) {
  return useSWR<TelegramChatList>(TELEGRAM_CHATS_KEY, { refreshInterval: waiting ? TELEGRAM_POLL_MS : 0, revalidateOnFocus: true });
}
