/**
 * The webhook destination's sender called directly: failure codes, test payloads, metrics label
 * and run-time tuning. The scheduler end to end is in webhook-delivery.test.ts.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOfStatus } from '../../../../../server/destinations/webhook/codes.ts';
import { createWebhookSender, type WebhookSender, webhookSenderOf } from '../../../../../server/destinations/webhook/sender.ts';
import type { SendContext } from '../../../../../server/scheduler/types.ts';
import { refusedUrl, startWebhookSink, verifyStandardWebhook, type WebhookSink } from '../../../../helpers/webhook-sink.ts';

let sink: WebhookSink;
let open: WebhookSender;

beforeAll(async () => {
  sink = await startWebhookSink();
  open = createWebhookSender({ allowPrivateTargets: true, timeoutMs: 2000 });
});
afterAll(async () => {
  await open?.close();
  await sink?.close();
});

function ctx(metadata: Record<string, unknown>, overrides: Partial<SendContext> = {}): SendContext {
  const now = new Date().toISOString();
  return {
    deliveryId: 'd1',
    idempotencyKey: `msg_${crypto.randomUUID()}`,
    attempt: 1,
    reminder: { id: 'r1', message: 'Water the plants', recurrence_type: 'ONCE', timezone: 'UTC', remind_at_utc: now },
    account: { id: 'a1', timezone: 'UTC', locale: null, username: 'alice' },
    destination: { id: 'w1', type: 'webhook', metadata, secret: null },
    occurrenceUtc: now,
    firedAt: now,
    late: false,
    signal: AbortSignal.timeout(5000),
    ...overrides,
  };
}

describe('webhook result codes', () => {
  it.each([
    [200, 'generic', { ok: true, httpStatus: 200 }],
    [302, 'generic', { ok: false, retryable: false, code: 'WEBHOOK_REDIRECT' }],
    [400, 'generic', { ok: false, retryable: false, code: 'WEBHOOK_HTTP_4XX' }],
    [404, 'generic', { ok: false, retryable: false, code: 'WEBHOOK_HTTP_4XX' }],
    [404, 'discord', { ok: false, retryable: false, code: 'WEBHOOK_GONE', disableDestination: true }],
    [408, 'generic', { ok: false, retryable: true, code: 'WEBHOOK_HTTP_4XX' }],
    [410, 'slack', { ok: false, retryable: false, code: 'WEBHOOK_GONE', disableDestination: true }],
    [429, 'generic', { ok: false, retryable: true, code: 'WEBHOOK_RATE_LIMITED', retryAfterMs: 2000 }],
    [500, 'generic', { ok: false, retryable: true, code: 'WEBHOOK_HTTP_5XX' }],
    [503, 'discord', { ok: false, retryable: true, code: 'WEBHOOK_HTTP_5XX' }],
  ] as const)('HTTP %i (%s webhook)', (status, platform, expected) => {
    const result = resultOfStatus(status, 'hooks.example', platform, status === 429 ? '2' : undefined);
    expect(result).toMatchObject({ ...expected, httpStatus: status });
    expect(result).not.toHaveProperty('discordCode');
  });

  it('network failures and refused targets', async () => {
    expect(await open.send(ctx({ url: `${await refusedUrl()}/` }))).toEqual({ ok: false, retryable: true, code: 'WEBHOOK_CONNECTION_REFUSED', error: 'Connection refused' });

    const noSuchHost = (_h: string, _o: unknown, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
      cb(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), []);
    const dns = createWebhookSender({ allowPrivateTargets: false, timeoutMs: 1000, lookup: noSuchHost });
    const guarded = createWebhookSender({ allowPrivateTargets: false, timeoutMs: 1000 });
    try {
      expect(await dns.send(ctx({ url: 'http://hooks.example.test/x' }))).toMatchObject({ ok: false, retryable: true, code: 'WEBHOOK_DNS_FAILED', error: 'Could not resolve hooks.example.test' });
      expect(await guarded.send(ctx({ url: `http://127.0.0.1:${sink.port}/` }))).toMatchObject({ ok: false, retryable: false, code: 'WEBHOOK_TARGET_FORBIDDEN' });
    } finally {
      await dns.close();
      await guarded.close();
    }
    expect(await open.send(ctx({ url: 'ftp://x.test/' }))).toMatchObject({ ok: false, retryable: false, code: 'WEBHOOK_URL_INVALID' });
    expect(await open.send(ctx({}))).toMatchObject({ ok: false, retryable: false, code: 'WEBHOOK_URL_INVALID', error: 'Webhook URL is missing' });
  });
});

describe('webhook sender', () => {
  it('a test send posts a signed webhook.test payload (no reminder fields)', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const c = ctx({ url: `${sink.url}/t`, platform: 'generic' }, { test: true });
    c.destination.secret = secret;
    expect(await open.send(c)).toEqual({ ok: true, httpStatus: 200 });
    const req = sink.requests.at(-1)!;
    expect(req.json).toEqual({ type: 'webhook.test', id: c.idempotencyKey, message: 'Water the plants', fired_at: c.firedAt });
    expect(req.headers['webhook-id']).toBe(c.idempotencyKey);
    expect(verifyStandardWebhook(secret, req.headers, req.body)).toBe(true);
  });

  it('labels metrics by platform and keys concurrency by host', () => {
    const dest = (metadata: Record<string, unknown>) => ({ id: 'w', type: 'webhook' as const, metadata, secret: null });
    expect(open.metricsLabel!(dest({ url: 'https://a.test/x', platform: 'slack' }))).toBe('slack');
    expect(open.metricsLabel!(dest({ url: 'https://a.test/x', platform: 'teams' }))).toBe('generic');
    expect(open.concurrencyKey(dest({ url: 'https://a.test:8443/x' }))).toBe('webhook:a.test:8443');
    expect(open.concurrencyKey(dest({ url: 'not a url' }))).toBe('webhook:invalid');
  });

  it('tune() changes the timeout of later sends', async () => {
    const sender = createWebhookSender({ allowPrivateTargets: true, timeoutMs: 5000 });
    const slow = await startWebhookSink();
    slow.reply({ delayMs: 1000 });
    try {
      sender.tune({ webhookTimeoutMs: 100 });
      const started = Date.now();
      expect(await sender.send(ctx({ url: slow.url }))).toEqual({ ok: false, retryable: true, code: 'WEBHOOK_TIMEOUT', error: 'Timed out after 100 ms' });
      expect(Date.now() - started).toBeLessThan(900);
      // Unrelated tuning keys leave it alone.
      sender.tune({ perHostConcurrency: 8 });
      expect(await sender.send(ctx({ url: slow.url }))).toMatchObject({ code: 'WEBHOOK_TIMEOUT', error: 'Timed out after 100 ms' });
    } finally {
      await sender.close();
      await slow.close();
    }
  });

  it('the answer and the time-out race deterministically: the status line decides, by the deadline', async () => {
    // A receiver that sends its status just before the deadline and its body well after it.
    const { createServer } = await import('node:http');
    let statusAtMs = 0;
    let requests = 0;
    const server = createServer((req, res) => {
      requests += 1;
      req.resume();
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.flushHeaders();
        setTimeout(() => res.end('ok'), 700);
      }, statusAtMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    const sender = createWebhookSender({ allowPrivateTargets: true, timeoutMs: 1000 });
    try {
      // Status at 0.85 s, body at 1.55 s: delivered (before, the sweeper timed it out and it was sent again).
      statusAtMs = 850;
      expect(await sender.send(ctx({ url }))).toMatchObject({ ok: true });
      // Status at 1.15 s: a time-out, though the answer is complete before undici's own timers give up.
      statusAtMs = 1150;
      expect(await sender.send(ctx({ url }))).toEqual({ ok: false, retryable: true, code: 'WEBHOOK_TIMEOUT', error: 'Timed out after 1 s' });
      expect(requests).toBe(2);
    } finally {
      await sender.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('the module creates it from the app settings (SSRF guard on unless allowed)', async () => {
    const strict = webhookSenderOf({ config: { webhookAllowPrivateTargets: false } } as never);
    try {
      expect(await strict.send(ctx({ url: `http://127.0.0.1:${sink.port}/` }))).toMatchObject({ code: 'WEBHOOK_TARGET_FORBIDDEN' });
    } finally {
      await strict.close();
    }
  });
});
