/**
 * The check when a Telegram destination is added (every save, and POST /api/destinations/check):
 * the chat must be one this account connected with a /start code (server/accounts/telegram.ts),
 * and the bot must still reach it: `getChat` answers (a chat the bot left, or a user who blocked
 * it, is refused with the precise TELEGRAM_ code in `reason`). The label shown for it is the
 * chat's current title or @username, from Telegram, never from a client.
 */
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { findTelegramChat } from '../../repositories/telegram-chats.ts';
import { createPushClient } from '../push-common/http.ts';
import type { DestinationMetadata, PreflightDeps } from '../types.ts';
import { telegramCall } from './client.ts';
import { parseChatId } from './chat-id.ts';

/** A check waits at most this long: the dashboard is waiting. */
const CHECK_TIMEOUT_MS = 8_000;

/** What a chat is called in the dashboard: a group's title, else @username, else the first name. */
export function chatLabel(chat: { title?: unknown; username?: unknown; first_name?: unknown; last_name?: unknown }): string | null {
  if (typeof chat.title === 'string' && chat.title.trim()) return chat.title.trim().slice(0, 128);
  if (typeof chat.username === 'string' && chat.username.trim()) return `@${chat.username.trim().slice(0, 64)}`;
  const name = [chat.first_name, chat.last_name].filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(' ').trim();
  return name ? name.slice(0, 128) : null;
}

export function telegramNotConfigured(): AppError {
  return new AppError('TELEGRAM_NOT_CONFIGURED', 'Telegram is not configured on this server: ask its administrator');
}

export async function checkTelegramChat(deps: Pick<PreflightDeps, 'db'> & { config: Pick<Config, 'telegram' | 'webhookAllowPrivateTargets'> }, accountId: string, metadata: DestinationMetadata): Promise<void> {
  const telegram = deps.config.telegram;
  if (!telegram) throw telegramNotConfigured();
  const chatId = parseChatId(metadata.chat_id);
  if (!chatId) throw new AppError('INVALID_DESTINATION', 'metadata.chat_id must be the id of a Telegram chat you connected');
  const connected = await findTelegramChat(deps.db, accountId, chatId);
  if (!connected) throw new AppError('TELEGRAM_CHAT_NOT_CONNECTED', 'This Telegram chat is not connected to your account: send the bot /start with a code from the dashboard first');
  const client = createPushClient({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets, timeoutMs: CHECK_TIMEOUT_MS });
  try {
    const { result, value } = await telegramCall(client, telegram, 'getChat', { chat_id: chatId }, 'checking the chat');
    if (!result.ok) throw new AppError('PUSH_CHECK_FAILED', result.error, 400, { reason: result.code });
    metadata.label = (value && typeof value === 'object' ? chatLabel(value as Record<string, unknown>) : null) ?? connected.label;
  } finally {
    await client.close();
  }
}
