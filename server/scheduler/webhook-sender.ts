import { createHmac, randomUUID } from 'node:crypto';
import type { Agent } from 'undici';
import { createGuardedAgent, ForbiddenTargetError } from '../net/ssrf-guard.ts';
import type { DestinationSender, SendContext, SendResult, WebhookPlatform } from './types.ts';

export const WEBHOOK_USER_AGENT = 'Chime-Webhooks/1.0';
const DISCORD_CONTENT_MAX = 2000;
const SLACK_TEXT_MAX = 40_000;
/** Retry-After beyond this is treated as this: a reminder retried days later is useless. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

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

export interface TestOutcome {
  ok: boolean;
  http_status?: number;
  error?: string;
}

export interface WebhookSender extends DestinationSender {
  /** Sends a `webhook.test` payload; the failure is data, never thrown. */
  sendTest(target: WebhookTarget, message?: string): Promise<TestOutcome>;
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

function hostOf(url: URL): string {
  return url.host;
}

/** Readable reason for a network-level failure; `code` comes from Node or undici. */
function networkError(err: unknown, host: string): { error: string; retryable: boolean } {
  if (err instanceof ForbiddenTargetError) return { error: err.message, retryable: false };
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  switch (code) {
    case 'ERR_WEBHOOK_TARGET_FORBIDDEN':
      return { error: e.message ?? 'Webhook target is not allowed', retryable: false };
    case 'ECONNREFUSED':
      return { error: 'Connection refused', retryable: true };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { error: `Could not resolve ${host.replace(/:\d+$/, '')}`, retryable: true };
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return { error: `Connection to ${host} was closed unexpectedly`, retryable: true };
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return { error: `Could not connect to ${host} (timed out)`, retryable: true };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { error: `${host} is unreachable`, retryable: true };
    default:
      if (typeof code === 'string' && /CERT|SSL|TLS/i.test(code)) return { error: `TLS error talking to ${host} (${code})`, retryable: true };
      return { error: `Network error talking to ${host}${code ? ` (${code})` : ''}`, retryable: true };
  }
}

type Outcome = SendResult & { httpStatus?: number };

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const agent: Agent = createGuardedAgent({
    allowPrivateTargets: options.allowPrivateTargets,
    connectTimeoutMs: timeoutMs,
    connectionsPerOrigin: options.connectionsPerOrigin ?? 32,
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
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
  const sweepEveryMs = Math.max(10, Math.min(250, Math.floor(timeoutMs / 10)));

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
    if (!sweeper) {
      sweeper = setInterval(sweep, sweepEveryMs);
      sweeper.unref();
    }
  }

  function untrack(entry: InFlight) {
    inFlight.delete(entry);
    entry.group?.delete(entry);
  }

  /** POST with undici's handler API: status and headers only, the answer's body is discarded. */
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
          onResponseStart(_controller, status, responseHeaders) {
            statusCode = status;
            retryAfter = responseHeaders['retry-after'];
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

  const timeoutText = `Timed out after ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`}`;

  async function post(target: WebhookTarget, platform: WebhookPlatform, msgId: string, body: string, signal: AbortSignal | undefined): Promise<Outcome> {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return { ok: false, retryable: false, error: 'Webhook URL is not a valid URL' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, retryable: false, error: 'Webhook URL must start with http:// or https://' };
    const host = hostOf(url);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
    };
    if (target.secret) {
      const ts = Math.floor(Date.now() / 1000);
      headers['webhook-id'] = msgId;
      headers['webhook-timestamp'] = String(ts);
      headers['webhook-signature'] = signWebhook(target.secret, msgId, ts, body);
    } else {
      headers['webhook-id'] = msgId;
    }
    try {
      const res = await dispatchPost(url, headers, body, signal);
      const status = res.statusCode;
      if (status >= 200 && status < 300) return { ok: true, httpStatus: status };
      if (status >= 300 && status < 400) return { ok: false, retryable: false, httpStatus: status, error: `Redirects are not followed (HTTP ${status})` };
      if (status === 408 || status === 429 || status >= 500) {
        const retryAfterMs = parseRetryAfter(res.retryAfter);
        return {
          ok: false,
          retryable: true,
          httpStatus: status,
          error: `HTTP ${status} from ${url.hostname}`,
          ...(retryAfterMs !== null ? { retryAfterMs } : {}),
        };
      }
      if (status === 410) {
        return { ok: false, retryable: false, httpStatus: status, error: `HTTP 410 from ${url.hostname}: the endpoint is gone`, disableDestination: true };
      }
      if (status === 404 && platform === 'discord') {
        return { ok: false, retryable: false, httpStatus: status, error: 'Discord says this webhook was deleted', disableDestination: true };
      }
      return { ok: false, retryable: false, httpStatus: status, error: `HTTP ${status} from ${url.hostname}` };
    } catch (err) {
      if (err instanceof TimeoutError) return { ok: false, retryable: true, error: timeoutText };
      if (err instanceof ShutdownError) return { ok: false, retryable: true, error: 'Interrupted by server shutdown' };
      const code = (err as { code?: string }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return { ok: false, retryable: true, error: timeoutText };
      return { ok: false, ...networkError(err, host) };
    }
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

    async send(ctx: SendContext): Promise<SendResult> {
      const meta = ctx.destination.metadata as { url?: unknown; platform?: unknown; username?: unknown };
      if (typeof meta.url !== 'string') return { ok: false, retryable: false, error: 'Webhook URL is missing' };
      const platform: WebhookPlatform = meta.platform === 'discord' || meta.platform === 'slack' ? meta.platform : 'generic';
      const username = typeof meta.username === 'string' && meta.username ? meta.username : undefined;
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
      return post({ url: meta.url, platform, username, secret: ctx.destination.secret }, platform, ctx.idempotencyKey, body, ctx.signal);
    },

    async sendTest(target, message = 'This is a test message from Chime. If you can read it, your webhook works.') {
      const id = `msg_${randomUUID()}`;
      const body = webhookBody(target.platform, {
        type: 'webhook.test',
        id,
        message,
        fired_at: new Date().toISOString(),
        username: target.username,
      });
      const result = await post(target, target.platform, id, body, undefined);
      if (result.ok) return { ok: true, ...(result.httpStatus !== undefined ? { http_status: result.httpStatus } : {}) };
      return { ok: false, error: result.error, ...(result.httpStatus !== undefined ? { http_status: result.httpStatus } : {}) };
    },

    async close() {
      if (sweeper) clearInterval(sweeper);
      await agent.close().catch(() => agent.destroy());
    },
  };
}
