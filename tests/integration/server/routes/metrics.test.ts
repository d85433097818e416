import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../helpers/server.ts';
import { seedAccount, seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

let server: TestServer;
let other: TestServer;
let sink: WebhookSink;

beforeAll(async () => {
  sink = await startWebhookSink();
  // Two apps in one process: each must have its own registry.
  server = await startTestServer({ overrides: { schedulerEnabled: false } });
  other = await startTestServer({ overrides: { schedulerEnabled: false } });
});
afterAll(async () => {
  await server?.close();
  await other?.close();
  await sink?.close();
});

const scrape = async (s: TestServer) => {
  const res = await fetch(`${s.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line ? Number(line.slice(series.length + 1)) : undefined;
};

describe('GET /metrics', () => {
  it('exposes delivery counters, lateness, the due gauge and process metrics', async () => {
    const accountId = await seedAccount(server.app.db);
    for (let i = 0; i < 3; i++) await seedReminder(server.app.db, { accountId, at: Date.now() - 2000, destinations: [{ url: sink.url }] });
    await seedReminder(server.app.db, { accountId, at: Date.now() - 2000, paused: true, destinations: [{ url: sink.url }] });
    await seedReminder(server.app.db, { accountId, at: Date.now() + 3_600_000, destinations: [{ url: sink.url }] });

    let text = await scrape(server);
    expect(value(text, 'chime_reminders_due')).toBe(3);
    expect(text).toContain('# TYPE chime_delivery_lateness_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');

    await server.app.scheduler.runOnce();
    text = await scrape(server);
    expect(value(text, 'chime_reminders_due')).toBe(0);
    expect(value(text, 'chime_deliveries_total{platform="generic",outcome="delivered"}')).toBe(3);
    expect(value(text, 'chime_delivery_lateness_seconds_count')).toBe(3);
    // Due two seconds ago: no observation below 1 s, all of them by the 10 s bucket (a loaded
    // machine may take a second or more between the seeding and the claim).
    expect(value(text, 'chime_delivery_lateness_seconds_bucket{le="1"}')).toBe(0);
    expect(value(text, 'chime_delivery_lateness_seconds_bucket{le="10"}')).toBe(3);

    // The other app's registry is untouched.
    const otherText = await scrape(other);
    expect(value(otherText, 'chime_deliveries_total{platform="generic",outcome="delivered"}')).toBeUndefined();
  });
});

describe('delivery log pruning', () => {
  it('deletes attempts and finished deliveries older than the retention, keeps the rest', async () => {
    const db = other.app.db;
    const accountId = await seedAccount(db);
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const recent = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const { id: reminderId, destinations } = await seedReminder(db, { accountId, at: Date.now() + 86_400_000, destinations: [{ url: sink.url }] });
    const destinationId = destinations[0]!.id;
    const mk = (id: string, occurrence: string, status: 'delivered' | 'failed' | 'retrying', at: string) => ({
      id,
      reminder_id: reminderId,
      destination_id: destinationId,
      account_id: accountId,
      occurrence_utc: occurrence,
      idempotency_key: `msg_${id}`,
      status,
      attempts: 1,
      next_attempt_at: status === 'retrying' ? new Date(Date.now() + 86_400_000).toISOString() : null,
      late: 0,
      last_error: null,
      created_at: at,
      updated_at: at,
      delivered_at: status === 'delivered' ? at : null,
    });
    await db
      .insertInto('deliveries')
      .values([mk('old-delivered', '2020-01-01T00:00:00.000Z', 'delivered', old), mk('old-retrying', '2020-01-02T00:00:00.000Z', 'retrying', old), mk('recent', '2020-01-03T00:00:00.000Z', 'failed', recent)])
      .execute();
    const attempt = (deliveryId: string, at: string) => ({
      delivery_id: deliveryId,
      reminder_id: reminderId,
      destination_id: destinationId,
      account_id: accountId,
      occurrence_utc: '2020-01-01T00:00:00.000Z',
      attempt: 1,
      outcome: 'failed' as const,
      error: 'x',
      http_status: 500,
      discord_code: null,
      duration_ms: 1,
      created_at: at,
    });
    await db.insertInto('delivery_attempts').values([attempt('old-delivered', old), attempt('old-retrying', old), attempt('recent', recent)]).execute();

    const deleted = await other.app.scheduler.prune();
    expect(deleted).toBe(3); // two old attempts + the old finished delivery
    const left = await db.selectFrom('deliveries').select('id').where('reminder_id', '=', reminderId).orderBy('id').execute();
    // A delivery still being retried is never pruned, however old.
    expect(left.map((r) => r.id)).toEqual(['old-retrying', 'recent']);
    const attempts = await db.selectFrom('delivery_attempts').select('delivery_id').where('reminder_id', '=', reminderId).execute();
    expect(attempts.map((a) => a.delivery_id)).toEqual(['recent']);
  });

  it('forgets the mail send log once it no longer counts for the hourly cap', async () => {
    const db = other.app.db;
    const accountId = await seedAccount(db);
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    await db
      .insertInto('email_sends')
      .values([
        { account_id: accountId, kind: 'reminder', created_at: hoursAgo(30) },
        { account_id: accountId, kind: 'reminder', created_at: hoursAgo(0.5) },
      ])
      .execute();
    await other.app.scheduler.prune();
    const left = await db.selectFrom('email_sends').select('created_at').where('account_id', '=', accountId).execute();
    expect(left).toHaveLength(1);
    expect(Date.parse(left[0]!.created_at)).toBeGreaterThan(Date.now() - 3_600_000);
  });
});

describe('GET /metrics access', () => {
  it('with METRICS_TOKEN set, only a scraper sending it as a bearer token gets the figures', async () => {
    const s = await startTestServer({ env: { METRICS_TOKEN: 'scrape-me-please' }, overrides: { schedulerEnabled: false } });
    try {
      expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer scrape-me-please' } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('chime_deliveries_total');
    } finally {
      await s.close();
    }
  });
});
