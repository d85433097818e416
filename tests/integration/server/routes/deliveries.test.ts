import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

/**
 * Delivery history, resend, the problems list and re-enabling (README "Delivery history and
 * problems"), through real deliveries from the scheduler to a real HTTP receiver.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: TestServer;
let sink: WebhookSink;
type User = Awaited<ReturnType<typeof signUp>>;
let me: User;
let other: User;

beforeAll(async () => {
  sink = await startWebhookSink();
  server = await startTestServer();
  server.app.scheduler.setOptions({ retryDelaysMs: [30, 30, 30], retryJitter: 0, shutdownTimeoutMs: 200 });
  me = await signUp(server.url);
  other = await signUp(server.url);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});
afterEach(() => {
  sink.requests.length = 0;
  sink.reply({ status: 200 });
});

async function fire(accountId = me.id, destinations: Parameters<typeof seedReminder>[1]['destinations'] = [{ url: sink.url }]) {
  const seeded = await seedReminder(server.app.db, { accountId, at: Date.now() - 5, destinations, message: 'Water the plants' });
  server.app.scheduler.wake();
  return seeded;
}

async function settle(reminderId: string, count = 1, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', reminderId).execute();
    if (rows.length >= count && rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows;
    if (Date.now() > deadline) throw new Error(`deliveries not settled: ${JSON.stringify(rows.map((r) => r.status))}`);
    await sleep(10);
  }
}

/** A finished delivery written straight into the outbox (an older occurrence). */
async function pastDelivery(reminderId: string, destinationId: string, occurrence: string, status: 'delivered' | 'failed') {
  const id = randomUUID();
  await server.app.db
    .insertInto('deliveries')
    .values({
      id,
      reminder_id: reminderId,
      destination_id: destinationId,
      account_id: me.id,
      occurrence_utc: occurrence,
      idempotency_key: `msg_${randomUUID()}`,
      status,
      attempts: 1,
      next_attempt_at: null,
      late: 0,
      last_error: status === 'failed' ? 'HTTP 500 from 127.0.0.1' : null,
      last_error_code: status === 'failed' ? 'WEBHOOK_HTTP_5XX' : null,
      created_at: occurrence,
      updated_at: occurrence,
      delivered_at: status === 'delivered' ? occurrence : null,
    })
    .execute();
  return id;
}

describe('GET /api/reminders/:id/deliveries', () => {
  it('shows each attempt of a delivery that failed, was retried and arrived', async () => {
    sink.reply((_req, i) => (i < 2 ? { status: 500 } : { status: 204 }));
    const { id, destinations } = await fire();
    await settle(id);

    const res = await me.api.get(`/api/reminders/${id}/deliveries`);
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.deliveries).toHaveLength(1);
    const [d] = res.body.deliveries;
    expect(d).toMatchObject({
      destination_id: destinations[0]!.id,
      destination_type: 'webhook',
      status: 'delivered',
      late: false,
      next_attempt_at: null,
    });
    expect(d.destination_label).toContain('127.0.0.1');
    expect(Date.parse(d.delivered_at)).toBeGreaterThan(Date.parse(d.occurrence_utc));
    expect(d.attempts.map((a: any) => [a.attempt, a.outcome, a.http_status, a.code])).toEqual([
      [1, 'error', 500, 'WEBHOOK_HTTP_5XX'],
      [2, 'error', 500, 'WEBHOOK_HTTP_5XX'],
      [3, 'ok', 204, null],
    ]);
    expect(d.attempts[0].error).toBe('HTTP 500 from 127.0.0.1');
    expect(d.attempts.every((a: any) => typeof a.duration_ms === 'number' && !Number.isNaN(Date.parse(a.at)))).toBe(true);
  });

  it('pages newest occurrence first with an opaque cursor', async () => {
    const { id, destinations } = await seedReminder(server.app.db, {
      accountId: me.id,
      at: Date.now() + 86_400_000,
      destinations: [{ url: 'https://a.example.com/x' }, { url: 'https://b.example.com/x' }],
    });
    const occurrences = ['2026-01-01T09:00:00.000Z', '2026-01-02T09:00:00.000Z', '2026-01-03T09:00:00.000Z'];
    for (const occurrence of occurrences) for (const d of destinations) await pastDelivery(id, d.id, occurrence, 'delivered');

    const first = await me.api.get(`/api/reminders/${id}/deliveries?limit=4`);
    expect(first.status).toBe(200);
    expect(first.body.deliveries.map((d: any) => d.occurrence_utc)).toEqual([occurrences[2], occurrences[2], occurrences[1], occurrences[1]]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await me.api.get(`/api/reminders/${id}/deliveries?limit=4&before=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.deliveries.map((d: any) => d.occurrence_utc)).toEqual([occurrences[0], occurrences[0]]);
    expect(second.body.next_cursor).toBeNull();
    const all = [...first.body.deliveries, ...second.body.deliveries].map((d: any) => d.id);
    expect(new Set(all).size).toBe(6);
  });

  it('refuses bad paging input with a code, and hides other accounts’ reminders', async () => {
    const { id } = await seedReminder(server.app.db, { accountId: me.id, at: Date.now() + 86_400_000, destinations: [{ url: 'https://a.example.com/x' }] });
    for (const [query, code] of [
      ['limit=0', 'VALIDATION_FAILED'],
      ['limit=201', 'VALIDATION_FAILED'],
      ['limit=abc', 'VALIDATION_FAILED'],
      ['before=not-a-cursor', 'CURSOR_INVALID'],
      [`before=${Buffer.from('x|y|z').toString('base64url')}`, 'CURSOR_INVALID'],
    ]) {
      const res = await me.api.get(`/api/reminders/${id}/deliveries?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code, error: expect.any(String) });
    }
    const theirs = await other.api.get(`/api/reminders/${id}/deliveries`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('REMINDER_NOT_FOUND');
    expect((await me.api.get(`/api/reminders/${randomUUID()}/deliveries`)).status).toBe(404);
  });
});

