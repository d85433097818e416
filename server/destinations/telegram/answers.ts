/**
 * How Chime reads the Bot API's answers (core.telegram.org/bots/api "Making requests"): every
 * answer is `{ ok, result }` or `{ ok: false, error_code, description, parameters? }`, where
 * `parameters.retry_after` (ResponseParameters) says how many seconds to wait after a 429.
 *
 * - 401 Unauthorized: the administrator's bot token is wrong or was revoked: final.
 * - 400 "Bad Request: chat not found": the chat is gone or the bot never met it: final,
 *   TELEGRAM_CHAT_NOT_FOUND.
 * - 403 "Forbidden: bot was blocked by the user": final, TELEGRAM_BLOCKED (the user must unblock
 *   the bot); another 403 (kicked from the group, user deactivated) is TELEGRAM_FORBIDDEN.
 * - 429: retried no sooner than `retry_after` seconds (else Retry-After).
 * - 5xx: retried; anything else is final (TELEGRAM_REJECTED).
 */
import type { SendResult } from '../../scheduler/types.ts';
import { MAX_RETRY_AFTER_MS } from '../../scheduler/retry-policy.ts';
import { pushCodesOf } from '../push-common/codes.ts';
import type { PushAnswer } from '../push-common/http.ts';
import { fail, parseRetryAfter } from '../webhook/codes.ts';

export const TELEGRAM_CODES = { ...pushCodesOf('TELEGRAM'), CHAT_NOT_FOUND: 'TELEGRAM_CHAT_NOT_FOUND', BLOCKED: 'TELEGRAM_BLOCKED' } as const;

export interface TelegramError {
  description: string | null;
  retryAfterMs: number | null;
  migrateToChatId: string | null;
}

/** The error answer's fields, when it has them. */
export function telegramError(text: string): TelegramError {
  try {
    const body = JSON.parse(text) as { description?: unknown; parameters?: { retry_after?: unknown; migrate_to_chat_id?: unknown } };
    const retry = body.parameters?.retry_after;
    const migrate = body.parameters?.migrate_to_chat_id;
    return {
      description: typeof body.description === 'string' ? body.description.slice(0, 200) : null,
      retryAfterMs: typeof retry === 'number' && Number.isFinite(retry) && retry >= 0 ? Math.min(Math.round(retry * 1000), MAX_RETRY_AFTER_MS) : null,
      migrateToChatId: typeof migrate === 'number' || typeof migrate === 'string' ? String(migrate) : null,
    };
  } catch {
    return { description: null, retryAfterMs: null, migrateToChatId: null };
  }
}

/** The result of one answer; `what` names the step for the message ("sending the message"). */
export function telegramResult(answer: PushAnswer, what: string): SendResult {
  const { status } = answer;
  if (status >= 200 && status < 300) return { ok: true, httpStatus: status };
  const e = telegramError(answer.text);
  const said = `HTTP ${status} from Telegram${e.description ? ` (${e.description})` : ''}`;
  const httpStatus = status;
  if (status === 401) {
    return fail(TELEGRAM_CODES.UNAUTHORIZED, `Telegram refused Chime's bot token while ${what}: ${said}. The administrator must check TELEGRAM_BOT_TOKEN`, false, { httpStatus });
  }
  if (status === 429) {
    const retryAfterMs = e.retryAfterMs ?? parseRetryAfter(answer.retryAfter);
    return fail(TELEGRAM_CODES.RATE_LIMITED, `Telegram is rate-limiting Chime's bot: ${said}`, true, { httpStatus, ...(retryAfterMs !== null ? { retryAfterMs } : {}) });
  }
  if (status === 403) {
    if (/blocked by the user/i.test(e.description ?? '')) {
      return fail(TELEGRAM_CODES.BLOCKED, `The user blocked Chime's bot in Telegram while ${what}: ${said}. Unblock the bot (or send /start again) to receive reminders`, false, { httpStatus });
    }
    return fail(TELEGRAM_CODES.FORBIDDEN, `The bot may not post in this chat while ${what} (removed from the group, or the user's account is gone): ${said}`, false, { httpStatus });
  }
  if (status === 400 && /chat not found/i.test(e.description ?? '')) {
    return fail(TELEGRAM_CODES.CHAT_NOT_FOUND, `Telegram knows no such chat for the bot while ${what}: ${said}`, false, { httpStatus });
  }
  if (status === 400 && e.migrateToChatId) {
    return fail(TELEGRAM_CODES.REJECTED, `This group became a supergroup with another chat id: connect it again with /start: ${said}`, false, { httpStatus });
  }
  if (status === 404) return fail(TELEGRAM_CODES.NOT_FOUND, `Telegram does not know this bot or method while ${what}: ${said}. The administrator must check TELEGRAM_BOT_TOKEN`, false, { httpStatus });
  if (status === 408 || status >= 500) {
    const retryAfterMs = parseRetryAfter(answer.retryAfter);
    return fail(TELEGRAM_CODES.HTTP_5XX, said, true, { httpStatus, ...(retryAfterMs !== null ? { retryAfterMs } : {}) });
  }
  return fail(TELEGRAM_CODES.REJECTED, `Telegram refused the request while ${what}: ${said}`, false, { httpStatus });
}
