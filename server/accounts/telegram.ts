/**
 * Connecting Telegram chats to an account (docs/notifications.md "Telegram"): the account asks for
 * a one-time code, someone sends `/start <code>` to the bot (in a private chat, or in a group the
 * bot was added to), and that chat becomes a Telegram destination the account may choose. The code
 * is short-lived (10 minutes), single use, scoped to the account that asked, and stored only as
 * its SHA-256 (a shared short-lived record), so a leaked database holds no usable code.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import { insertShortLivedRecord, takeShortLivedRecord } from '../repositories/short-lived-records.ts';
import { deleteTelegramChat, listTelegramChats, upsertTelegramChat } from '../repositories/telegram-chats.ts';
import { chatLabel, telegramNotConfigured } from '../destinations/telegram/check.ts';
import type { RateWindow } from '../coordination/rate-window.ts';
import { attemptRefused } from './login-throttle.ts';
import { telegramBotUsername } from '../destinations/telegram/bot.ts';

export const TELEGRAM_CODE_TTL_MS = 10 * 60_000;
/** Codes an account may ask for per code lifetime: each is a stored row, and a person needs one or two. */
export const TELEGRAM_CODES_PER_WINDOW = 10;
const CODE_KIND = 'telegram_link_code';
/** The chats a /start may connect: a channel's posts are not messages to the bot. */
const CONNECTABLE = new Set(['private', 'group', 'supergroup']);

type Deps = Pick<FastifyInstance, 'db' | 'config'>;

export interface TelegramLinkCode {
  code: string;
  /** What to send the bot: `/start <code>`. */
  start_command: string;
  /** https://t.me/<bot>?start=<code>, or null when the bot's username is unknown (Telegram did not answer getMe). */
  url: string | null;
  /** The same for a group: Telegram asks which group to add the bot to. */
  group_url: string | null;
  bot_username: string | null;
  expires_at: string;
}

/** A new one-time code for the account (Telegram's deep-link parameter: up to 64 of A-Z a-z 0-9 _ -). */
export async function createTelegramLinkCode(deps: Deps, accountId: string, perAccount: RateWindow, nowMs = Date.now()): Promise<TelegramLinkCode> {
  if (!deps.config.telegram) throw telegramNotConfigured();
  const wait = await perAccount.hit(accountId);
  if (wait !== null) throw attemptRefused(wait, 'Too many Telegram codes were asked for.');
  const code = randomBytes(18).toString('base64url');
  const expiresAt = new Date(nowMs + TELEGRAM_CODE_TTL_MS).toISOString();
  await insertShortLivedRecord(deps.db, { kind: CODE_KIND, key_hash: sha256Hex(code), value: accountId, expires_at: expiresAt });
  const bot = await telegramBotUsername(deps.config);
  return {
    code,
    start_command: `/start ${code}`,
    url: bot ? `https://t.me/${bot}?start=${code}` : null,
    group_url: bot ? `https://t.me/${bot}?startgroup=${code}` : null,
    bot_username: bot,
    expires_at: expiresAt,
  };
}

export interface TelegramChatOut {
  id: string;
  chat_id: string;
  chat_type: string;
  label: string;
  connected_at: string;
}

export async function listAccountTelegramChats(deps: Pick<Deps, 'db'>, accountId: string): Promise<TelegramChatOut[]> {
  const rows = await listTelegramChats(deps.db, accountId);
  return rows.map((r) => ({ id: r.id, chat_id: r.chat_id, chat_type: r.chat_type, label: r.label, connected_at: r.updated_at }));
}

/** Forgets a connected chat (reminders already sending there keep their destination until edited). */
export async function removeAccountTelegramChat(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<void> {
  if (!(await deleteTelegramChat(deps.db, accountId, id))) throw new AppError('NOT_FOUND', 'No such Telegram chat');
}

export type ConnectOutcome = { kind: 'connected'; accountId: string; label: string } | { kind: 'invalid' } | { kind: 'unsupported' };

/**
 * A `/start <code>` Telegram delivered: takes the code (one statement, so one chat wins) and
 * connects the chat to the account that asked for it.
 */
export async function connectTelegramChat(
  deps: Pick<Deps, 'db'>,
  chat: { id: unknown; type?: unknown; title?: unknown; username?: unknown; first_name?: unknown; last_name?: unknown },
  code: string,
  nowMs = Date.now(),
): Promise<ConnectOutcome> {
  const chatId = typeof chat.id === 'number' && Number.isSafeInteger(chat.id) ? String(chat.id) : typeof chat.id === 'string' && /^-?\d{1,20}$/.test(chat.id) ? chat.id : null;
  if (!chatId || typeof chat.type !== 'string' || !CONNECTABLE.has(chat.type)) return { kind: 'unsupported' };
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) return { kind: 'invalid' };
  const accountId = await takeShortLivedRecord(deps.db, CODE_KIND, sha256Hex(code), new Date(nowMs).toISOString());
  if (!accountId) return { kind: 'invalid' };
  const label = chatLabel(chat) ?? chatId;
  await upsertTelegramChat(deps.db, { id: newId(), account_id: accountId, chat_id: chatId, chat_type: chat.type, label, created_at: new Date(nowMs).toISOString() });
  return { kind: 'connected', accountId, label };
}
