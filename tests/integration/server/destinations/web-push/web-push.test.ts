import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakePushService, type FakePushService } from '../../../../helpers/fake-push-service.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { attemptsOf, dueReminder, settled, tomorrow } from '../push-test-kit.ts';

let server: TestServer;
let push: FakePushService;
let user: Awaited<ReturnType<typeof signUp>>;
let publicKey: string;
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';

beforeAll(async () => {
  push = await startFakePushService();
  server = await startTestServer();
  server.app.scheduler.setOptions({ retryDelaysMs: [60, 120, 180], retryJitter: 0, shutdownTimeoutMs: 200 });
  user = await signUp(server.url, { timezone: 'Europe/Paris' });
  expect((await user.api.put('/api/account/language', { language: 'fr' })).status).toBe(200);
  publicKey = (await user.api.get('/api/config')).body.web_push.public_key;
});
afterAll(async () => {
  await server?.close();
  await push?.close();
});
beforeEach(() => {
  push.requests.length = 0;
  push.messages.length = 0;
});

/** A browser subscribed with the server's key, as the dashboard sends it. */
const browser = () => ({ ...push.subscribe(publicKey), user_agent: FIREFOX_ANDROID });
const reminderRow = (id: string) => server.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const destinationRow = (reminderId: string) => server.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', reminderId).executeTakeFirstOrThrow();
/** A tap on the notification's action, as the service worker POSTs it (to the test server's address). */
const tap = (url: string) => fetch(`${server.url}${new URL(url).pathname}`, { method: 'POST', headers: { accept: 'application/json' } });

describe('VAPID keys', () => {
  it('are made once, stored, and the public key is served to the dashboard', async () => {
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(publicKey, 'base64url')[0]).toBe(4);
    expect((await user.api.get('/api/config')).body.web_push.public_key).toBe(publicKey);
    const row = await server.app.db.selectFrom('server_secrets').selectAll().where('name', '=', 'vapid').executeTakeFirstOrThrow();
    expect(JSON.parse(row.value).publicKey).toBe(publicKey);
    expect(JSON.stringify((await user.api.get('/api/config')).body)).not.toContain(JSON.parse(row.value).privateKey);
  });
});

