/**
 * What Telegram posts to Chime's webhook (docs/notifications.md "Telegram"), checked by the secret
 * token `setWebhook` registered: `/start <code>` messages connect a chat to the account that asked
 * for the code (server/accounts/telegram.ts), and a press on a reminder's Snooze / Tomorrow / Done
 * button (a callback_query) acts through the action links' rule (action-links.ts: single use,
 * this reminder only, expired with the next occurrence). The answer goes back to the user with
 * `answerCallbackQuery`, in the account's language, and a button that acted leaves the message.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.ts';
import { actionTokenOfReference, parseActionTokenReference } from '../lib/action-token.ts';
import { type Language, languageOfLocale } from '../lib/language.ts';
import { findAccountById } from '../repositories/accounts.ts';
import { findDeliveryOccurrence } from '../repositories/telegram-chats.ts';
import { connectTelegramChat } from '../accounts/telegram.ts';
import { botCall, telegramWebhookSecret } from '../destinations/telegram/bot.ts';
import { telegramNotConfigured } from '../destinations/telegram/check.ts';
import { escapeTelegramHtml } from '../destinations/telegram/message.ts';
import { type ActionLinkOutcome, redeemActionLink } from './action-links.ts';
import { nt, outcomeText } from './action-page.ts';
import type { ReminderDeps } from './service.ts';

type Deps = Pick<ReminderDeps, 'db' | 'config' | 'scheduler' | 'discord' | 'log'>;

/** `/start`, `/start <code>`, and in a group `/start@<bot> <code>`. */
const START = /^\/start(?:@[A-Za-z0-9_]{3,64})?(?:\s+(\S+))?\s*$/;
/** answerCallbackQuery shows at most 200 characters. */
const MAX_CALLBACK_TEXT = 200;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the header is the webhook's secret token, compared in constant time. */
async function secretMatches(deps: Pick<Deps, 'db'>, header: string | undefined): Promise<boolean> {
  if (typeof header !== 'string' || header.length === 0 || header.length > 256) return false;
  return timingSafeEqual(digest(header), digest(await telegramWebhookSecret(deps.db)));
}

/**
 * Checks the secret and starts handling the update: the webhook answers Telegram at once and the
 * work (a database change, one or two Bot API calls) goes on; the promise says when it is over,
 * and never rejects.
 */
export async function receiveTelegramUpdate(deps: Deps, secretHeader: string | undefined, update: unknown): Promise<{ work: Promise<void> }> {
  if (!deps.config.telegram) throw telegramNotConfigured();
  if (!(await secretMatches(deps, secretHeader))) throw new AppError('TELEGRAM_WEBHOOK_REFUSED', 'Missing or wrong X-Telegram-Bot-Api-Secret-Token');
  const work = handleUpdate(deps, update).catch((err: unknown) => {
    deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'A Telegram update could not be handled');
  });
  return { work };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

async function handleUpdate(deps: Deps, update: unknown): Promise<void> {
  if (!isObj(update)) return;
  if (isObj(update.message)) return handleMessage(deps, update.message);
  if (isObj(update.callback_query)) return handleButton(deps, update.callback_query);
}

const languageOfUser = (from: unknown): Language => languageOfLocale(isObj(from) && typeof from.language_code === 'string' ? from.language_code : null);

async function languageOfAccount(deps: Pick<Deps, 'db'>, accountId: string, fallback: Language): Promise<Language> {
  const account = await findAccountById(deps.db, accountId);
  return account ? languageOfLocale(account.locale) : fallback;
}

async function handleMessage(deps: Deps, message: Obj): Promise<void> {
  const start = typeof message.text === 'string' ? START.exec(message.text.trim()) : null;
  if (!start || !isObj(message.chat)) return;
  const telegram = deps.config.telegram!;
  const userLanguage = languageOfUser(message.from);
  const code = start[1];
  let text: string;
  if (!code) {
    text = nt(userLanguage, 'telegram.help');
  } else {
    const outcome = await connectTelegramChat(deps, message.chat as Parameters<typeof connectTelegramChat>[1], code);
    if (outcome.kind === 'unsupported') return;
    text =
      outcome.kind === 'connected'
        ? nt(await languageOfAccount(deps, outcome.accountId, userLanguage), 'telegram.connected', { chat: escapeTelegramHtml(outcome.label) })
        : nt(userLanguage, 'telegram.codeInvalid');
  }
  await botCall({ ...deps.config, telegram }, 'sendMessage', { chat_id: message.chat.id, text, parse_mode: 'HTML' }, 'answering /start');
}

/** The action a button's callback_data refers to, done once. */
async function pressButton(deps: Deps, data: unknown, nowMs: number): Promise<ActionLinkOutcome> {
  const reference = typeof data === 'string' ? parseActionTokenReference(data) : null;
  if (!reference) return { kind: 'invalid' };
  const delivery = await findDeliveryOccurrence(deps.db, reference.deliveryId);
  const token = delivery ? actionTokenOfReference(reference, { reminderId: delivery.reminder_id, occurrenceMs: Date.parse(delivery.occurrence_utc) }) : null;
  if (!token) return { kind: 'invalid' };
  return redeemActionLink(deps, token, nowMs);
}

async function handleButton(deps: Deps, query: Obj): Promise<void> {
  const telegram = deps.config.telegram!;
  if (typeof query.id !== 'string') return;
  const outcome = await pressButton(deps, query.data, Date.now());
  const shown = outcome.kind === 'invalid' ? { ...outcome, language: languageOfUser(query.from) } : outcome;
  const text = Array.from(outcomeText(shown)).slice(0, MAX_CALLBACK_TEXT).join('');
  await botCall({ ...deps.config, telegram }, 'answerCallbackQuery', { callback_query_id: query.id, text }, 'answering a button');
  // A button that acted, or that can no longer act, leaves the message; a second tap on a used one only hears why.
  const message = query.message;
  if (['snoozed', 'done', 'expired', 'gone'].includes(outcome.kind) && isObj(message) && isObj(message.chat) && typeof message.message_id === 'number') {
    await botCall({ ...deps.config, telegram }, 'editMessageReplyMarkup', { chat_id: message.chat.id, message_id: message.message_id, reply_markup: { inline_keyboard: [] } }, 'removing the buttons');
  }
}
