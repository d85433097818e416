import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeService, startFakePushover } from '../../../../helpers/fake-push-services.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { attemptsOf, dueReminder, settled, tomorrow } from '../push-test-kit.ts';

let server: TestServer;
let pushover: FakeService;
let user: Awaited<ReturnType<typeof signUp>>;
const APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';

beforeAll(async () => {
  pushover = await startFakePushover(new Set([APP]), new Map([[USER, ['phone', 'tablet']]]));
  // The one way to point Pushover elsewhere: the config's override, as only a test can give it.
  server = await startTestServer({ overrides: { pushoverApiUrl: pushover.url } });
  server.app.scheduler.setOptions({ retryDelaysMs: [60, 120, 180], retryJitter: 0, shutdownTimeoutMs: 200 });
  user = await signUp(server.url);
});
afterAll(async () => {
  await server?.close();
  await pushover?.close();
});

describe('Pushover destination', () => {
  it('POSTs /1/messages.json with token, user, device, priority, title, message, url and url_title', async () => {
    const r = await dueReminder(server, user, 'pushover', { user_key: USER, app_token: APP, device: 'phone', priority: 1 }, 'Take the pills');
    const before = pushover.accepted.length;
    await pushover.waitForAccepted(before + 1);
    expect((await settled(server, r.id)).status).toBe('delivered');
    const sent = pushover.accepted.at(-1)!;
    expect(sent.path).toBe('/1/messages.json');
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(sent.form)).toEqual({
      token: APP,
      user: USER,
      device: 'phone',
      priority: '1',
      title: '⏰ Reminder',
      message: 'Take the pills',
      url: `${server.config.publicUrl.replace(/\/$/, '')}/reminders/${r.id}`,
      url_title: 'Open in Chime',
    });
    expect(r.destinations[0]!.metadata).toEqual({ user_key: USER, device: 'phone', priority: 1, token_hint: '…nyUi' });
  });

  it('is checked with users/validate when added: a wrong token, user or device is refused with its code', async () => {
    const check = (metadata: Record<string, unknown>) => user.api.post('/api/destinations/check', { type: 'pushover', metadata });
    expect((await check({ user_key: USER, app_token: APP })).body).toEqual({ ok: true });
    expect((await check({ user_key: USER, app_token: 'x'.repeat(30) })).body).toMatchObject({ ok: false, code: 'PUSHOVER_UNAUTHORIZED' });
    expect((await check({ user_key: 'y'.repeat(30), app_token: APP })).body).toMatchObject({ ok: false, code: 'PUSHOVER_NOT_FOUND' });
    expect((await check({ user_key: USER, app_token: APP, device: 'watch' })).body).toMatchObject({ ok: false, code: 'PUSHOVER_NOT_FOUND' });
    expect((await check({ user_key: 'short', app_token: APP })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect((await check({ user_key: USER, app_token: APP, priority: 2 })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
  });

  it('a user may not choose where Pushover is: a server field is ignored', async () => {
    const created = await user.api.post('/api/reminders', {
      date: tomorrow(),
      time: '09:00',
      message: 'x',
      destinations: [{ type: 'pushover', metadata: { user_key: USER, app_token: APP, server: 'http://127.0.0.1:1' } }],
    });
    expect(created.status).toBe(201);
    expect(created.body.destinations[0].metadata).not.toHaveProperty('server');
  });

  it('a token revoked since (400 token invalid) is final with PUSHOVER_UNAUTHORIZED; 429 and 5xx are retried', async () => {
    const revoked = await dueReminder(server, user, 'pushover', { user_key: USER, app_token: APP });
    pushover.script({ status: 400, body: { token: 'invalid', errors: ['application token is invalid'], status: 0 } });
    expect(await settled(server, revoked.id)).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'PUSHOVER_UNAUTHORIZED' });

    const busy = await dueReminder(server, user, 'pushover', { user_key: USER, app_token: APP });
    pushover.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 500 });
    const d = await settled(server, busy.id, 15_000);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3 });
    expect((await attemptsOf(server, d.id)).map((a) => a.error_code)).toEqual(['PUSHOVER_RATE_LIMITED', 'PUSHOVER_HTTP_5XX', null]);
  });
});
