/**
 * Telegram (docs/notifications.md "Telegram"): messages to a chat, sent by the administrator's bot
 * (TELEGRAM_BOT_TOKEN), with Snooze / Tomorrow / Done buttons. Metadata `{ chat_id, label }`:
 * `chat_id` a chat this account connected with a /start code (decimal text), `label` its title or
 * @username as Telegram says when the destination is checked (never taken from a client). The user
 * gives no credential.
 */
import { AppError } from '../../errors.ts';
import type { DestinationModule } from '../types.ts';
import { checkTelegramChat } from './check.ts';
import { parseChatId } from './chat-id.ts';
import { telegramSenderOf } from './sender.ts';

export const telegramDestination: DestinationModule = {
  type: 'telegram',
  cap: 5,
  noun: 'Telegram',
  requiresDiscordIdentity: false,
  parseMetadata(meta, where) {
    const chatId = parseChatId(meta.chat_id);
    if (!chatId) throw new AppError('INVALID_DESTINATION', `${where}.metadata.chat_id must be the id of a Telegram chat you connected`);
    return { chat_id: chatId };
  },
  preflight: (deps, accountId, metadata) => checkTelegramChat(deps, accountId, metadata),
  createSender: telegramSenderOf,
  label(meta) {
    return `Telegram ${typeof meta.label === 'string' ? meta.label : typeof meta.chat_id === 'string' ? meta.chat_id : ''}`.trim();
  },
};