describe('POST /api/reminders/:id/deliveries/:deliveryId/resend', () => {
  it('queues a new attempt now, with the same webhook-id', async () => {
    const { id } = await fire();
    const [d] = await settle(id);
    await sink.waitFor(1);

    const res = await me.api.post(`/api/reminders/${id}/deliveries/${d!.id}/resend`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: d!.id, status: 'pending' });
    await sink.waitFor(2);
    expect(sink.requests[1]!.headers['webhook-id']).toBe(sink.requests[0]!.headers['webhook-id']);
    await settle(id);
    const history = await me.api.get(`/api/reminders/${id}/deliveries`);
    expect(history.body.deliveries[0].status).toBe('delivered');
    expect(history.body.deliveries[0].attempts.map((a: any) => [a.attempt, a.outcome])).toEqual([
      [1, 'ok'],
      [2, 'ok'],
    ]);
  });

  it('sent again with its Idempotency-Key (the answer was lost) resends nothing more and takes no budget', async () => {
    const { id } = await fire();
    const [d] = await settle(id);
    await sink.waitFor(1);
    const headers = { 'idempotency-key': `resend-${randomUUID()}` };
    const first = await me.api.post(`/api/reminders/${id}/deliveries/${d!.id}/resend`, {}, headers);
    expect(first.status).toBe(202);
    await sink.waitFor(2);
    await settle(id);
    // The budget of hand-sent messages (rate_windows rows, keyed by a hash of the account).
    const budgetUsed = async () => (await server.app.db.selectFrom('rate_windows').select('count').execute()).reduce((n, r) => n + r.count, 0);
    const used = await budgetUsed();
    const again = await me.api.post(`/api/reminders/${id}/deliveries/${d!.id}/resend`, {}, headers);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toMatchObject({ id: d!.id, status: 'delivered' });
    await sleep(300);
    expect(sink.requests).toHaveLength(2);
    expect(await budgetUsed()).toBe(used);
    // Another account's key, or another delivery under the same key, is another request.
    expect((await other.api.post(`/api/reminders/${id}/deliveries/${d!.id}/resend`, {}, headers)).status).toBe(404);
    const second = await fire();
    const [d2] = await settle(second.id);
    expect((await me.api.post(`/api/reminders/${second.id}/deliveries/${d2!.id}/resend`, {}, headers)).body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // A new press, with a new key, resends again.
    expect((await me.api.post(`/api/reminders/${id}/deliveries/${d!.id}/resend`, {}, { 'idempotency-key': `resend-${randomUUID()}` })).status).toBe(202);
    await sink.waitFor(4);
    expect(await budgetUsed()).toBe(used + 1);
  });

  it('answers 404 for another account’s delivery or one of another reminder, and 409 while it is being sent', async () => {
    const mine = await fire();
    const [d] = await settle(mine.id);
    const theirs = await fire(other.id);
    const [t] = await settle(theirs.id);

    const stolen = await me.api.post(`/api/reminders/${theirs.id}/deliveries/${t!.id}/resend`);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('REMINDER_NOT_FOUND');
    const crossed = await other.api.post(`/api/reminders/${theirs.id}/deliveries/${d!.id}/resend`);
    expect(crossed.status).toBe(404);
    expect(crossed.body.code).toBe('DELIVERY_NOT_FOUND');
    const unknown = await me.api.post(`/api/reminders/${mine.id}/deliveries/${randomUUID()}/resend`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('DELIVERY_NOT_FOUND');

    // Held at the receiver: the delivery is in flight, a second send must wait for its result.
    sink.reply({ status: 200, delayMs: 400 });
    expect((await me.api.post(`/api/reminders/${mine.id}/deliveries/${d!.id}/resend`)).status).toBe(202);
    await sink.waitFor(3);
    const busy = await me.api.post(`/api/reminders/${mine.id}/deliveries/${d!.id}/resend`);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('DELIVERY_IN_PROGRESS');
    await settle(mine.id);
  });
});

describe('GET /api/reminders/errors and dismiss', () => {
  it('lists one row per failed delivery, not per attempt; dismissed rows stay in the history', async () => {
    sink.reply({ status: 503 });
    const { id } = await fire();
    const [d] = await settle(id);
    expect(d!.status).toBe('failed');

    const problems = await me.api.get('/api/reminders/errors');
    expect(problems.status).toBe(200);
    const mine = problems.body.filter((p: any) => p.reminder_id === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: d!.id,
      delivery_id: d!.id,
      reminder_message: 'Water the plants',
      destination_type: 'webhook',
      status: 'failed',
      attempts: 4,
      http_status: 503,
      code: 'WEBHOOK_HTTP_5XX',
      error: 'HTTP 503 from 127.0.0.1',
    });
    expect(JSON.stringify((await other.api.get('/api/reminders/errors')).body)).not.toContain(id);

    const foreign = await other.api.post(`/api/reminders/errors/${d!.id}/dismiss`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('DELIVERY_NOT_FOUND');
    const dismissed = await me.api.post(`/api/reminders/errors/${d!.id}/dismiss`);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toEqual({ ok: true });
    expect((await me.api.get('/api/reminders/errors')).body.some((p: any) => p.delivery_id === d!.id)).toBe(false);
    expect((await me.api.get(`/api/reminders/${id}/deliveries`)).body.deliveries[0]).toMatchObject({ id: d!.id, status: 'failed' });

    // A resend that fails again brings the problem back.
    expect((await me.api.post(`/api/reminders/${id}/deliveries/${d!.id}/resend`)).status).toBe(202);
    await sink.waitFor(5);
    await settle(id);
    expect((await me.api.get('/api/reminders/errors')).body.filter((p: any) => p.delivery_id === d!.id)).toHaveLength(1);
  });

  it('refuses to dismiss a delivery that arrived', async () => {
    const { id } = await fire();
    const [d] = await settle(id);
    const res = await me.api.post(`/api/reminders/errors/${d!.id}/dismiss`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'DELIVERY_NOT_FOUND', error: expect.any(String) });
  });
});

