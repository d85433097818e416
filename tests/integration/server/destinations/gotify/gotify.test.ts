import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeService, startFakeGotify } from '../../../../helpers/fake-push-services.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { attemptsOf, dueReminder, settled, tomorrow } from '../push-test-kit.ts';

let server: TestServer;
let gotify: FakeService;
let user: Awaited<ReturnType<typeof signUp>>;
const TOKEN = 'AbCdEf.GhIjKlM';
const appTokens = new Set([TOKEN]);

beforeAll(async () => {
  gotify = await startFakeGotify(appTokens);
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

  it('checks an edited destination sent without its token with the stored one (the dashboard\'s edit), and only for its owner', async () => {
    const kept = 'Kept.Token.0042';
    appTokens.add(kept);
    const created = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message: 'x', destinations: [{ type: 'gotify', metadata: { server: gotify.url, app_token: kept } }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const saved = created.body.destinations[0];
    expect(saved.metadata).toEqual({ server: gotify.url, token_hint: '…0042' });
    // What the edit form sends: the shown metadata changed, no token, the reminder and the id.
    const edited = { type: 'gotify', metadata: { ...saved.metadata, priority: 7 }, reminder_id: created.body.id, id: saved.id };
    const checkedWith = () => gotify.requests.filter((r) => r.path === '/message').at(-1)?.headers['x-gotify-key'];
    expect((await user.api.post('/api/destinations/check', edited)).body).toEqual({ ok: true });
    expect(checkedWith()).toBe(kept);
    // The same metadata without the saved destination has no token to check.
    expect((await user.api.post('/api/destinations/check', { type: 'gotify', metadata: edited.metadata })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    // A token revoked in Gotify since the save is what the check finds.
    appTokens.delete(kept);
    expect((await user.api.post('/api/destinations/check', edited)).body).toMatchObject({ ok: false, code: 'GOTIFY_UNAUTHORIZED' });
    // A new token given in the edit is the one checked.
    expect((await user.api.post('/api/destinations/check', { ...edited, metadata: { ...edited.metadata, app_token: TOKEN } })).body).toEqual({ ok: true });
    expect(checkedWith()).toBe(TOKEN);

    // Someone else's reminder, an id that is not its destination's, or one of the two alone.
    const other = await signUp(server.url);
    const theirs = await other.api.post('/api/destinations/check', edited);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('REMINDER_NOT_FOUND');
    const wrongId = await user.api.post('/api/destinations/check', { ...edited, id: 'not-a-destination' });
    expect(wrongId.status).toBe(404);
    expect(wrongId.body.code).toBe('DESTINATION_NOT_FOUND');
    const wrongType = await user.api.post('/api/destinations/check', { ...edited, type: 'ntfy', metadata: { topic: 'x' } });
    expect(wrongType.status).toBe(404);
    const alone = await user.api.post('/api/destinations/check', { type: 'gotify', metadata: edited.metadata, id: saved.id });
    expect(alone.status).toBe(400);
    expect(alone.body.code).toBe('VALIDATION_FAILED');
  });
});
