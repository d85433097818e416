/**
 * How Chime reads a homeserver's answers (Matrix Client-Server API, "Standard error response"):
 * `{ errcode, error }`, plus `retry_after_ms` on M_LIMIT_EXCEEDED. The errcode decides before the
 * status: M_UNKNOWN_TOKEN / M_MISSING_TOKEN are the administrator's token (final), M_FORBIDDEN the
 * bot not being in the room (final), M_NOT_FOUND an unknown room or alias (final), M_LIMIT_EXCEEDED
 * a rate limit retried after `retry_after_ms` (or Retry-After); 5xx and the rest follow push-common.
 */
import type { SendResult } from '../../scheduler/types.ts';
import { MAX_RETRY_AFTER_MS } from '../../scheduler/retry-policy.ts';
import { pushCodesOf, resultOfAnswer } from '../push-common/codes.ts';
import type { PushAnswer } from '../push-common/http.ts';
import { fail, parseRetryAfter } from '../webhook/codes.ts';

export const MATRIX_CODES = pushCodesOf('MATRIX');

export interface MatrixError {
  errcode: string | null;
  error: string | null;
  retryAfterMs: number | null;
}

/** The standard error body, when there is one. */
export function matrixError(text: string): MatrixError {
  try {
    const body = JSON.parse(text) as { errcode?: unknown; error?: unknown; retry_after_ms?: unknown };
    return {
      errcode: typeof body.errcode === 'string' ? body.errcode.slice(0, 64) : null,
      error: typeof body.error === 'string' ? body.error.slice(0, 200) : null,
      retryAfterMs: typeof body.retry_after_ms === 'number' && Number.isFinite(body.retry_after_ms) && body.retry_after_ms >= 0 ? Math.min(Math.round(body.retry_after_ms), MAX_RETRY_AFTER_MS) : null,
    };
  } catch {
    return { errcode: null, error: null, retryAfterMs: null };
  }
}

/** The result of one answer of the homeserver; `what` names the step for the message ("joining the room"). */
export function matrixResult(answer: PushAnswer, host: string, what: string): SendResult {
  const { status } = answer;
  if (status >= 200 && status < 300) return { ok: true, httpStatus: status };
  const e = matrixError(answer.text);
  const said = `HTTP ${status}${e.errcode ? ` ${e.errcode}` : ''} from ${host}${e.error ? ` (${e.error})` : ''}`;
  const httpStatus = status;
  if (e.errcode === 'M_UNKNOWN_TOKEN' || e.errcode === 'M_MISSING_TOKEN' || status === 401) {
    return fail(MATRIX_CODES.UNAUTHORIZED, `The homeserver refused Chime's Matrix access token while ${what}: ${said}. The administrator must check MATRIX_ACCESS_TOKEN`, false, { httpStatus });
  }
  if (e.errcode === 'M_LIMIT_EXCEEDED' || status === 429) {
    const retryAfterMs = e.retryAfterMs ?? parseRetryAfter(answer.retryAfter);
    return fail(MATRIX_CODES.RATE_LIMITED, `The homeserver is rate-limiting Chime's bot: ${said}`, true, { httpStatus, ...(retryAfterMs !== null ? { retryAfterMs } : {}) });
  }
  if (e.errcode === 'M_FORBIDDEN' || status === 403) {
    return fail(MATRIX_CODES.FORBIDDEN, `The bot is not allowed in this room while ${what} (not invited, kicked or banned, or may not post): ${said}`, false, { httpStatus });
  }
  if (e.errcode === 'M_NOT_FOUND' || status === 404) return fail(MATRIX_CODES.NOT_FOUND, `The homeserver knows no such room while ${what}: ${said}`, false, { httpStatus });
  return resultOfAnswer('MATRIX', status, host, answer.text, answer.retryAfter);
}
