import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { updateReminderFields } from '../../../../server/reminders/service.ts';
import { startTestServer, type TestServer } from '../../../helpers/server.ts';
import { seedAccount, seedReminder, startWebhookSink, verifyStandardWebhook, type WebhookSink } from '../../../helpers/webhook-sink.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOUR = 3_600_000;
const DAY = 86_400_000;

let server: TestServer;
let sink: WebhookSink;

beforeAll(async () => {
  sink = await startWebhookSink();
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});
afterEach(() => {
  sink.requests.length = 0;
  sink.reply({ status: 200 });
});

async function reminderRow(id: string) {
  return server.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
async function deliveriesOf(reminderId: string) {
  return server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', reminderId).orderBy('occurrence_utc').execute();
}
const forReminder = (id: string) => sink.requests.filter((r) => r.json?.reminder_id === id);

describe('scheduler', () => {
  it('fires a reminder on time with a signed Standard Webhooks body', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    const due = Date.now() + 400;
    const { id, destinations } = await seedReminder(db, { accountId, at: due, message: 'Stand-up', destinations: [{ url: `${sink.url}/hook?x=1` }] });
    server.app.scheduler.wake();
    const [req] = await sink.waitFor(1, 3000);
    expect(req!.receivedAt - due).toBeGreaterThanOrEqual(0);
    // On time means the armed timer fired, not the 30 s safety net. Lateness in milliseconds is
    // measured by the benchmark (bench/scheduler-lateness.ts), not here, where CI load varies.
    expect(req!.receivedAt - due).toBeLessThan(1000);
    expect(req!.path).toBe('/hook?x=1');
    expect(req!.headers['user-agent']).toBe('Chime-Webhooks/1.0');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(verifyStandardWebhook(destinations[0]!.secret!, req!.headers, req!.body)).toBe(true);
    expect(verifyStandardWebhook('whsec_' + Buffer.alloc(32).toString('base64'), req!.headers, req!.body)).toBe(false);
    const ts = Number(req!.headers['webhook-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(5);
    expect(req!.json).toMatchObject({
      type: 'reminder.due',
      id: req!.headers['webhook-id'],
      reminder_id: id,
      message: 'Stand-up',
      occurrence_at: new Date(due).toISOString(),
      recurrence: 'ONCE',
      timezone: 'UTC',
      late: false,
      attempt: 1,
    });
    expect(req!.json.id).toMatch(/^msg_/);
    expect(Date.parse(req!.json.fired_at)).toBeGreaterThanOrEqual(due);

    await server.app.scheduler.drain();
    const row = await reminderRow(id);
    expect(row.next_fire_utc).toBeNull();
    expect(row.completed_at).not.toBeNull();
    expect(row.last_fired_at).not.toBeNull();
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, late: 0, idempotency_key: req!.headers['webhook-id'] });
    const attempts = await db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', delivery!.id).execute();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ outcome: 'delivered', http_status: 200, attempt: 1 });
  });

  it('does not fire a paused reminder', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    const { id } = await seedReminder(db, { accountId, at: Date.now() - 1000, paused: true, destinations: [{ url: sink.url }] });
    await server.app.scheduler.runOnce();
    await sleep(100);
    expect(forReminder(id)).toHaveLength(0);
    expect(await deliveriesOf(id)).toHaveLength(0);
    expect((await reminderRow(id)).next_fire_utc).not.toBeNull();
  });

  it('an edit of a reminder already prepared for its instant replaces what was prepared with the edited schedule', async () => {
    const db = server.app.db;
    // A long lead, so the edit surely comes before the instant however slow the machine.
    server.app.scheduler.setOptions({ prepareAheadMs: 10 * 60_000 });
    try {
      const accountId = await seedAccount(db);
      const at = Math.floor(Date.now() / 1000) * 1000 + 5 * 60_000;
      const { id, destinations } = await seedReminder(db, { accountId, at, message: 'Before', destinations: [{ url: `${sink.url}/hook` }] });
      server.app.scheduler.wake();
      const prepared = (await expect.poll(() => deliveriesOf(id)).toHaveLength(1), (await deliveriesOf(id))[0]!);
      expect(prepared).toMatchObject({ status: 'pending', attempts: 0, lease_owner: null, next_attempt_at: new Date(at).toISOString() });
      expect((await reminderRow(id)).next_fire_utc).toBeNull();

      const later = new Date(at + 60_000).toISOString();
      await updateReminderFields(server.app, accountId, id, {
        date: later.slice(0, 10),
        time: later.slice(11, 19),
        timezone: 'UTC',
        message: 'After',
        destinations: [{ id: destinations[0]!.id, type: 'webhook', metadata: { url: `${sink.url}/hook` } }],
      });
      // The old instant's delivery is gone; the edited schedule is prepared for the new one.
      await expect.poll(async () => (await deliveriesOf(id)).map((d) => d.occurrence_utc)).toEqual([later]);
      expect((await deliveriesOf(id))[0]!.id).not.toBe(prepared.id);
    } finally {
      server.app.scheduler.setOptions({ prepareAheadMs: 1_000 });
    }
  });

  it('recurring reminder missed over downtime: one catch-up, then the next future occurrence', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    // Whole seconds: a reminder stores its wall-clock time to the second.
    const anchor = Math.floor(Date.now() / 1000) * 1000 - 3 * DAY - HOUR; // DAILY, three days and an hour ago
    const { id } = await seedReminder(db, { accountId, at: anchor, recurrence: 'DAILY', destinations: [{ url: sink.url }] });
    await server.app.scheduler.runOnce();
    const got = forReminder(id);
    expect(got).toHaveLength(1);
    // The most recent missed occurrence: today's, an hour ago.
    expect(got[0]!.json.occurrence_at).toBe(new Date(anchor + 3 * DAY).toISOString());
    expect(got[0]!.json.late).toBe(true);
    const row = await reminderRow(id);
    expect(row.next_fire_utc).toBe(new Date(anchor + 4 * DAY).toISOString());
    expect(row.next_occurrence_utc).toBe(row.next_fire_utc);
    expect(row.completed_at).toBeNull();
    const [d] = await deliveriesOf(id);
    expect(d!.late).toBe(1);
    // Nothing more fires now.
    await server.app.scheduler.runOnce();
    expect(forReminder(id)).toHaveLength(1);
  });

  it('a snoozed occurrence fires once at the snooze time, then the recurrence continues', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    const anchor = Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000; // HOURLY, the 10-minutes-ago occurrence is snoozed
    const snoozeUntil = Date.now() + 300;
    const { id } = await seedReminder(db, {
      accountId,
      at: anchor,
      recurrence: 'HOURLY',
      nextFire: snoozeUntil,
      nextOccurrence: anchor,
      snoozedAt: snoozeUntil,
      destinations: [{ url: sink.url }],
    });
    server.app.scheduler.wake();
    await sink.waitFor(1, 3000);
    const got = forReminder(id);
    expect(got).toHaveLength(1);
    expect(got[0]!.receivedAt).toBeGreaterThanOrEqual(snoozeUntil);
    expect(got[0]!.json.occurrence_at).toBe(new Date(anchor).toISOString());
    expect(got[0]!.json.late).toBe(false);
    await server.app.scheduler.drain();
    const row = await reminderRow(id);
    expect(row.snoozed_at_utc).toBeNull();
    expect(row.next_fire_utc).toBe(new Date(anchor + HOUR).toISOString());
    expect(row.next_occurrence_utc).toBe(row.next_fire_utc);
  });

  it('the timer is re-armed by wake() when a reminder is added far from the others', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    // Something far away arms the timer first...
    await seedReminder(db, { accountId, at: Date.now() + 10 * DAY, destinations: [{ url: sink.url }] });
    server.app.scheduler.wake();
    await sleep(20);
    // ...then a nearer one must still fire on time.
    const due = Date.now() + 250;
    const { id } = await seedReminder(db, { accountId, at: due, destinations: [{ url: sink.url }] });
    server.app.scheduler.wake();
    server.app.scheduler.wake();
    await sink.waitFor(1, 3000);
    expect(forReminder(id)).toHaveLength(1);
    expect(forReminder(id)[0]!.receivedAt - due).toBeLessThan(1000);
  });

  it('fires one delivery per enabled destination and skips disabled ones', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    const { id, destinations } = await seedReminder(db, {
      accountId,
      at: Date.now() - 10,
      destinations: [{ url: `${sink.url}/a` }, { url: `${sink.url}/b`, platform: 'slack' }, { url: `${sink.url}/c` }],
    });
    await db.updateTable('destinations').set({ disabled_at: new Date().toISOString(), disabled_reason: 'gone' }).where('id', '=', destinations[2]!.id).execute();
    await server.app.scheduler.runOnce();
    const paths = sink.requests.map((r) => r.path).sort();
    expect(paths).toEqual(['/a', '/b']);
    expect(await deliveriesOf(id)).toHaveLength(2);
  });

  it('more due than fits in memory: the rest waits in the outbox and every one is sent exactly once', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    const other = await startWebhookSink();
    server.app.scheduler.setOptions({ maxBuffered: 12, maxBufferedPerKey: 6, pageSize: 5, batchSize: 7 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const { id } = await seedReminder(db, { accountId, at: Date.now() - 10, destinations: [{ url: `${sink.url}/a` }, { url: `${other.url}/b` }] });
        ids.push(id);
      }
      await server.app.scheduler.runOnce();
      const deadline = Date.now() + 5000;
      while ((sink.requests.length < 30 || other.requests.length < 30) && Date.now() < deadline) await sleep(10);
      await server.app.scheduler.drain();
      for (const got of [sink.requests, other.requests]) {
        expect(got).toHaveLength(30);
        expect(new Set(got.map((r) => r.json.reminder_id))).toEqual(new Set(ids));
      }
      const open = await db.selectFrom('deliveries').select('id').where('status', '!=', 'delivered').where('reminder_id', 'in', ids).execute();
      expect(open).toHaveLength(0);
    } finally {
      server.app.scheduler.setOptions({ maxBuffered: 8000, maxBufferedPerKey: 4000, pageSize: 1000, batchSize: 250 });
      await other.close();
    }
  });

  it('claims only what memory holds: the rest stays due in its table, never written and read back', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    server.app.scheduler.setOptions({ maxBuffered: 6, maxBufferedPerKey: 6, batchSize: 4, perHostConcurrency: 2 });
    sink.reply({ status: 200, delayMs: 40 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push((await seedReminder(db, { accountId, at: Date.now() - 10, destinations: [{ url: `${sink.url}/slow` }] })).id);
      await server.app.scheduler.tick();
      let mostUnsent = 0;
      const deadline = Date.now() + 10_000;
      while (sink.requests.length < 30 && Date.now() < deadline) {
        const open = await db.selectFrom('deliveries').select('id').where('reminder_id', 'in', ids).where('status', '=', 'pending').execute();
        mostUnsent = Math.max(mostUnsent, open.length);
        await sleep(5);
      }
      await server.app.scheduler.drain();
      // Never more delivery rows waiting than memory holds (a claim of everything would write 30).
      expect(mostUnsent).toBeGreaterThan(0);
      expect(mostUnsent).toBeLessThanOrEqual(6);
      expect(sink.requests).toHaveLength(30);
      expect(new Set(sink.requests.map((r) => r.json.reminder_id))).toEqual(new Set(ids));
      const open = await db.selectFrom('deliveries').select('id').where('status', '!=', 'delivered').where('reminder_id', 'in', ids).execute();
      expect(open).toHaveLength(0);
    } finally {
      server.app.scheduler.setOptions({ maxBuffered: 8000, maxBufferedPerKey: 4000, batchSize: 250, perHostConcurrency: 32 });
    }
  });

  it('one slow host with a full share of memory does not hold back a reminder for another host', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    const fast = await startWebhookSink();
    server.app.scheduler.setOptions({ maxBuffered: 40, maxBufferedPerKey: 5, batchSize: 20, perHostConcurrency: 1 });
    sink.reply({ status: 200, delayMs: 300 });
    try {
      // 40 due for the slow host first, then one for another host, due a little later.
      for (let i = 0; i < 40; i++) await seedReminder(db, { accountId, at: Date.now() - 1000, destinations: [{ url: `${sink.url}/slow` }] });
      const { id } = await seedReminder(db, { accountId, at: Date.now() - 10, destinations: [{ url: `${fast.url}/fast` }] });
      const started = Date.now();
      await server.app.scheduler.tick();
      await fast.waitFor(1, 5000);
      // The slow host alone would take 40 x 300 ms; the other reminder goes out at the next probe.
      expect(Date.now() - started).toBeLessThan(3000);
      expect(fast.requests[0]!.json.reminder_id).toBe(id);
      expect(sink.requests.length).toBeLessThan(40);
    } finally {
      sink.reply({ status: 200 });
      await server.app.scheduler.drain(30_000);
      server.app.scheduler.setOptions({ maxBuffered: 8000, maxBufferedPerKey: 4000, batchSize: 250, perHostConcurrency: 32 });
      await fast.close();
    }
  });

  it('a destination type without a sender (Discord without settings) fails with a code, without retrying', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    const { id } = await seedReminder(db, { accountId, at: Date.now() - 10, destinations: [{ type: 'discord_dm' }] });
    await server.app.scheduler.runOnce();
    const [d] = await deliveriesOf(id);
    const error = 'This server is not set up to deliver discord_dm destinations';
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error: error, last_error_code: 'DESTINATION_NOT_CONFIGURED' });
    const attempts = await db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', d!.id).execute();
    expect(attempts[0]).toMatchObject({ outcome: 'failed', error, error_code: 'DESTINATION_NOT_CONFIGURED', discord_code: null });
  });

  it('test sends go through the registered senders and answer with a code on failure', async () => {
    const context = { accountId: 'a-test', username: 'alice', timezone: 'UTC', locale: null };
    expect(await server.app.scheduler.testDestination({ type: 'discord_dm', metadata: {}, secret: null }, context)).toEqual({
      ok: false,
      code: 'DESTINATION_NOT_CONFIGURED',
      error: 'This server is not set up to deliver discord_dm destinations',
    });
    sink.reply({ status: 503 });
    const saved = await server.app.scheduler.testDestination({ id: 'dest-1', type: 'webhook', metadata: { url: `${sink.url}/saved`, platform: 'generic' }, secret: null }, { ...context, message: 'Test from Chime: hi' });
    expect(saved).toEqual({ ok: false, http_status: 503, code: 'WEBHOOK_HTTP_5XX', error: 'HTTP 503 from 127.0.0.1' });
    expect(sink.requests.at(-1)!.json).toMatchObject({ type: 'webhook.test', message: 'Test from Chime: hi' });
    sink.reply({ status: 200 });
    expect(await server.app.scheduler.testWebhook({ url: `${sink.url}/unsaved`, platform: 'slack', username: 'Chime' })).toEqual({ ok: true, http_status: 200 });
    expect(sink.requests.at(-1)!.json).toEqual({ text: 'This is a test message from Chime. If you can read it, your webhook works.', username: 'Chime' });
    // Test sends are not deliveries: nothing is written.
    expect(await server.app.db.selectFrom('delivery_attempts').selectAll().where('destination_id', '=', 'dest-1').execute()).toHaveLength(0);
  });

  it('a delivered attempt has no error code; the delivery keeps none', async () => {
    const db = server.app.db;
    const accountId = await seedAccount(db);
    const { id } = await seedReminder(db, { accountId, at: Date.now() - 10, destinations: [{ url: sink.url }] });
    await server.app.scheduler.runOnce();
    const [d] = await deliveriesOf(id);
    expect(d).toMatchObject({ status: 'delivered', last_error: null, last_error_code: null });
    const [attempt] = await db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', d!.id).execute();
    expect(attempt).toMatchObject({ outcome: 'delivered', error: null, error_code: null });
  });
});
