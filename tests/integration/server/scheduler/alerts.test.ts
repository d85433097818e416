/**
 * Alerts before a reminder (docs/time.md "Alerts before") end to end: created over HTTP, claimed
 * by a scheduler on the test server's database (SQLite, and PostgreSQL in the postgres project)
 * whose clock is the real one moved forward by the test, sent by the real webhook sender to a
 * sink. Each alert and the occurrence go out exactly once, across a restart between claim and send.
 */
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, systemClock } from '../../../../server/scheduler/clock.ts';
import { createSchedulerMetrics } from '../../../../server/scheduler/metrics.ts';
import { createModuleSenders } from '../../../../server/scheduler/module-senders.ts';
import { Scheduler } from '../../../../server/scheduler/scheduler.ts';
import type { SchedulerOptions } from '../../../../server/scheduler/options.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

const MINUTE = 60_000;
const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as unknown as FastifyBaseLogger;

/** The real clock (timers and all), read `offset` ms ahead: the test jumps to an alert's instant. */
class JumpingClock implements Clock {
  offset = 0;
  now = () => Date.now() + this.offset;
  setTimeout = systemClock.setTimeout;
  clearTimeout = systemClock.clearTimeout;
  setImmediate = systemClock.setImmediate;
  jumpTo(ms: number) {
    this.offset = ms - Date.now();
  }
}

let server: TestServer;
let sink: WebhookSink;
const schedulers: Scheduler[] = [];

beforeAll(async () => {
  sink = await startWebhookSink();
  // The server's own loop stays off: the schedulers of these tests claim with their own clock.
  server = await startTestServer({ overrides: { schedulerEnabled: false } });
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});
afterEach(async () => {
  for (const s of schedulers.splice(0)) await s.stop();
});

function schedulerWith(clock: Clock, options: Partial<SchedulerOptions> = {}, webhook?: Parameters<Scheduler['registerSender']>[1]) {
  const s = new Scheduler(server.app.db, silent, createSchedulerMetrics(async () => 0), { flushIntervalMs: 10, leaseOwner: 'alerts-test:t0', ...options }, clock);
  for (const [type, sender] of createModuleSenders(server.app, {})) s.registerSender(type, sender);
  if (webhook) s.registerSender('webhook', webhook);
  schedulers.push(s);
  return s;
}

/** The next whole minute at least `aheadMs` from now (what a reminder's HH:MM can say). */
const minuteAhead = (aheadMs: number) => Math.ceil((Date.now() + aheadMs) / MINUTE) * MINUTE;
const dateTime = (ms: number) => ({ date: new Date(ms).toISOString().slice(0, 10), time: new Date(ms).toISOString().slice(11, 16), timezone: 'UTC' });

async function createWithAlerts(api: Awaited<ReturnType<typeof signUp>>['api'], occurrenceMs: number, alerts: number[], extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/reminders', {
    ...dateTime(occurrenceMs),
    message: 'Stand-up',
    alerts: alerts.map((m) => ({ before_minutes: m })),
    destinations: [{ type: 'webhook', metadata: { url: sink.url, platform: 'generic' } }],
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; alerts: Array<{ before_minutes: number }>; next_alert_utc: string | null; next_fire_utc: string };
}

