/**
 * Delivery to webhooks: generic (signed JSON per Standard Webhooks), Discord and Slack. One POST
 * per attempt through the SSRF-guarded agent (server/net/ssrf-guard.ts); the scheduler owns
 * retries, so the result says whether trying again can help.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Agent } from 'undici';
import { createGuardedAgent, ForbiddenTargetError } from '../../net/ssrf-guard.ts';
import { newMessageId } from '../../scheduler/ids.ts';
import type { DestinationSender, SendContext, SendFailure, SendResult, SenderTuning, TestOutcome } from '../../scheduler/types.ts';
import type { WebhookPlatform } from './index.ts';

declare module '../../scheduler/types.ts' {
  interface SenderTuning {
    /** Whole-request timeout of webhook sends (10 s). */
    webhookTimeoutMs?: number;
  }
}

export const WEBHOOK_USER_AGENT = 'Chime-Webhooks/1.0';
const DISCORD_CONTENT_MAX = 2000;
const SLACK_TEXT_MAX = 40_000;
/** Retry-After beyond this is treated as this: a reminder retried days later is useless. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECTIONS_PER_ORIGIN = 32;

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

export interface WebhookSenderOptions {
  allowPrivateTargets: boolean;
  /** Whole request (connect, headers and body); 10 s in production. */
  timeoutMs?: number;
  connectionsPerOrigin?: number;
  /** Fake DNS for tests. */
  lookup?: Parameters<typeof createGuardedAgent>[0]['lookup'];
}

export interface WebhookTarget {
  url: string;
  platform: WebhookPlatform;
  username?: string | undefined;
  secret?: string | null;
}

export interface WebhookSender extends DestinationSender {
  /** Sends a `webhook.test` payload to a target that need not be saved; the failure is data, never thrown. */
  sendTest(target: WebhookTarget, message?: string): Promise<TestOutcome>;
  tune(tuning: SenderTuning): void;
  close(): Promise<void>;
}

const secretKeys = new Map<string, Buffer>();

/** The HMAC key of a Standard Webhooks secret: the base64 part after `whsec_`, decoded. */
export function secretKey(secret: string): Buffer {
  let key = secretKeys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
    if (secretKeys.size > 10_000) secretKeys.clear();
    secretKeys.set(secret, key);
  }
  return key;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per the Standard Webhooks spec. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

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

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  // Cut on a code point boundary so a surrogate pair is never split.
  return Array.from(text).slice(0, max - 1).join('') + '…';
}

export function webhookBody(
  platform: WebhookPlatform,
  fields: { type: 'reminder.due' | 'webhook.test'; id: string; message: string; username?: string | undefined } & Record<string, unknown>,
): string {
  if (platform === 'discord') {
    return JSON.stringify({
      content: truncate(fields.message, DISCORD_CONTENT_MAX),
      ...(fields.username ? { username: fields.username } : {}),
      // A reminder text must never ping @everyone or roles by accident.
      allowed_mentions: { parse: [] },
    });
  }
  if (platform === 'slack') {
    return JSON.stringify({ text: truncate(fields.message, SLACK_TEXT_MAX), ...(fields.username ? { username: fields.username } : {}) });
  }
  const { username: _username, ...generic } = fields;
  return JSON.stringify(generic);
}

/** The platform of stored metadata; anything unknown is a generic webhook. */
function platformOf(metadata: Record<string, unknown>): WebhookPlatform {
  const p = metadata.platform;
  return p === 'discord' || p === 'slack' ? p : 'generic';
}

const fail = (code: string, error: string, retryable: boolean, extra: Partial<SendFailure> = {}): SendFailure => ({ ok: false, code, error, retryable, ...extra });

