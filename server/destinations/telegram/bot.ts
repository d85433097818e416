/**
 * What the bot itself does besides sending reminders (core.telegram.org/bots/api): learn its
 * @username (`getMe`, for the t.me link), register Chime's webhook (`setWebhook` with a secret
 * token and only the updates Chime reads), and the small calls that answer a user in a chat
 * (`sendMessage`, `answerCallbackQuery`, `editMessageReplyMarkup`).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Config, TELEGRAM_API_URL, type TelegramConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { ensureServerSecret } from '../../repositories/server-secrets.ts';
import type { SendResult } from '../../scheduler/types.ts';
import { createPushClient } from '../push-common/http.ts';
import { telegramCall } from './client.ts';

/** Where Telegram posts updates, under PUBLIC_URL. */
export const TELEGRAM_WEBHOOK_PATH = '/telegram/webhook';
/** The updates Chime reads: /start messages (connecting a chat) and button presses. */
export const TELEGRAM_ALLOWED_UPDATES = ['message', 'callback_query'] as const;
const CALL_TIMEOUT_MS = 8_000;

type BotConfig = Pick<Config, 'telegram' | 'webhookAllowPrivateTargets'>;

/** One call with a client of its own: these calls are few (a connection, a button press). */
export async function botCall(config: BotConfig & { telegram: TelegramConfig }, method: string, body: Record<string, unknown>, what: string) {
  const client = createPushClient({ allowPrivateTargets: config.webhookAllowPrivateTargets, timeoutMs: CALL_TIMEOUT_MS });
  try {
    return await telegramCall(client, config.telegram, method, body, what);
  } finally {
    await client.close();
  }
}

// One secret per database, read once per thread.
const secrets = new WeakMap<object, Promise<string>>();

/**
 * The webhook's secret token (setWebhook `secret_token`, 1-256 of A-Z a-z 0-9 _ -): made at first
 * use and stored, so every instance checks the same `X-Telegram-Bot-Api-Secret-Token`.
 */
export function telegramWebhookSecret(db: Kysely<Database>): Promise<string> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = ensureServerSecret(db, 'telegram_webhook', randomBytes(32).toString('base64url'), new Date().toISOString());
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

/**
 * Whether Telegram can reach PUBLIC_URL: Telegram posts webhooks to https addresses only; a
 * self-hosted Bot API server (TELEGRAM_API_URL set) also accepts http.
 */
export function webhookReachable(config: Pick<Config, 'publicUrl' | 'telegram'>): boolean {
  if (!config.telegram) return false;
  return config.publicUrl.startsWith('https://') || config.telegram.apiUrl !== TELEGRAM_API_URL;
}

/** `setWebhook` to <PUBLIC_URL>/telegram/webhook with the secret token and the updates Chime reads. */
export async function registerTelegramWebhook(deps: { db: Kysely<Database>; config: BotConfig & Pick<Config, 'publicUrl'> }): Promise<SendResult> {
  const telegram = deps.config.telegram;
  if (!telegram) return { ok: false, code: 'TELEGRAM_NOT_CONFIGURED', error: 'Telegram is not configured', retryable: false };
  const url = `${deps.config.publicUrl.replace(/\/+$/, '')}${TELEGRAM_WEBHOOK_PATH}`;
  const secret = await telegramWebhookSecret(deps.db);
  const { result } = await botCall({ ...deps.config, telegram }, 'setWebhook', { url, secret_token: secret, allowed_updates: [...TELEGRAM_ALLOWED_UPDATES] }, 'registering the webhook');
  return result;
}

// The bot's @username per token, asked once (it changes only if the administrator renames the bot).
const usernames = new Map<string, Promise<string | null>>();

/** The bot's @username without the @ (`getMe`), or null when Telegram does not answer it. */
export function telegramBotUsername(config: BotConfig): Promise<string | null> {
  const telegram = config.telegram;
  if (!telegram) return Promise.resolve(null);
  const key = `${telegram.apiUrl} ${telegram.botToken}`;
  let found = usernames.get(key);
  if (!found) {
    found = botCall({ ...config, telegram }, 'getMe', {}, 'reading the bot').then(({ value }) => {
      const username = value && typeof value === 'object' ? (value as { username?: unknown }).username : null;
      if (typeof username !== 'string' || !/^[A-Za-z0-9_]{3,64}$/.test(username)) {
        usernames.delete(key);
        return null;
      }
      return username;
    });
    usernames.set(key, found);
  }
  return found;
}

/**
 * The administrator's check (npm run admin -- doctor): `getMe` says whether the token works and the
 * bot's @username; `getWebhookInfo` where Telegram posts updates and its last delivery error.
 */
export async function inspectTelegramBot(
  config: BotConfig & Pick<Config, 'publicUrl'>,
): Promise<{ ok: true; username: string; webhookUrl: string; lastError: string | null; pending: number } | { ok: false; code: string; error: string }> {
  const telegram = config.telegram;
  if (!telegram) return { ok: false, code: 'TELEGRAM_NOT_CONFIGURED', error: 'Telegram is not configured' };
  const me = await botCall({ ...config, telegram }, 'getMe', {}, 'checking the token');
  if (!me.result.ok) return { ok: false, code: me.result.code, error: me.result.error };
  const username = me.value && typeof me.value === 'object' ? (me.value as { username?: unknown }).username : null;
  const info = await botCall({ ...config, telegram }, 'getWebhookInfo', {}, 'reading the webhook');
  if (!info.result.ok) return { ok: false, code: info.result.code, error: info.result.error };
  const hook = (info.value && typeof info.value === 'object' ? info.value : {}) as { url?: unknown; last_error_message?: unknown; pending_update_count?: unknown };
  return {
    ok: true,
    username: typeof username === 'string' ? username : '?',
    webhookUrl: typeof hook.url === 'string' ? hook.url : '',
    lastError: typeof hook.last_error_message === 'string' && hook.last_error_message ? hook.last_error_message.slice(0, 200) : null,
    pending: typeof hook.pending_update_count === 'number' ? hook.pending_update_count : 0,
  };
}
