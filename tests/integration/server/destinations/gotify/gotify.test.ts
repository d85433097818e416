import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeService, startFakeGotify } from '../../../../helpers/fake-push-services.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { attemptsOf, dueReminder, settled, tomorrow } from '../push-test-kit.ts';

let server: TestServer;
let gotify: FakeService;
let user: Awaited<ReturnType<typeof signUp>>;
const TOKEN = 'AbCdEf.GhIjKlM';

beforeAll(async () => {
  gotify = await startFakeGotify(new Set([TOKEN]));
  server = await startTestServer();
  server.app.scheduler.setOptions({ retryDelaysMs: [60, 120, 180], retryJitter: 0, shutdownTimeoutMs: 200 });
  user = await signUp(server.url);
  expect((await user.api.put('/api/account/language', { language: 'es' })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await gotify?.close();
});

describe('Gotify destination', () => {
  it('POSTs /message with X-Gotify-Key, title, text, priority and the click link in extras', async () => {
    const r = await dueReminder(server, user, 'gotify', { server: `${gotify.url}/`, app_token: TOKEN, priority: 8 });
    const before = gotify.accepted.length;
    await gotify.waitForAccepted(before + 1);
    expect((await settled(server, r.id)).status).toBe('delivered');
    const sent = gotify.accepted.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/message');
    expect(sent.headers['x-gotify-key']).toBe(TOKEN);
    expect(sent.json).toEqual({
      title: '⏰ Recordatorio',
      message: 'Sortir les poubelles',
      priority: 8,
      extras: {
        'client::display': { contentType: 'text/plain' },
        'client::notification': { click: { url: `${server.config.publicUrl.replace(/\/$/, '')}/reminders/${r.id}` } },
      },
    });
    expect(r.destinations[0]!.metadata).toEqual({ server: gotify.url, priority: 8, token_hint: '…jKlM' });
  });

  it('refuses a wrong application token when added, without notifying anyone', async () => {
    const before = gotify.accepted.length;
    const bad = await user.api.post('/api/destinations/check', { type: 'gotify', metadata: { server: gotify.url, app_token: 'wrong' } });
    expect(bad.body).toMatchObject({ ok: false, code: 'GOTIFY_UNAUTHORIZED' });
    const good = await user.api.post('/api/destinations/check', { type: 'gotify', metadata: { server: gotify.url, app_token: TOKEN } });
    expect(good.body).toEqual({ ok: true });
    expect(gotify.accepted.length).toBe(before);
    const missing = await user.api.post('/api/destinations/check', { type: 'gotify', metadata: { server: gotify.url } });
    expect(missing.body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    const create = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message: 'x', destinations: [{ type: 'gotify', metadata: { server: gotify.url, app_token: 'wrong' } }] });
    expect(create.status).toBe(400);
    expect(create.body).toMatchObject({ code: 'PUSH_CHECK_FAILED', reason: 'GOTIFY_UNAUTHORIZED' });
    expect(JSON.stringify(create.body)).not.toContain('wrong');
  });

  it('401 at send time (token deleted in Gotify) is final; 403 and 404 too', async () => {
    for (const [status, code] of [[401, 'GOTIFY_UNAUTHORIZED'], [403, 'GOTIFY_FORBIDDEN'], [404, 'GOTIFY_NOT_FOUND']] as const) {
      const r = await dueReminder(server, user, 'gotify', { server: gotify.url, app_token: TOKEN });
      gotify.script({ status });
      expect(await settled(server, r.id)).toMatchObject({ status: 'failed', attempts: 1, last_error_code: code });
    }
  });

  it('retries 429 after Retry-After and 5xx, until delivered', async () => {
    const r = await dueReminder(server, user, 'gotify', { server: gotify.url, app_token: TOKEN });
    gotify.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 503 });
    const d = await settled(server, r.id, 15_000);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3 });
    const attempts = await attemptsOf(server, d.id);
    expect(attempts.map((a) => a.error_code)).toEqual(['GOTIFY_RATE_LIMITED', 'GOTIFY_HTTP_5XX', null]);
    expect(Date.parse(attempts[1]!.created_at) - Date.parse(attempts[0]!.created_at)).toBeGreaterThanOrEqual(950);
  });
});