/** Readable reason for a network-level failure; the error's `code` comes from Node or undici. */
function networkError(err: unknown, host: string): SendFailure {
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

/** undici's timers are coarse: set past the deadline so the sweeper decides (see dispatchPost). */
const UNDICI_SLACK_MS = 2_000;

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  let timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let connectionsPerOrigin = options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN;
  // The deadline below is the one authority on time-outs. undici's own timers (coarse, up to
  // about a second late) only back it up, so they are set past it and never decide a race.
  const makeAgent = (): Agent =>
    createGuardedAgent({
      allowPrivateTargets: options.allowPrivateTargets,
      connectTimeoutMs: timeoutMs + UNDICI_SLACK_MS,
      connectionsPerOrigin,
      headersTimeoutMs: timeoutMs + UNDICI_SLACK_MS,
      bodyTimeoutMs: timeoutMs + UNDICI_SLACK_MS,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
  let agent = makeAgent();
  // Deadlines and shutdown for in-flight requests without an AbortSignal, a timer or an event
  // listener per request: a burst sends 10,000s a second and those cost more than the send.
  interface InFlight {
    deadline: number;
    /** Settles the request with this error (once). */
    fail: (err: Error) => void;
    /** Aborts the request on the wire once it has started. */
    abort: ((err: Error) => void) | null;
    group: Set<InFlight> | null;
  }
  const inFlight = new Set<InFlight>();
  const bySignal = new WeakMap<AbortSignal, Set<InFlight>>();
  let sweeper: NodeJS.Timeout | null = null;
  let sweepEveryMs = 0;
  let timeoutText = '';
  const retimed = () => {
    sweepEveryMs = Math.max(10, Math.min(250, Math.floor(timeoutMs / 10)));
    timeoutText = `Timed out after ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`}`;
    if (sweeper) {
      clearInterval(sweeper);
      sweeper = null;
      startSweeper();
    }
  };

  class TimeoutError extends Error {}
  class ShutdownError extends Error {}

  function stop(entry: InFlight, err: Error) {
    untrack(entry);
    entry.fail(err);
    entry.abort?.(err);
  }

  function sweep() {
    const now = Date.now();
    for (const e of inFlight) if (e.deadline <= now) stop(e, new TimeoutError('timeout'));
    if (inFlight.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }

  function startSweeper() {
    if (sweeper) return;
    sweeper = setInterval(sweep, sweepEveryMs);
    sweeper.unref();
  }

  function track(entry: InFlight, signal: AbortSignal | undefined) {
    if (signal) {
      let group = bySignal.get(signal);
      if (!group) {
        const members = new Set<InFlight>();
        group = members;
        bySignal.set(signal, members);
        signal.addEventListener('abort', () => {
          for (const e of [...members]) stop(e, new ShutdownError('shutdown'));
        }, { once: true });
      }
      group.add(entry);
      entry.group = group;
    }
    inFlight.add(entry);
    startSweeper();
  }

  function untrack(entry: InFlight) {
    inFlight.delete(entry);
    entry.group?.delete(entry);
  }

  retimed();

  /**
   * POST with undici's handler API: status and headers only, the answer's body is discarded.
   *
   * The answer and the time-out race deterministically (README "Webhooks"): the status line is
   * the answer. A status that arrives by the deadline decides the result, whatever the body does
   * afterwards (it is drained and discarded); a status that arrives after it is a
   * time-out, even when the sweeper has not run yet. So a receiver answering at 9.99 s is never
   * retried, and one answering at 10.01 s always is (receivers deduplicate on webhook-id).
   */
  function dispatchPost(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal | undefined) {
    return new Promise<{ statusCode: number; retryAfter: string | string[] | undefined }>((resolve, reject) => {
      if (signal?.aborted) return reject(new ShutdownError('shutdown'));
      let settled = false;
      let statusCode = 0;
      let retryAfter: string | string[] | undefined;
      const entry: InFlight = {
        deadline: Date.now() + timeoutMs,
        abort: null,
        group: null,
        fail(err) {
          if (settled) return;
          settled = true;
          reject(err);
        },
      };
      const done = (err: Error | null) => {
        untrack(entry);
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve({ statusCode, retryAfter });
      };
      track(entry, signal);
      agent.dispatch(
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

  async function post(target: WebhookTarget, msgId: string, body: string, signal: AbortSignal | undefined): Promise<SendResult> {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return fail(WEBHOOK_CODES.URL_INVALID, 'Webhook URL is not a valid URL', false);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(WEBHOOK_CODES.URL_INVALID, 'Webhook URL must start with http:// or https://', false);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'webhook-id': msgId,
    };
    if (target.secret) {
      const ts = Math.floor(Date.now() / 1000);
      headers['webhook-timestamp'] = String(ts);
      headers['webhook-signature'] = signWebhook(target.secret, msgId, ts, body);
    }
    try {
      const res = await dispatchPost(url, headers, body, signal);
      return resultOfStatus(res.statusCode, url.hostname, target.platform, res.retryAfter);
    } catch (err) {
      if (err instanceof TimeoutError) return fail(WEBHOOK_CODES.TIMEOUT, timeoutText, true);
      if (err instanceof ShutdownError) return fail(WEBHOOK_CODES.INTERRUPTED, 'Interrupted by server shutdown', true);
      const code = (err as { code?: string }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return fail(WEBHOOK_CODES.TIMEOUT, timeoutText, true);
      return networkError(err, url.host);
    }
  }

  /** The body and target of one send; a test send carries a `webhook.test` payload. */
  function prepare(ctx: SendContext): { target: WebhookTarget; body: string } | SendFailure {
    const meta = ctx.destination.metadata as { url?: unknown; username?: unknown };
    if (typeof meta.url !== 'string') return fail(WEBHOOK_CODES.URL_INVALID, 'Webhook URL is missing', false);
    const platform = platformOf(ctx.destination.metadata);
    const username = typeof meta.username === 'string' && meta.username ? meta.username : undefined;
    const target: WebhookTarget = { url: meta.url, platform, username, secret: ctx.destination.secret };
    if (ctx.test) {
      return { target, body: webhookBody(platform, { type: 'webhook.test', id: ctx.idempotencyKey, message: ctx.reminder.message, fired_at: ctx.firedAt, username }) };
    }
    const body = webhookBody(platform, {
      type: 'reminder.due',
      id: ctx.idempotencyKey,
      reminder_id: ctx.reminder.id,
      message: ctx.reminder.message,
      occurrence_at: ctx.occurrenceUtc,
      fired_at: ctx.firedAt,
      recurrence: ctx.reminder.recurrence_type,
      timezone: ctx.reminder.timezone,
      late: ctx.late,
      attempt: ctx.attempt,
      username,
    });
    return { target, body };
  }

  return {
    concurrencyKey(destination) {
      const raw = (destination.metadata as { url?: unknown }).url;
      try {
        return typeof raw === 'string' ? `webhook:${new URL(raw).host}` : 'webhook:invalid';
      } catch {
        return 'webhook:invalid';
      }
    },

    metricsLabel: (destination) => platformOf(destination.metadata),

    async send(ctx: SendContext): Promise<SendResult> {
      const prepared = prepare(ctx);
      if ('ok' in prepared) return prepared;
      return post(prepared.target, ctx.idempotencyKey, prepared.body, ctx.signal);
    },

    async sendTest(target, message = 'This is a test message from Chime. If you can read it, your webhook works.') {
      const id = newMessageId();
      const body = webhookBody(target.platform, { type: 'webhook.test', id, message, fired_at: new Date().toISOString(), username: target.username });
      const result = await post(target, id, body, undefined);
      if (result.ok) return { ok: true, ...(result.httpStatus !== undefined ? { http_status: result.httpStatus } : {}) };
      return { ok: false, error: result.error, ...(result.httpStatus !== undefined ? { http_status: result.httpStatus } : {}) };
    },

    tune(tuning) {
      const nextTimeout = tuning.webhookTimeoutMs ?? timeoutMs;
      const nextConnections = tuning.perHostConcurrency ?? connectionsPerOrigin;
      if (nextTimeout === timeoutMs && nextConnections === connectionsPerOrigin) return;
      timeoutMs = nextTimeout;
      connectionsPerOrigin = nextConnections;
      retimed();
      // Requests in flight finish on the old agent (close() waits for them); new ones use the new.
      const old = agent;
      agent = makeAgent();
      old.close().catch(() => old.destroy());
    },

    async close() {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      await agent.close().catch(() => agent.destroy());
    },
  };
}

/** The webhook module's sender for this app (webhooks need no settings: always available). */
export function webhookSenderOf(app: Pick<FastifyInstance, 'config'>): WebhookSender {
  return createWebhookSender({ allowPrivateTargets: app.config.webhookAllowPrivateTargets });
}