describe('a destination whose last 5 deliveries failed', () => {
  it('is disabled with a reason after the fifth failure in a row, and can be re-enabled', async () => {
    sink.reply({ status: 500 });
    const { id, destinations } = await seedReminder(server.app.db, {
      accountId: me.id,
      at: Date.now() - 5,
      destinations: [{ url: sink.url }],
      message: 'Failing hook',
    });
    const destinationId = destinations[0]!.id;
    for (let day = 1; day <= 4; day++) await pastDelivery(id, destinationId, `2026-01-0${day}T09:00:00.000Z`, 'failed');
    server.app.scheduler.wake();
    const [, , , , latest] = (await settle(id, 5)).sort((a, b) => a.occurrence_utc.localeCompare(b.occurrence_utc));
    expect(latest!.status).toBe('failed');
    // The streak is checked once the results' transaction has committed (failing-destinations.ts).
    await server.app.scheduler.drain();

    const reminder = await me.api.get(`/api/reminders/${id}`);
    expect(reminder.body.destinations[0]).toMatchObject({ disabled_code: 'DESTINATION_FAILING', disabled_reason: 'The last 5 deliveries failed' });

    const blocked = await me.api.post(`/api/reminders/${id}/deliveries/${latest!.id}/resend`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('DESTINATION_DISABLED');

    expect((await other.api.post(`/api/reminders/${id}/destinations/${destinationId}/enable`)).status).toBe(404);
    const wrongDestination = await me.api.post(`/api/reminders/${id}/destinations/${randomUUID()}/enable`);
    expect(wrongDestination.status).toBe(404);
    expect(wrongDestination.body.code).toBe('DESTINATION_NOT_FOUND');
    const enabled = await me.api.post(`/api/reminders/${id}/destinations/${destinationId}/enable`);
    expect(enabled.status).toBe(200);
    expect((await me.api.get(`/api/reminders/${id}`)).body.destinations[0]).toMatchObject({ disabled_code: null, disabled_reason: null });

    sink.reply({ status: 204 });
    expect((await me.api.post(`/api/reminders/${id}/deliveries/${latest!.id}/resend`)).status).toBe(202);
    await sink.waitFor(5);
    await settle(id, 5);
    const history = await me.api.get(`/api/reminders/${id}/deliveries?limit=1`);
    expect(history.body.deliveries[0]).toMatchObject({ id: latest!.id, status: 'delivered' });
  });

  it('stays enabled when one of the last 5 arrived', async () => {
    sink.reply({ status: 500 });
    const { id, destinations } = await seedReminder(server.app.db, { accountId: me.id, at: Date.now() - 5, destinations: [{ url: sink.url }] });
    const destinationId = destinations[0]!.id;
    await pastDelivery(id, destinationId, '2026-01-01T09:00:00.000Z', 'failed');
    await pastDelivery(id, destinationId, '2026-01-02T09:00:00.000Z', 'failed');
    await pastDelivery(id, destinationId, '2026-01-03T09:00:00.000Z', 'delivered');
    await pastDelivery(id, destinationId, '2026-01-04T09:00:00.000Z', 'failed');
    server.app.scheduler.wake();
    const rows = await settle(id, 5);
    expect(rows.filter((r) => r.status === 'failed')).toHaveLength(4);
    await server.app.scheduler.drain(); // the streak was checked
    expect((await me.api.get(`/api/reminders/${id}`)).body.destinations[0].disabled_code).toBeNull();
  });
});

describe('POST /api/destinations/check', () => {
  it('runs the checks of a create on one destination and answers a failure as data', async () => {
    const ok = await me.api.post('/api/destinations/check', { type: 'webhook', metadata: { url: 'https://hooks.example.com/x', platform: 'generic' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });

    const bad = await me.api.post('/api/destinations/check', { type: 'webhook', metadata: { url: 'not a url' } });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ ok: false, code: 'WEBHOOK_URL_INVALID', error: expect.any(String) });
    expect(bad.body.error).not.toContain('destinations[0]');

    const unknown = await me.api.post('/api/destinations/check', { type: 'pigeon', metadata: {} });
    expect(unknown.body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });

    const dm = await me.api.post('/api/destinations/check', { type: 'discord_dm', metadata: {} });
    expect(dm.body).toMatchObject({ ok: false, code: 'DISCORD_IDENTITY_REQUIRED' });
  });

  it('applies the network policy of the server', async () => {
    const strict = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      const user = await signUp(strict.url);
      const res = await user.api.post('/api/destinations/check', { type: 'webhook', metadata: { url: 'http://10.0.0.8/hook' } });
      expect(res.body).toMatchObject({ ok: false, code: 'WEBHOOK_TARGET_FORBIDDEN' });
    } finally {
      await strict.close();
    }
  });

  it('refuses malformed bodies with a 4xx and a code, and needs a session', async () => {
    for (const body of [{}, { type: 'webhook' }, { type: 'webhook', metadata: 'x' }, { type: 5, metadata: {} }]) {
      const res = await me.api.post('/api/destinations/check', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toEqual(expect.any(String));
    }
    const anon = await fetch(`${server.url}/api/destinations/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"webhook","metadata":{}}' });
    expect(anon.status).toBe(401);
  });
});

describe('a create refused because of one destination', () => {
  it('says which destination', async () => {
    const strict = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      const user = await signUp(strict.url);
      const res = await user.api.post('/api/reminders', {
        date: '2030-07-01',
        time: '09:00',
        message: 'two hooks',
        destinations: [
          { type: 'webhook', metadata: { url: 'https://hooks.example.com/ok' } },
          { type: 'webhook', metadata: { url: 'http://192.168.1.9/hook' } },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'WEBHOOK_TARGET_FORBIDDEN', destination: 1 });
    } finally {
      await strict.close();
    }
  });
});
