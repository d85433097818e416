/** One webhook POST: the headers and signature, undici's handler API, and the race with the deadline. */
import type { SendResult } from '../../scheduler/types.ts';
import { fail, networkError, resultOfStatus, WEBHOOK_CODES } from './codes.ts';
import type { WebhookConnection } from './connection.ts';
import { type InFlight, ShutdownError, TimeoutError } from './in-flight.ts';
import type { WebhookPlatform } from './index.ts';
import { signWebhook } from './signing.ts';

export const WEBHOOK_USER_AGENT = 'Chime-Webhooks/1.0';

export interface WebhookTarget {
  url: string;
  platform: WebhookPlatform;
  username?: string | undefined;
  secret?: string | null;
  /** A generic webhook's body template format decides it (docs/notifications.md); JSON otherwise. */
  contentType?: string;
  /** A generic webhook's extra headers (validated when saved: never one Chime sets). */
  headers?: Record<string, string>;
}

/**
 * POST with undici's handler API: status and headers only, the answer's body is discarded.
 *
 * The answer and the time-out race deterministically (docs/webhooks.md): the status line is
 * the answer. A status that arrives by the deadline decides the result, whatever the body does
 * afterwards (it is drained and discarded); a status that arrives after it is a
 * time-out, even when the sweeper has not run yet. So a receiver answering at 9.99 s is never
 * retried, and one answering at 10.01 s always is (receivers deduplicate on webhook-id).
 */
function dispatchPost(connection: WebhookConnection, url: URL, headers: Record<string, string>, body: string, signal: AbortSignal | undefined) {
  return new Promise<{ statusCode: number; retryAfter: string | string[] | undefined }>((resolve, reject) => {
    if (signal?.aborted) return reject(new ShutdownError('shutdown'));
    const { inFlight } = connection;
    let settled = false;
    let statusCode = 0;
    let retryAfter: string | string[] | undefined;
    const entry: InFlight = {
      deadline: Date.now() + connection.timeoutMs,
      abort: null,
      group: null,
      fail(err) {
        if (settled) return;
        settled = true;
        reject(err);
      },
    };
    const done = (err: Error | null) => {
      inFlight.untrack(entry);
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve({ statusCode, retryAfter });
    };
    inFlight.track(entry, signal);
    connection.agent.dispatch(
      { origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body },
      {
        onRequestStart(controller) {
          entry.abort = (err) => controller.abort(err);
          if (settled) controller.abort(new Error('settled'));
        },
        onResponseStart(controller, status, responseHeaders) {
          if (settled) return;
          if (Date.now() > entry.deadline) {
            done(new TimeoutError('timeout'));
            controller.abort(new Error('timed out'));
            return;
          }
          statusCode = status;
          retryAfter = responseHeaders['retry-after'];
          // Decided now. The body still drains (and is discarded) so the connection stays
          // reusable; undici's body timer ends one that never finishes.
          done(null);
        },
        onResponseData() {},
        onResponseEnd() {
          done(null);
        },
        onResponseError(_controller, err) {
          done(err);
        },
      },
    );
  });
}

/** One attempt at a target; every failure is a result, never thrown. */
export async function postWebhook(connection: WebhookConnection, target: WebhookTarget, msgId: string, body: string, signal: AbortSignal | undefined): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return fail(WEBHOOK_CODES.URL_INVALID, 'Webhook URL is not a valid URL', false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(WEBHOOK_CODES.URL_INVALID, 'Webhook URL must start with http:// or https://', false);
  const headers: Record<string, string> = {
    ...target.headers,
    'content-type': target.contentType ?? 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': msgId,
  };
  if (target.secret) {
    const ts = Math.floor(Date.now() / 1000);
    headers['webhook-timestamp'] = String(ts);
    headers['webhook-signature'] = signWebhook(target.secret, msgId, ts, body);
  }
  try {
    const res = await dispatchPost(connection, url, headers, body, signal);
    return resultOfStatus(res.statusCode, url.hostname, target.platform, res.retryAfter);
  } catch (err) {
    if (err instanceof TimeoutError) return fail(WEBHOOK_CODES.TIMEOUT, connection.timeoutText, true);
    if (err instanceof ShutdownError) return fail(WEBHOOK_CODES.INTERRUPTED, 'Interrupted by server shutdown', true);
    const code = (err as { code?: string }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return fail(WEBHOOK_CODES.TIMEOUT, connection.timeoutText, true);
    return networkError(err, url.host);
  }
}
