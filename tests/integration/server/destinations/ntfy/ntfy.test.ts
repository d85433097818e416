import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeNtfy, type FakeNtfy } from '../../../../helpers/fake-ntfy.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';

let server: TestServer;
let ntfy: FakeNtfy;
let user: Awaited<ReturnType<typeof signUp>>;
const TOKEN = 'tk_0123456789abcdefghijklmnopqr';

beforeAll(async () => {
  ntfy = await startFakeNtfy();
  ntfy.tokens.set(TOKEN, new Set(['chime-private']));
  ntfy.protectedTopics.add('chime-private');
  server = await startTestServer();
  server.app.scheduler.setOptions({ retryDelaysMs: [60, 120, 180], retryJitter: 0, shutdownTimeoutMs: 200 });
  user = await signUp(server.url, { timezone: 'Europe/Paris' });
  expect((await user.api.put('/api/account/language', { language: 'fr' })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await ntfy?.close();
});
beforeEach(() => {
  ntfy.requests.length = 0;
  ntfy.messages.length = 0;
});

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** A one-off reminder to ntfy made through the API, then made due now. */
async function dueReminder(metadata: Record<string, unknown>, message = 'Sortir les poubelles') {
  const created = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message, destinations: [{ type: 'ntfy', metadata }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const now = new Date(Date.now() - 5).toISOString();
  await server.app.db.updateTable('reminders').set({ next_fire_utc: now, next_occurrence_utc: now }).where('id', '=', created.body.id).execute();
  server.app.scheduler.wake();
  return created.body as { id: string; destinations: Array<{ id: string; metadata: Record<string, unknown> }> };
}

async function settled(reminderId: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', reminderId).execute();
    if (rows.length > 0 && rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows[0]!;
    if (Date.now() > deadline) throw new Error(`delivery not settled: ${JSON.stringify(rows.map((r) => r.status))}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const reminderRow = (id: string) => server.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('ntfy destination', () => {
  it('publishes title, message, click link and Snooze / Tomorrow / Done http actions as JSON, with the token as Bearer', async () => {
    const r = await dueReminder({ server: ntfy.url, topic: 'chime-private', access_token: TOKEN, priority: 4, tags: 'alarm_clock, chime' });
    const [message] = await ntfy.waitForMessages(1);
    expect((await settled(r.id)).status).toBe('delivered');
    const publish = ntfy.requests.find((q) => q.method === 'POST')!;
    expect(publish.path).toBe('/');
    expect(publish.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(publish.headers['content-type']).toBe('application/json');
    expect(publish.json).toMatchObject({
      topic: 'chime-private',
      title: '⏰ Rappel',
      message: 'Sortir les poubelles',
      priority: 4,
      tags: ['alarm_clock', 'chime'],
      click: `${server.config.publicUrl.replace(/\/$/, '')}/reminders/${r.id}`,
    });
    expect(publish.json.actions.map((a: any) => [a.action, a.label, a.method, a.clear])).toEqual([
      ['http', 'Reporter 10 min', 'POST', true],
      ['http', 'Demain', 'POST', true],
      ['http', 'Terminé', 'POST', true],
    ]);
    for (const a of publish.json.actions) expect(a.url).toMatch(/^http:\/\/localhost(:\d+)?\/a\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(message.topic).toBe('chime-private');
  });

  it('round trip: tapping Snooze moves the reminder; a second tap is refused; a token turned to another reminder is refused', async () => {
    const a = await dueReminder({ server: ntfy.url, topic: 'chime-a' }, 'A');
    const [first] = await ntfy.waitForMessages(1);
    await settled(a.id);
    const b = await dueReminder({ server: ntfy.url, topic: 'chime-b' }, 'B');
    await ntfy.waitForMessages(2);
    await settled(b.id);
    const bBefore = await reminderRow(b.id);

    const t0 = Date.now();
    const tapped = await ntfy.tap(first, 'Reporter 10 min', server.url);
    expect(tapped.status).toBe(200);
    const after = await reminderRow(a.id);
    expect(Date.parse(after.next_fire_utc!)).toBeGreaterThanOrEqual(Math.floor((t0 + 600_000) / 1000) * 1000);
    expect(after.snoozed_at_utc).toBe(after.next_fire_utc);

    const again = await ntfy.tap(first, 'Reporter 10 min', server.url);
    expect(again.status).toBe(409);
    expect(await reminderRow(a.id)).toEqual(after);

    // A's Done link with B's id written into it: the signature no longer holds.
    const done = new URL(first.actions.find((x: any) => x.label === 'Terminé').url).pathname.slice(3);
    const [payload, mac] = done.split('.');
    const bytes = Buffer.from(payload!, 'base64url');
    Buffer.from(b.id.replaceAll('-', ''), 'hex').copy(bytes, 17);
    const forged = await fetch(`${server.url}/a/${bytes.toString('base64url')}.${mac}`, { method: 'POST' });
    expect(forged.status).toBe(404);
    expect(await reminderRow(b.id)).toEqual(bBefore);
  });

  it('401 (unknown token) is a final failure with NTFY_UNAUTHORIZED', async () => {
    const r = await dueReminder({ server: ntfy.url, topic: 'chime-c' });
    ntfy.script({ status: 401, body: { code: 40101, http: 401, error: 'unauthorized' } });
    const d = await settled(r.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'NTFY_UNAUTHORIZED' });
    expect(d.last_error).toContain('unauthorized');
  });

  it('403 (may not write the topic) is a final failure with NTFY_FORBIDDEN', async () => {
    // Made public, saved, then protected: the publish is refused as ntfy refuses it.
    const r = await dueReminder({ server: ntfy.url, topic: 'chime-later-protected' });
    ntfy.protectedTopics.add('chime-later-protected');
    const d = await settled(r.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'NTFY_FORBIDDEN' });
    const attempts = await server.app.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', d.id).execute();
    expect(attempts.map((x) => [x.outcome, x.http_status])).toEqual([['failed', 403]]);
  });

  it('404 is a final failure with NTFY_NOT_FOUND', async () => {
    const r = await dueReminder({ server: ntfy.url, topic: 'chime-d' });
    ntfy.script({ status: 404 });
    expect(await settled(r.id)).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'NTFY_NOT_FOUND' });
  });

  it('429 is retried after Retry-After, 5xx with backoff, until delivered', async () => {
    const r = await dueReminder({ server: ntfy.url, topic: 'chime-e' });
    ntfy.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 502 });
    const d = await settled(r.id, 15_000);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3 });
    const attempts = await server.app.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', d.id).orderBy('attempt').execute();
    expect(attempts.map((x) => [x.outcome, x.http_status, x.error_code])).toEqual([
      ['retrying', 429, 'NTFY_RATE_LIMITED'],
      ['retrying', 502, 'NTFY_HTTP_5XX'],
      ['delivered', 200, null],
    ]);
    const publishes = ntfy.requests.filter((q) => q.method === 'POST');
    expect(Date.parse(attempts[1]!.created_at) - Date.parse(attempts[0]!.created_at)).toBeGreaterThanOrEqual(950);
    expect(publishes).toHaveLength(3);
  });

  it('refuses a wrong token when the destination is added, with the reason, and checks a good one', async () => {
    const bad = await user.api.post('/api/destinations/check', { type: 'ntfy', metadata: { server: ntfy.url, topic: 'chime-private', access_token: 'tk_wrong' } });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ ok: false, code: 'NTFY_UNAUTHORIZED' });
    expect(bad.body.error).toContain('unauthorized');
    const good = await user.api.post('/api/destinations/check', { type: 'ntfy', metadata: { server: ntfy.url, topic: 'chime-private', access_token: TOKEN } });
    expect(good.body).toEqual({ ok: true });
    const create = await user.api.post('/api/reminders', {
      date: tomorrow(),
      time: '09:00',
      message: 'x',
      destinations: [{ type: 'ntfy', metadata: { server: ntfy.url, topic: 'chime-private', access_token: 'tk_wrong' } }],
    });
    expect(create.status).toBe(400);
    expect(create.body).toMatchObject({ code: 'PUSH_CHECK_FAILED', reason: 'NTFY_UNAUTHORIZED' });
  });

  it('never answers the token: only its last four characters, kept when the destination is sent back', async () => {
    const created = await user.api.post('/api/reminders', {
      date: tomorrow(),
      time: '09:00',
      message: 'secret',
      destinations: [{ type: 'ntfy', metadata: { server: ntfy.url, topic: 'chime-private', access_token: TOKEN } }],
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(TOKEN);
    expect(created.body.destinations[0].metadata).toEqual({ server: ntfy.url, topic: 'chime-private', token_hint: '…opqr' });
    expect(created.body.destinations[0].secret).toBeUndefined();
    const listed = await user.api.get('/api/reminders');
    expect(JSON.stringify(listed.body)).not.toContain(TOKEN);
    // Sent back as the dashboard has it (no token): the stored token stays and is still checked.
    const put = await user.api.put(`/api/reminders/${created.body.id}`, {
      date: tomorrow(),
      time: '10:00',
      message: 'secret',
      destinations: [{ id: created.body.destinations[0].id, type: 'ntfy', metadata: created.body.destinations[0].metadata }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const row = await server.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(row.secret).toBe(TOKEN);
    expect(JSON.parse(row.metadata)).not.toHaveProperty('access_token');
    // The test send uses it too, and carries no action buttons.
    const test = await user.api.post(`/api/reminders/${created.body.id}/destinations/${row.id}/test`, {});
    expect(test.body).toMatchObject({ ok: true });
    const sent = ntfy.requests.filter((q) => q.method === 'POST').at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent.json.actions).toBeUndefined();
  });

  it('validates the topic, priority and server address', async () => {
    const check = (metadata: Record<string, unknown>) => user.api.post('/api/destinations/check', { type: 'ntfy', metadata });
    expect((await check({ server: ntfy.url, topic: 'has space' })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect((await check({ server: ntfy.url, topic: 'ok', priority: 9 })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect((await check({ server: 'ftp://example.com', topic: 'ok' })).body).toMatchObject({ ok: false, code: 'PUSH_SERVER_INVALID' });
  });
});

describe('ntfy with the SSRF guard on', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it('refuses a self-hosted server on a private address', async () => {
    const someone = await signUp(guarded.url);
    const res = await someone.api.post('/api/destinations/check', { type: 'ntfy', metadata: { server: ntfy.url, topic: 'chime' } });
    expect(res.body).toMatchObject({ ok: false, code: 'PUSH_TARGET_FORBIDDEN' });
    const internal = await someone.api.post('/api/destinations/check', { type: 'ntfy', metadata: { server: 'http://ntfy.internal', topic: 'chime' } });
    expect(internal.body).toMatchObject({ ok: false, code: 'PUSH_TARGET_FORBIDDEN' });
  });
});