const received = (id: string) => sink.requests.filter((r) => (r.json as { reminder_id?: string } | null)?.reminder_id === id);
const deliveriesOf = (id: string) => server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).orderBy('alert_minutes', 'desc').execute();
const reminderRow = (id: string) => server.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('alerts before a reminder', () => {
  it('fires each alert, then the occurrence, exactly once each, with their own webhook-id', async () => {
    const { api } = await signUp(server.url);
    const occurrence = minuteAhead(3 * 60 * MINUTE);
    const created = await createWithAlerts(api, occurrence, [15, 60]);
    expect(created.alerts).toEqual([{ before_minutes: 60 }, { before_minutes: 15 }]);
    expect(created.next_alert_utc).toBe(new Date(occurrence - 60 * MINUTE).toISOString());
    expect(created.next_fire_utc).toBe(new Date(occurrence).toISOString());

    const clock = new JumpingClock();
    const scheduler = schedulerWith(clock);
    // Before the first alert nothing is due.
    clock.jumpTo(occurrence - 61 * MINUTE);
    await scheduler.runOnce();
    expect(received(created.id)).toHaveLength(0);

    clock.jumpTo(occurrence - 60 * MINUTE + 1_000);
    await scheduler.runOnce();
    await scheduler.runOnce();
    expect(received(created.id)).toHaveLength(1);
    expect((await reminderRow(created.id)).next_alert_utc).toBe(new Date(occurrence - 15 * MINUTE).toISOString());

    clock.jumpTo(occurrence - 15 * MINUTE + 1_000);
    await scheduler.runOnce();
    await scheduler.runOnce();
    expect(received(created.id)).toHaveLength(2);
    // Both alerts of this occurrence are sent: none until the occurrence fires.
    expect((await reminderRow(created.id)).next_alert_utc).toBeNull();

    clock.jumpTo(occurrence + 1_000);
    await scheduler.runOnce();
    await scheduler.runOnce();
    const got = received(created.id);
    expect(got).toHaveLength(3);
    expect(got.map((r) => (r.json as { type: string }).type)).toEqual(['reminder.alert', 'reminder.alert', 'reminder.due']);
    expect(got.map((r) => (r.json as { alert?: unknown }).alert)).toEqual([
      { before_minutes: 60, occurrence: new Date(occurrence).toISOString() },
      { before_minutes: 15, occurrence: new Date(occurrence).toISOString() },
      undefined,
    ]);
    for (const r of got) expect((r.json as { occurrence_at: string }).occurrence_at).toBe(new Date(occurrence).toISOString());
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(3);

    const rows = await deliveriesOf(created.id);
    expect(rows.map((d) => [d.alert_minutes, d.status])).toEqual([
      [60, 'delivered'],
      [15, 'delivered'],
      [0, 'delivered'],
    ]);
    expect(rows.map((d) => d.idempotency_key).sort()).toEqual(got.map((r) => String(r.headers['webhook-id'])).sort());
    // The one-off is finished: no alert left either.
    expect(await reminderRow(created.id)).toMatchObject({ next_fire_utc: null, next_alert_utc: null });

    // The history walks the three rows of one occurrence and destination page by page, each once.
    const seen: Array<number | null> = [];
    let before: string | null = null;
    do {
      const page: { status: number; body: { deliveries: Array<{ alert_minutes: number | null }>; next_cursor: string | null } } = await api.get(
        `/api/reminders/${created.id}/deliveries?limit=1${before ? `&before=${before}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.deliveries.map((d) => d.alert_minutes));
      before = page.body.next_cursor;
    } while (before);
    expect(seen).toEqual([60, 15, null]);
  });

  it('a restart between the claim of an alert and its send sends it once, with the same webhook-id', async () => {
    const { api } = await signUp(server.url);
    const occurrence = minuteAhead(2 * 60 * MINUTE);
    const created = await createWithAlerts(api, occurrence, [30]);
    const clock = new JumpingClock();
    clock.jumpTo(occurrence - 30 * MINUTE + 1_000);

    // First life: the alert is claimed (its outbox row written, the pointer moved) but never sent.
    const stuck = schedulerWith(clock, { shutdownTimeoutMs: 20 }, {
      concurrencyKey: () => 'stuck',
      send: (ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ ok: false, retryable: true, code: 'TEST_ABORTED', error: 'aborted' }))),
    });
    await stuck.tick();
    const claimed = await deliveriesOf(created.id);
    expect(claimed).toMatchObject([{ alert_minutes: 30, status: 'pending' }]);
    expect((await reminderRow(created.id)).next_alert_utc).toBeNull();
    await stuck.stop();
    expect(received(created.id)).toHaveLength(0);

    // Second life, same lease owner: it takes its leases back and sends the alert, once.
    const second = schedulerWith(clock);
    await second.start();
    await sink.waitForMatching((r) => (r.json as { reminder_id?: string } | null)?.reminder_id === created.id);
    await second.drain();
    await second.runOnce();
    const got = received(created.id);
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['webhook-id']).toBe(claimed[0]!.idempotency_key);
    expect(await deliveriesOf(created.id)).toMatchObject([{ alert_minutes: 30, status: 'delivered' }]);
  });

  it('an alert whose occurrence passed during a downtime is dropped; the occurrence fires once', async () => {
    const { api } = await signUp(server.url);
    const occurrence = minuteAhead(2 * 60 * MINUTE);
    const created = await createWithAlerts(api, occurrence, [10]);
    const clock = new JumpingClock();
    clock.jumpTo(occurrence + 5 * MINUTE);
    const scheduler = schedulerWith(clock);
    await scheduler.runOnce();
    await scheduler.runOnce();
    const got = received(created.id);
    expect(got.map((r) => (r.json as { type: string }).type)).toEqual(['reminder.due']);
    expect(await deliveriesOf(created.id)).toMatchObject([{ alert_minutes: 0, late: 1 }]);
  });

  it('a paused reminder sends no alert; resume and edit set the next alert again, skipping those already past', async () => {
    const { api } = await signUp(server.url);
    const occurrence = minuteAhead(2 * 60 * MINUTE);
    // 3 hours before is already past: never sent.
    const created = await createWithAlerts(api, occurrence, [180, 60, 15]);
    expect(created.next_alert_utc).toBe(new Date(occurrence - 60 * MINUTE).toISOString());

    const paused = await api.post(`/api/reminders/${created.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.next_alert_utc).toBeNull();
    const clock = new JumpingClock();
    clock.jumpTo(occurrence - 60 * MINUTE + 1_000);
    const scheduler = schedulerWith(clock);
    await scheduler.runOnce();
    expect(await deliveriesOf(created.id)).toHaveLength(0);

    const resumed = await api.post(`/api/reminders/${created.id}/resume`);
    expect(resumed.body.next_alert_utc).toBe(new Date(occurrence - 60 * MINUTE).toISOString());

    // An edit recomputes from its own alerts; one that leaves alerts out keeps them.
    const edited = await api.put(`/api/reminders/${created.id}`, { ...dateTime(occurrence), message: 'Stand-up', alerts: [{ before_minutes: 30 }] });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ alerts: [{ before_minutes: 30 }], next_alert_utc: new Date(occurrence - 30 * MINUTE).toISOString() });
    const kept = await api.put(`/api/reminders/${created.id}`, { ...dateTime(occurrence + 60 * MINUTE), message: 'Stand-up' });
    expect(kept.body).toMatchObject({ alerts: [{ before_minutes: 30 }], next_alert_utc: new Date(occurrence + 30 * MINUTE).toISOString() });
    const none = await api.put(`/api/reminders/${created.id}`, { ...dateTime(occurrence), message: 'Stand-up', alerts: [] });
    expect(none.body).toMatchObject({ alerts: [], next_alert_utc: null });
  });

  it('a daily reminder moves its alert to the next day after it fires', async () => {
    const { api } = await signUp(server.url);
    const occurrence = minuteAhead(2 * 60 * MINUTE);
    const created = await createWithAlerts(api, occurrence, [5], { recurrence: 'DAILY' });
    const clock = new JumpingClock();
    clock.jumpTo(occurrence + 1_000);
    const scheduler = schedulerWith(clock);
    await scheduler.runOnce();
    expect(await reminderRow(created.id)).toMatchObject({
      next_occurrence_utc: new Date(occurrence + 1440 * MINUTE).toISOString(),
      next_alert_utc: new Date(occurrence + 1435 * MINUTE).toISOString(),
    });
  });

  it('refuses bad alerts with a code', async () => {
    const { api } = await signUp(server.url);
    const at = dateTime(minuteAhead(60 * MINUTE));
    const post = (alerts: unknown) => api.post('/api/reminders', { ...at, message: 'x', alerts });
    const cases: Array<[unknown, string]> = [
      [[{ before_minutes: 5 }, { before_minutes: 10 }, { before_minutes: 15 }, { before_minutes: 20 }], 'ALERT_TOO_MANY'],
      [[{ before_minutes: 0 }], 'ALERT_AFTER_EVENT'],
      [[{ before_minutes: -15 }], 'ALERT_AFTER_EVENT'],
      [[{ before_minutes: 1.5 }], 'ALERTS_INVALID'],
      [[{ before_minutes: 15 }, { before_minutes: 15 }], 'ALERTS_INVALID'],
      [[{ before_minutes: 40_321 }], 'ALERTS_INVALID'],
    ];
    for (const [alerts, code] of cases) {
      const res = await post(alerts);
      expect(res.status, JSON.stringify(alerts)).toBe(400);
      expect(res.body.code, JSON.stringify(alerts)).toBe(code);
      expect(typeof res.body.error).toBe('string');
    }
    const ok = await post([{ before_minutes: 40_320 }, { before_minutes: 1 }]);
    expect(ok.status).toBe(201);
  });
});