describe('web_push destination', () => {
  it('sends an encrypted, VAPID-signed notification the browser decrypts: title, text, link and the three actions in the account language', async () => {
    const r = await dueReminder(server, user, 'web_push', browser());
    expect(r.destinations[0]!.metadata).toMatchObject({ browser: 'Firefox', os: 'Android' });
    expect(r.destinations[0]!.metadata).not.toHaveProperty('user_agent');
    const [payload] = await push.waitForMessages(1);
    expect((await settled(server, r.id)).status).toBe('delivered');
    expect(payload).toMatchObject({ title: '⏰ Rappel', body: 'Sortir les poubelles', url: `${server.config.publicUrl.replace(/\/$/, '')}/reminders/${r.id}` });
    expect(payload.actions.map((a: any) => [a.action, a.title])).toEqual([
      ['snooze10', 'Reporter 10 min'],
      ['tomorrow', 'Demain'],
      ['done', 'Terminé'],
    ]);
    for (const a of payload.actions) expect(a.url).toMatch(/^http:\/\/localhost(:\d+)?\/a\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const [request] = push.requests;
    expect(request!.headers).toMatchObject({ ttl: '86400', urgency: 'high', 'content-encoding': 'aes128gcm' });
    expect(request!.claims).toMatchObject({ aud: push.url, sub: server.config.vapidSubject });
    expect(request!.headers.authorization).toContain(`k=${publicKey}`);
  });

  it('round trip: the Snooze action link snoozes the reminder once; a second tap is refused', async () => {
    const r = await dueReminder(server, user, 'web_push', browser(), 'Arroser les plantes');
    const [payload] = await push.waitForMessages(1);
    await settled(server, r.id);
    const t0 = Date.now();
    const first = await tap(payload.actions[0].url);
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(answer).toMatchObject({ ok: true, outcome: 'snoozed' });
    const after = await reminderRow(r.id);
    expect(after.next_fire_utc, JSON.stringify({ answer, after })).not.toBeNull();
    expect(Date.parse(after.next_fire_utc!)).toBeGreaterThanOrEqual(Math.floor((t0 + 600_000) / 1000) * 1000);
    const again = await tap(payload.actions[0].url);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'ACTION_LINK_USED' });
    expect(await reminderRow(r.id)).toEqual(after);
  });

  for (const status of [410, 404]) {
    it(`${status} is PUSH_SUBSCRIPTION_GONE: final, and the destination is disabled`, async () => {
      const r = await dueReminder(server, user, 'web_push', browser());
      push.script({ status, body: 'push subscription has unsubscribed or expired.' });
      const d = await settled(server, r.id);
      expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'PUSH_SUBSCRIPTION_GONE' });
      expect(await destinationRow(r.id)).toMatchObject({ disabled_code: 'PUSH_SUBSCRIPTION_GONE' });
    });
  }

  it('a subscription the browser dropped is answered 410 by the service and disables the destination', async () => {
    const subscription = browser();
    const r = await dueReminder(server, user, 'web_push', subscription);
    push.unsubscribe(subscription.endpoint);
    expect(await settled(server, r.id)).toMatchObject({ status: 'failed', last_error_code: 'PUSH_SUBSCRIPTION_GONE' });
    expect((await destinationRow(r.id)).disabled_at).not.toBeNull();
  });

  it('413 is WEB_PUSH_PAYLOAD_TOO_LARGE, final', async () => {
    const r = await dueReminder(server, user, 'web_push', browser());
    push.script({ status: 413 });
    expect(await settled(server, r.id)).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'WEB_PUSH_PAYLOAD_TOO_LARGE' });
    expect((await destinationRow(r.id)).disabled_at).toBeNull();
  });

  for (const status of [400, 401, 403]) {
    it(`${status} is WEB_PUSH_UNAUTHORIZED (the VAPID signature or key), final`, async () => {
      const r = await dueReminder(server, user, 'web_push', browser());
      push.script({ status, body: 'invalid JWT' });
      const d = await settled(server, r.id);
      expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'WEB_PUSH_UNAUTHORIZED' });
      expect(d.last_error).toContain('invalid JWT');
    });
  }

  it('a subscription made with another server key is refused by the service (403): WEB_PUSH_UNAUTHORIZED', async () => {
    const other = push.subscribe(Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'));
    const r = await dueReminder(server, user, 'web_push', other);
    expect(await settled(server, r.id)).toMatchObject({ status: 'failed', last_error_code: 'WEB_PUSH_UNAUTHORIZED' });
    expect(push.requests.map((q) => q.status)).toEqual([403]);
  });

  it('429 is retried after Retry-After, 5xx with backoff, until delivered', async () => {
    const r = await dueReminder(server, user, 'web_push', browser());
    push.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 503 });
    const d = await settled(server, r.id, 15_000);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3 });
    const attempts = await attemptsOf(server, d.id);
    expect(attempts.map((x) => [x.outcome, x.http_status, x.error_code])).toEqual([
      ['retrying', 429, 'WEB_PUSH_RATE_LIMITED'],
      ['retrying', 503, 'WEB_PUSH_HTTP_5XX'],
      ['delivered', 201, null],
    ]);
    expect(Date.parse(attempts[1]!.created_at) - Date.parse(attempts[0]!.created_at)).toBeGreaterThanOrEqual(950);
    expect(push.messages).toHaveLength(1);
  });

  it('a test send shows the notification without link nor actions', async () => {
    const created = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message: 'x', destinations: [{ type: 'web_push', metadata: browser() }] });
    expect(created.status).toBe(201);
    const test = await user.api.post(`/api/reminders/${created.body.id}/destinations/${created.body.destinations[0].id}/test`, {});
    expect(test.body).toMatchObject({ ok: true });
    const [payload] = await push.waitForMessages(1);
    expect(payload).toEqual({ title: '⏰ Rappel', body: expect.stringContaining('x'), actions: [] });
  });

  it('keeps the browser and system names when the reminder is saved again without the user agent', async () => {
    const created = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message: 'x', destinations: [{ type: 'web_push', metadata: browser() }] });
    const d = created.body.destinations[0];
    const put = await user.api.put(`/api/reminders/${created.body.id}`, { date: tomorrow(), time: '10:00', message: 'x', destinations: [{ id: d.id, type: 'web_push', metadata: d.metadata }] });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.destinations[0].metadata).toEqual(d.metadata);
    expect(put.body.destinations[0].metadata).toMatchObject({ browser: 'Firefox', os: 'Android' });
  });

  it('refuses a subscription that is not one: endpoint, key lengths', async () => {
    const check = (metadata: Record<string, unknown>) => user.api.post('/api/destinations/check', { type: 'web_push', metadata });
    const good = push.subscribe(publicKey);
    expect((await check(good)).body).toEqual({ ok: true });
    expect((await check({ ...good, endpoint: 'ftp://push.example.com/x' })).body).toMatchObject({ ok: false, code: 'PUSH_SERVER_INVALID' });
    expect((await check({ keys: good.keys })).body).toMatchObject({ ok: false, code: 'PUSH_SERVER_INVALID' });
    expect((await check({ ...good, keys: { ...good.keys, auth: Buffer.alloc(8).toString('base64url') } })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect((await check({ ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 1).toString('base64url') } })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect((await check({ ...good, keys: { auth: good.keys.auth } })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect((await check({ ...good, keys: { ...good.keys, auth: 'not base64!' } })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
  });
});

describe('web_push with the SSRF guard on', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it('refuses a loopback or private endpoint, and a push service that is not https', async () => {
    const someone = await signUp(guarded.url);
    const sub = push.subscribe(publicKey);
    const check = (endpoint: string) => someone.api.post('/api/destinations/check', { type: 'web_push', metadata: { ...sub, endpoint } });
    expect((await check(sub.endpoint)).body).toMatchObject({ ok: false, code: 'PUSH_TARGET_FORBIDDEN' });
    expect((await check('https://10.0.0.7/push/x')).body).toMatchObject({ ok: false, code: 'PUSH_TARGET_FORBIDDEN' });
    expect((await check('http://updates.push.services.mozilla.com/wpush/v2/x')).body).toMatchObject({ ok: false, code: 'PUSH_SERVER_INVALID' });
    expect((await check('https://updates.push.services.mozilla.com/wpush/v2/x')).body).toEqual({ ok: true });
  });
});
