import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { refusedUrl, seedAccount, seedReminder, startWebhookSink, type WebhookSink } from '../../../../helpers/webhook-sink.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: TestServer;
let sink: WebhookSink;
let accountId: string;

beforeAll(async () => {
  sink = await startWebhookSink();
  server = await startTestServer();
  server.app.scheduler.setOptions({ retryDelaysMs: [60, 120, 180], retryJitter: 0, shutdownTimeoutMs: 200 });
  accountId = await seedAccount(server.app.db);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});
afterEach(() => {
  sink.requests.length = 0;
  sink.reply({ status: 200 });
});

async function fire(destinations: Parameters<typeof seedReminder>[1]['destinations'], extra: Partial<Parameters<typeof seedReminder>[1]> = {}) {
  const seeded = await seedReminder(server.app.db, { accountId, at: Date.now() - 5, destinations, ...extra });
  server.app.scheduler.wake();
  return seeded;
}

async function settle(reminderId: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', reminderId).execute();
    if (rows.length > 0 && rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows;
    if (Date.now() > deadline) throw new Error(`deliveries not settled: ${JSON.stringify(rows.map((r) => r.status))}`);
    await sleep(10);
  }
}

const attemptsOf = (deliveryId: string) =>
  server.app.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();

describe('webhook delivery', () => {
  it('retries 5xx with backoff, keeping the same webhook-id, until delivered', async () => {
    sink.reply((_req, i) => (i < 2 ? { status: 500 } : { status: 204 }));
    const { id } = await fire([{ url: sink.url }]);
    const [d] = await settle(id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(sink.requests).toHaveLength(3);
    expect(new Set(sink.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(sink.requests.map((r) => r.json.attempt)).toEqual([1, 2, 3]);
    const gaps = [sink.requests[1]!.receivedAt - sink.requests[0]!.receivedAt, sink.requests[2]!.receivedAt - sink.requests[1]!.receivedAt];
    expect(gaps[0]).toBeGreaterThanOrEqual(55);
    expect(gaps[1]).toBeGreaterThanOrEqual(115);
    const attempts = await attemptsOf(d!.id);
    expect(attempts.map((a) => [a.outcome, a.http_status, a.error, a.error_code])).toEqual([
      ['retrying', 500, 'HTTP 500 from 127.0.0.1', 'WEBHOOK_HTTP_5XX'],
      ['retrying', 500, 'HTTP 500 from 127.0.0.1', 'WEBHOOK_HTTP_5XX'],
      ['delivered', 204, null, null],
    ]);
    expect(d!.last_error_code).toBeNull();
  });

  it('gives up after the last retry', async () => {
    sink.reply({ status: 503 });
    const { id } = await fire([{ url: sink.url }]);
    const [d] = await settle(id);
    expect(d).toMatchObject({ status: 'failed', attempts: 4, last_error: 'HTTP 503 from 127.0.0.1', last_error_code: 'WEBHOOK_HTTP_5XX' });
    expect(sink.requests).toHaveLength(4);
  });

  it('honours Retry-After (seconds) on 429', async () => {
    sink.reply((_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    const { id } = await fire([{ url: sink.url }]);
    const [d] = await settle(id);
    expect(d!.status).toBe('delivered');
    expect(sink.requests[1]!.receivedAt - sink.requests[0]!.receivedAt).toBeGreaterThanOrEqual(990);
    expect((await attemptsOf(d!.id))[0]).toMatchObject({ outcome: 'retrying', http_status: 429, error_code: 'WEBHOOK_RATE_LIMITED' });
  });

  it('a 4xx is permanent: one attempt, failed', async () => {
    sink.reply({ status: 400 });
    const { id } = await fire([{ url: sink.url }]);
    const [d] = await settle(id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error: 'HTTP 400 from 127.0.0.1', last_error_code: 'WEBHOOK_HTTP_4XX' });
    await sleep(150);
    expect(sink.requests).toHaveLength(1);
  });

  it('410 Gone disables the destination; the next occurrence does not send to it', async () => {
    sink.reply({ status: 410 });
    const { id, destinations } = await fire([{ url: sink.url }], { recurrence: 'HOURLY', at: Date.now() - 5 });
    await settle(id);
    const dest = await server.app.db.selectFrom('destinations').selectAll().where('id', '=', destinations[0]!.id).executeTakeFirstOrThrow();
    expect(dest.disabled_at).not.toBeNull();
    expect(dest.disabled_reason).toBe('HTTP 410 from 127.0.0.1: the endpoint is gone');
    const [gone] = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
    expect(gone!.last_error_code).toBe('WEBHOOK_GONE');
    // Make the next occurrence due now: no delivery is created for the disabled destination.
    await server.app.db.updateTable('reminders').set({ next_fire_utc: new Date(Date.now() - 1).toISOString() }).where('id', '=', id).execute();
    await server.app.scheduler.runOnce();
    const rows = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    expect(sink.requests).toHaveLength(1);
  });

  it('Discord 404 disables the destination with a readable reason', async () => {
    sink.reply({ status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' });
    const { id, destinations } = await fire([{ url: `${sink.url}/api/webhooks/1/abc`, platform: 'discord' }]);
    const [d] = await settle(id);
    expect(d!.last_error).toBe('Discord says this webhook was deleted');
    expect(d!.last_error_code).toBe('WEBHOOK_GONE');
    const dest = await server.app.db.selectFrom('destinations').selectAll().where('id', '=', destinations[0]!.id).executeTakeFirstOrThrow();
    expect(dest.disabled_reason).toBe('Discord says this webhook was deleted');
  });

  it('does not follow redirects', async () => {
    sink.reply((req) => (req.path === '/moved' ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 }));
    const { id } = await fire([{ url: `${sink.url}/moved` }]);
    const [d] = await settle(id);
    expect(d).toMatchObject({ status: 'failed', last_error: 'Redirects are not followed (HTTP 302)', last_error_code: 'WEBHOOK_REDIRECT' });
    await sleep(50);
    expect(sink.requests.map((r) => r.path)).toEqual(['/moved']);
  });

  it('times out a target that does not answer', async () => {
    // The deadline is strict (an answer after it is a time-out): leave the quick retry room on a loaded machine.
    server.app.scheduler.setOptions({ webhookTimeoutMs: 400 });
    try {
      sink.reply((_req, i) => (i === 0 ? { delayMs: 3000 } : { status: 200 }));
      const { id } = await fire([{ url: sink.url }]);
      const [d] = await settle(id);
      expect(d!.status).toBe('delivered');
      const attempts = await attemptsOf(d!.id);
      expect(attempts[0]).toMatchObject({ outcome: 'retrying', error: 'Timed out after 400 ms', error_code: 'WEBHOOK_TIMEOUT' });
      expect(attempts[0]!.duration_ms).toBeLessThan(1500);
    } finally {
      server.app.scheduler.setOptions({ webhookTimeoutMs: 10_000 });
    }
  });

  it('reports a refused connection readably and retries it', async () => {
    const { id } = await fire([{ url: await refusedUrl() }]);
    const [d] = await settle(id);
    expect(d).toMatchObject({ status: 'failed', attempts: 4, last_error: 'Connection refused', last_error_code: 'WEBHOOK_CONNECTION_REFUSED' });
  });

  it('a slow host does not delay another host', async () => {
    const slow = await startWebhookSink();
    slow.reply({ delayMs: 1500 });
    server.app.scheduler.setOptions({ concurrency: 8, perHostConcurrency: 4 });
    try {
      for (let i = 0; i < 12; i++) await seedReminder(server.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: slow.url }] });
      server.app.scheduler.wake();
      await slow.waitFor(4, 2000);
      const due = Date.now();
      const { id } = await fire([{ url: sink.url }]);
      await sink.waitFor(1, 1000);
      expect(sink.requests[0]!.json.reminder_id).toBe(id);
      // Well before the slow host's 1.5 s answers free a slot: it did not wait behind them.
      expect(sink.requests[0]!.receivedAt - due).toBeLessThan(1000);
      // The slow host never had more than its share in flight.
      expect(slow.requests.length).toBeLessThanOrEqual(4);
    } finally {
      await slow.close();
      server.app.scheduler.setOptions({ concurrency: 256, perHostConcurrency: 32 });
      await server.app.scheduler.drain();
    }
  });

  it('Discord webhook body: content (cut to 2000), username, no mentions', async () => {
    const long = 'x'.repeat(2500);
    const { id } = await fire([{ url: `${sink.url}/discord`, platform: 'discord', username: 'Chime Bot' }], { message: `@everyone ${long}` });
    await settle(id);
    const body = sink.requests[0]!.json;
    expect(Object.keys(body).sort()).toEqual(['allowed_mentions', 'content', 'username']);
    expect(body.username).toBe('Chime Bot');
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(Array.from(body.content as string).length).toBe(2000);
    expect(body.content.startsWith('@everyone xxx')).toBe(true);
  });

  it('Slack webhook body: text and username', async () => {
    const { id } = await fire([{ url: `${sink.url}/slack`, platform: 'slack', username: 'Chime' }], { message: 'Water the plants' });
    await settle(id);
    expect(sink.requests[0]!.json).toEqual({ text: 'Water the plants', username: 'Chime' });
  });

  it('counts deliveries in /metrics', async () => {
    const { id } = await fire([{ url: sink.url }]);
    await settle(id);
    const res = await fetch(`${server.url}/metrics`);
    const text = await res.text();
    expect(text).toMatch(/chime_deliveries_total\{platform="generic",outcome="delivered"\} \d+/);
    expect(text).toMatch(/chime_deliveries_total\{platform="discord",outcome="failed"\} 1/);
    expect(text).toMatch(/chime_delivery_retries_total \d+/);
  });
});
