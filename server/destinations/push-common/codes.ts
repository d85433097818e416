/**
 * Failure codes of the push services (ntfy, Gotify, Pushover, Matrix, Telegram, Web Push), one family per service
 * (NTFY_UNAUTHORIZED, GOTIFY_HTTP_5XX...), and the send result of an answer or a network error.
 * What is retried follows the webhooks: network errors, 408, 429 (after Retry-After) and 5xx;
 * a wrong token (401, 403), an unknown topic or path (404) and other refusals are final.
 */
import { ForbiddenTargetError } from '../../net/ssrf-guard.ts';
import type { SendFailure, SendResult } from '../../scheduler/types.ts';
import { fail, parseRetryAfter } from '../webhook/codes.ts';

export type PushFamily = 'NTFY' | 'GOTIFY' | 'PUSHOVER' | 'MATRIX' | 'TELEGRAM' | 'WEB_PUSH';

/** The codes of one family: `${family}_${suffix}`. */
export const PUSH_CODE_SUFFIXES = [
  /** 401: the token (or user key) is wrong or was revoked. */
  'UNAUTHORIZED',
  /** 403: the token may not publish there. */
  'FORBIDDEN',
  /** 404: no such topic, application or path on that server. */
  'NOT_FOUND',
  /** 429 (retried, after Retry-After when given). */
  'RATE_LIMITED',
  /** 5xx and 408 (retried). */
  'HTTP_5XX',
  /** Another answer that is not a success (400, 413, 3xx...): final. */
  'REJECTED',
  /** No answer within the time-out (retried). */
  'TIMEOUT',
  /** Could not connect, resolve or finish the exchange (retried). */
  'UNREACHABLE',
  /** The SSRF guard refused the address the server's name resolves to (final). */
  'TARGET_FORBIDDEN',
  /** The stored settings are unusable (final). */
  'MISCONFIGURED',
] as const;

export const pushCodesOf = (family: PushFamily) => Object.fromEntries(PUSH_CODE_SUFFIXES.map((s) => [s, `${family}_${s}`])) as Record<(typeof PUSH_CODE_SUFFIXES)[number], string>;

/** Every code of the families (the dashboard words each one). */
export const ALL_PUSH_CODES: string[] = [
  ...(['NTFY', 'GOTIFY', 'PUSHOVER', 'MATRIX', 'TELEGRAM', 'WEB_PUSH'] as const).flatMap((f) => Object.values(pushCodesOf(f))),
  // Telegram's own refusals (server/destinations/telegram/answers.ts).
  'TELEGRAM_CHAT_NOT_FOUND',
  'TELEGRAM_BLOCKED',
  // Web Push's own (server/destinations/web-push/answers.ts).
  'PUSH_SUBSCRIPTION_GONE',
  'WEB_PUSH_PAYLOAD_TOO_LARGE',
];

const SERVICE_NAMES: Record<PushFamily, string> = { NTFY: 'ntfy', GOTIFY: 'Gotify', PUSHOVER: 'Pushover', MATRIX: 'Matrix', TELEGRAM: 'Telegram', WEB_PUSH: 'The push service' };

/** The service's own reason in an error answer (`{"error": "..."}`, Pushover's `errors: [...]`), cut short. */
export function reasonOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: unknown; errorDescription?: unknown; errors?: unknown };
    const parts = [body.error, body.errorDescription, ...(Array.isArray(body.errors) ? body.errors : [])].filter((p): p is string => typeof p === 'string' && p.length > 0);
    if (parts.length) return parts.join(': ').slice(0, 200);
  } catch {
    /* not JSON */
  }
  return null;
}

export function resultOfAnswer(family: PushFamily, status: number, host: string, text: string, retryAfter?: string): SendResult {
  if (status >= 200 && status < 300) return { ok: true, httpStatus: status };
  const codes = pushCodesOf(family);
  const service = SERVICE_NAMES[family];
  const reason = reasonOf(text);
  const said = `HTTP ${status} from ${host}${reason ? ` (${reason})` : ''}`;
  const httpStatus = status;
  if (status === 401) return fail(codes.UNAUTHORIZED, `${service} refused the token: ${said}`, false, { httpStatus });
  if (status === 403) return fail(codes.FORBIDDEN, `${service} does not allow this token to send there: ${said}`, false, { httpStatus });
  if (status === 404) return fail(codes.NOT_FOUND, `${service} knows no such topic or path: ${said}`, false, { httpStatus });
  if (status === 429 || status === 408 || status >= 500) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    return fail(status === 429 ? codes.RATE_LIMITED : codes.HTTP_5XX, said, true, { httpStatus, ...(retryAfterMs !== null ? { retryAfterMs } : {}) });
  }
  return fail(codes.REJECTED, `${service} refused the notification: ${said}`, false, { httpStatus });
}

export function resultOfNetworkError(family: PushFamily, err: unknown, host: string): SendFailure {
  const codes = pushCodesOf(family);
  if (err instanceof ForbiddenTargetError) return fail(codes.TARGET_FORBIDDEN, err.message, false);
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  if (e?.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return fail(codes.TIMEOUT, `${host} did not answer in time`, true);
  }
  if (code === 'ERR_WEBHOOK_TARGET_FORBIDDEN') return fail(codes.TARGET_FORBIDDEN, 'The server address is not allowed', false);
  return fail(codes.UNREACHABLE, `Could not reach ${host}${code ? ` (${code})` : ''}`, true);
}
