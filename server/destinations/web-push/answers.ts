/**
 * How a push service's answer to a Web Push request is read (RFC 8030 section 5 and the services'
 * documentation: FCM, Mozilla autopush, Apple, Windows). 201 is a success; 404 and 410 mean the
 * browser dropped the subscription (unsubscribed, cleared its data, permission withdrawn), so the
 * destination is disabled; 400, 401 and 403 mean the VAPID signature or key was refused.
 */
import type { SendResult } from '../../scheduler/types.ts';
import { pushCodesOf, reasonOf } from '../push-common/codes.ts';
import { fail, parseRetryAfter } from '../webhook/codes.ts';

export const WEB_PUSH_CODES = {
  ...pushCodesOf('WEB_PUSH'),
  /** 404 or 410: the subscription no longer exists (final; the destination is disabled). */
  SUBSCRIPTION_GONE: 'PUSH_SUBSCRIPTION_GONE',
  /** 413: the encrypted notification is larger than the service takes (final). */
  PAYLOAD_TOO_LARGE: 'WEB_PUSH_PAYLOAD_TOO_LARGE',
} as const;

export function resultOfPushAnswer(status: number, host: string, text: string, retryAfter?: string): SendResult {
  if (status >= 200 && status < 300) return { ok: true, httpStatus: status };
  const reason = reasonOf(text) ?? (text.trim() && !text.trimStart().startsWith('<') ? text.trim().slice(0, 200) : null);
  const said = `HTTP ${status} from ${host}${reason ? ` (${reason})` : ''}`;
  const httpStatus = status;
  if (status === 404 || status === 410) {
    return fail(WEB_PUSH_CODES.SUBSCRIPTION_GONE, `The browser's push subscription is gone: ${said}`, false, { httpStatus, disableDestination: true });
  }
  if (status === 413) return fail(WEB_PUSH_CODES.PAYLOAD_TOO_LARGE, `The push service refused the notification's size: ${said}`, false, { httpStatus });
  if (status === 400 || status === 401 || status === 403) {
    return fail(WEB_PUSH_CODES.UNAUTHORIZED, `The push service refused Chime's VAPID signature or key: ${said}`, false, { httpStatus });
  }
  if (status === 429 || status === 408 || status >= 500) {
    const retryAfterMs = parseRetryAfter(retryAfter);
    return fail(status === 429 ? WEB_PUSH_CODES.RATE_LIMITED : WEB_PUSH_CODES.HTTP_5XX, said, true, { httpStatus, ...(retryAfterMs !== null ? { retryAfterMs } : {}) });
  }
  return fail(WEB_PUSH_CODES.REJECTED, `The push service refused the notification: ${said}`, false, { httpStatus });
}
