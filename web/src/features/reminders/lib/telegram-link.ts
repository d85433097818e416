/** The Telegram form's rules, apart from React (tests/unit/web/features/reminders/lib/telegram-link.test.ts). */
import type { TelegramChat, TelegramLinkCode } from '@/lib/api/types';
import type { EditableDestination } from '../api/destinations';

/** Whether a shown code can no longer connect anything. */
export function codeExpired(code: Pick<TelegramLinkCode, 'expires_at'>, nowMs: number): boolean {
  const expires = Date.parse(code.expires_at);
  return !Number.isFinite(expires) || nowMs >= expires;
}

/** The chats that appeared since the code was shown (`before`: the chat ids listed then). */
export function newlyConnected(chats: readonly TelegramChat[] | undefined, before: ReadonlySet<string>): TelegramChat[] {
  return (chats ?? []).filter((c) => !before.has(c.chat_id));
}

/** The connected chats this reminder does not send to yet. */
export function chatsToOffer(chats: readonly TelegramChat[] | undefined, destinations: readonly EditableDestination[]): TelegramChat[] {
  const used = new Set(destinations.filter((d) => d.type === 'telegram').map((d) => String(d.metadata.chat_id ?? '')));
  return (chats ?? []).filter((c) => !used.has(c.chat_id));
}

/** The destination of a connected chat, labelled by its title or @username. */
export function chatDestination(chat: TelegramChat): EditableDestination {
  return { type: 'telegram', metadata: { chat_id: chat.chat_id }, label: chat.label };
}
