/** Failure codes of webhook sends, and the send result of an HTTP status or a network error. */
import { ForbiddenTargetError } from '../../net/ssrf-guard.ts';
import { MAX_RETRY_AFTER_MS } from '../../scheduler/retry-policy.ts';
import type { SendFailure, SendResult } from '../../scheduler/types.ts';
import type { WebhookPlatform } from './index.ts';

/** Failure codes of webhook sends (delivery_attempts.error_code). */
export const WEBHOOK_CODES = {
  /** The URL is missing, unreadable or not http(s). */
  URL_INVALID: 'WEBHOOK_URL_INVALID',
  /** The SSRF guard refused the address the host resolves to. */
  TARGET_FORBIDDEN: 'WEBHOOK_TARGET_FORBIDDEN',
  /** 3xx: redirects are not followed. */
  REDIRECT: 'WEBHOOK_REDIRECT',
  /** 410, or a Discord webhook that answers 404: deleted for good (the destination is disabled). */
  GONE: 'WEBHOOK_GONE',
  /** 429 (retried, after Retry-After when given). */
  RATE_LIMITED: 'WEBHOOK_RATE_LIMITED',
  /** 5xx (retried). */
  HTTP_5XX: 'WEBHOOK_HTTP_5XX',
  /** Another 4xx (408 is retried; the others are permanent). */
  HTTP_4XX: 'WEBHOOK_HTTP_4XX',
  /** No complete answer within the timeout (retried). */
  TIMEOUT: 'WEBHOOK_TIMEOUT',
  CONNECTION_REFUSED: 'WEBHOOK_CONNECTION_REFUSED',
  DNS_FAILED: 'WEBHOOK_DNS_FAILED',
  CONNECTION_RESET: 'WEBHOOK_CONNECTION_RESET',
  UNREACHABLE: 'WEBHOOK_UNREACHABLE',
  TLS_ERROR: 'WEBHOOK_TLS_ERROR',
  NETWORK_ERROR: 'WEBHOOK_NETWORK_ERROR',
  /** Cut short by a server shutdown (the delivery is resent on start, not recorded). */
  INTERRUPTED: 'WEBHOOK_INTERRUPTED',
} as const;

export const fail = (code: string, error: string, retryable: boolean, extra: Partial<SendFailure> = {}): SendFailure => ({ ok: false, code, error, retryable, ...extra });

/** Seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const trimmed = raw.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Math.round(Number(trimmed) * 1000);
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** Readable reason for a network-level failure; the error's `code` comes from Node or undici. */
export function networkError(err: unknown, host: string): SendFailure {
  if (err instanceof ForbiddenTargetError) return fail(WEBHOOK_CODES.TARGET_FORBIDDEN, err.message, false);
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  switch (code) {
    case 'ERR_WEBHOOK_TARGET_FORBIDDEN':
      return fail(WEBHOOK_CODES.TARGET_FORBIDDEN, e.message ?? 'Webhook target is not allowed', false);
    case 'ECONNREFUSED':
      return fail(WEBHOOK_CODES.CONNECTION_REFUSED, 'Connection refused', true);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail(WEBHOOK_CODES.DNS_FAILED, `Could not resolve ${host.replace(/:\d+$/, '')}`, true);
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return fail(WEBHOOK_CODES.CONNECTION_RESET, `Connection to ${host} was closed unexpectedly`, true);
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return fail(WEBHOOK_CODES.TIMEOUT, `Could not connect to ${host} (timed out)`, true);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return fail(WEBHOOK_CODES.UNREACHABLE, `${host} is unreachable`, true);
    default:
      if (typeof code === 'string' && /CERT|SSL|TLS/i.test(code)) return fail(WEBHOOK_CODES.TLS_ERROR, `TLS error talking to ${host} (${code})`, true);
      return fail(WEBHOOK_CODES.NETWORK_ERROR, `Network error talking to ${host}${code ? ` (${code})` : ''}`, true);
  }
}

/** The result of an answer that arrived. */
export function resultOfStatus(status: number, hostname: string, platform: WebhookPlatform, retryAfter?: string | string[]): SendResult {
  if (status >= 200 && status < 300) return { ok: true, httpStatus: status };
  const httpStatus = status;
  if (status >= 300 && status < 400) return fail(WEBHOOK_CODES.REDIRECT, `Redirects are not followed (HTTP ${status})`, false, { httpStatus });
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    const code = status === 429 ? WEBHOOK_CODES.RATE_LIMITED : status === 408 ? WEBHOOK_CODES.HTTP_4XX : WEBHOOK_CODES.HTTP_5XX;
    return fail(code, `HTTP ${status} from ${hostname}`, true, { httpStatus, ...(retryAfterMs !== null ? { retryAfterMs } : {}) });
  }
  if (status === 410) return fail(WEBHOOK_CODES.GONE, `HTTP 410 from ${hostname}: the endpoint is gone`, false, { httpStatus, disableDestination: true });
  if (status === 404 && platform === 'discord') {
    return fail(WEBHOOK_CODES.GONE, 'Discord says this webhook was deleted', false, { httpStatus, disableDestination: true });
  }
  return fail(WEBHOOK_CODES.HTTP_4XX, `HTTP ${status} from ${hostname}`, false, { httpStatus });
}
