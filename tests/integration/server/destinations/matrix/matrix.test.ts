/**
 * Matrix destinations (docs/notifications.md "Matrix") against a fake homeserver written from the
 * Client-Server API (tests/helpers/fake-matrix.ts): the check when added (alias resolved, invite
 * accepted, refusals by code), what is sent (plain and HTML, escaped, in the account's language),
 * the transaction id that makes a retry idempotent, 429's retry_after_ms, and final failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMatrix } from '../../../../../server/admin/doctor.ts';
import { ConfigError, loadConfig } from '../../../../../server/config.ts';
import { matrixSenderOf } from '../../../../../server/destinations/matrix/sender.ts';
import { type FakeMatrix, startFakeMatrix } from '../../../../helpers/fake-matrix.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { attemptsOf, dueReminder, settled, tomorrow } from '../push-test-kit.ts';

let server: TestServer;
let matrix: FakeMatrix;
let user: Awaited<ReturnType<typeof signUp>>;
const TOKEN = 'syt_Y2hpbWU_abcdefghijklmnop_0a1b2c';
const BOT = '@chime:chime.test';

beforeAll(async () => {
  matrix = await startFakeMatrix();
  matrix.tokens.set(TOKEN, BOT);
  matrix.addRoom('!family:chime.test', { aliases: ['#family:chime.test'], invite: [BOT] });
  matrix.addRoom('!work:chime.test', { invite: [BOT] });
  matrix.addRoom('!private:chime.test', { aliases: ['#private:chime.test'] });
  matrix.addRoom('!lobby:chime.test', { aliases: ['#lobby:chime.test'], public: true });
  server = await startTestServer({ env: { MATRIX_HOMESERVER_URL: `${matrix.url}/`, MATRIX_ACCESS_TOKEN: TOKEN } });
  server.app.scheduler.setOptions({ retryDelaysMs: [60, 120, 180], retryJitter: 0, shutdownTimeoutMs: 200 });
  user = await signUp(server.url);
  expect((await user.api.put('/api/account/language', { language: 'es' })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await matrix?.close();
});

/** Runs `fn` while the homeserver no longer knows the bot's token (revoked by the administrator). */
async function withTokenRevoked<T>(fn: () => Promise<T>): Promise<T> {
  matrix.tokens.delete(TOKEN);
  try {
    return await fn();
  } finally {
    matrix.tokens.set(TOKEN, BOT);
  }
}

describe('Matrix destination', () => {
  it('is configured in /api/config, without the token', async () => {
    const res = await user.api.get('/api/config');
    expect(res.body.matrix).toEqual({ configured: true, missing: [] });
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
  });

  it('added by alias: the alias is resolved, the invite accepted, the room id stored', async () => {
    const check = await user.api.post('/api/destinations/check', { type: 'matrix', metadata: { room: '#family:chime.test' } });
    expect(check.body).toEqual({ ok: true });
    const directory = matrix.requests.find((r) => r.method === 'GET')!;
    expect(directory.path).toBe('/_matrix/client/v3/directory/room/%23family%3Achime.test');
    const join = matrix.requests.find((r) => r.method === 'POST')!;
    expect(join.path).toBe('/_matrix/client/v3/join/%23family%3Achime.test');
    expect(join.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const room = matrix.rooms.get('!family:chime.test')!;
    expect(room.joined.has(BOT)).toBe(true);
    expect(room.invited.has(BOT)).toBe(false);

    // A client cannot choose the room id: it is the homeserver's answer.
    const created = await user.api.post('/api/reminders', {
      date: tomorrow(),
      time: '09:00',
      message: 'x',
      destinations: [{ type: 'matrix', metadata: { room: ' #family:chime.test ', room_id: '!other:chime.test' } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.destinations[0].metadata).toEqual({ room: '#family:chime.test', room_id: '!family:chime.test' });
    const listed = await user.api.get(`/api/reminders/${created.body.id}`);
    expect(JSON.stringify(listed.body)).not.toContain(TOKEN);
  });

  it('refuses, when added, an unknown alias or room, a room that did not invite the bot, a revoked bot token, and a malformed room', async () => {
    const check = (room: string) => user.api.post('/api/destinations/check', { type: 'matrix', metadata: { room } });
    expect((await check('#nowhere:chime.test')).body).toMatchObject({ ok: false, code: 'MATRIX_NOT_FOUND' });
    // A room id tells nothing before a join, and the bot joins only rooms that invited it: an
    // unknown id is refused as not inviting the bot (which is what to fix either way).
    const unknownId = await check('!nowhere:chime.test');
    expect(unknownId.body).toMatchObject({ ok: false, code: 'MATRIX_FORBIDDEN' });
    expect(unknownId.body.error).toContain('has not invited');
    const notInvited = await check('#private:chime.test');
    expect(notInvited.body).toMatchObject({ ok: false, code: 'MATRIX_FORBIDDEN' });
    expect(notInvited.body.error).toContain('has not invited');
    expect(matrix.rooms.get('!private:chime.test')!.joined.size).toBe(0);
    // A public room would let the bot in, but it did not invite it: the bot does not join.
    expect((await check('#lobby:chime.test')).body).toMatchObject({ ok: false, code: 'MATRIX_FORBIDDEN' });
    expect(matrix.rooms.get('!lobby:chime.test')!.joined.size).toBe(0);
    expect(matrix.requests.some((r) => r.method === 'POST' && r.path.includes('lobby'))).toBe(false);
    const revoked = await withTokenRevoked(() => check('!work:chime.test'));
    expect(revoked.body).toMatchObject({ ok: false, code: 'MATRIX_UNAUTHORIZED' });
    expect(revoked.body.error).toContain('M_UNKNOWN_TOKEN');
    expect(JSON.stringify(revoked.body)).not.toContain(TOKEN);
    for (const bad of ['family', '#family', 'https://matrix.to/#/#family:chime.test', '!has space:chime.test']) {
      expect((await check(bad)).body, bad).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    }
    const create = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message: 'x', destinations: [{ type: 'matrix', metadata: { room: '#private:chime.test' } }] });
    expect(create.status).toBe(400);
    expect(create.body).toMatchObject({ code: 'PUSH_CHECK_FAILED', reason: 'MATRIX_FORBIDDEN' });
  });

  it('sends m.text with a plain body and an escaped HTML body in the account language, under a txnId of the delivery; the history shows it', async () => {
    const r = await dueReminder(server, user, 'matrix', { room: '!work:chime.test' }, 'Call <b>Tom</b> & "Ana"\nat 5');
    const before = matrix.events.length;
    const [event] = (await matrix.waitForEvents(before + 1)).slice(before);
    const d = await settled(server, r.id);
    expect(d.status).toBe('delivered');
    const page = `${server.config.publicUrl.replace(/\/$/, '')}/reminders/${r.id}`;
    expect(event!.roomId).toBe('!work:chime.test');
    expect(event!.type).toBe('m.room.message');
    expect(event!.sender).toBe(BOT);
    expect(event!.txnId).toBe(`chime-${d.idempotency_key}`);
    expect(event!.content).toEqual({
      msgtype: 'm.text',
      body: `⏰ Recordatorio\nCall <b>Tom</b> & "Ana"\nat 5\n\nAbrir en Chime: ${page}`,
      format: 'org.matrix.custom.html',
      formatted_body: `<p><strong>⏰ Recordatorio</strong></p><p>Call &lt;b&gt;Tom&lt;/b&gt; &amp; &quot;Ana&quot;<br>at 5</p><p><a href="${page}">Abrir en Chime</a></p>`,
      'm.mentions': {},
    });
    const send = matrix.requests.filter((q) => q.method === 'PUT').at(-1)!;
    expect(send.path).toBe(`/_matrix/client/v3/rooms/!work%3Achime.test/send/m.room.message/chime-${d.idempotency_key}`);
    expect(send.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const history = await user.api.get(`/api/reminders/${r.id}/deliveries`);
    expect(history.status).toBe(200);
    expect(history.body.deliveries[0]).toMatchObject({ status: 'delivered', destination_type: 'matrix', destination_label: 'Matrix !work:chime.test', attempts: [{ outcome: 'ok', http_status: 200 }] });
  });

  it('a retry after a lost answer reuses the txnId: the homeserver deduplicates it and the room sees one message', async () => {
    const r = await dueReminder(server, user, 'matrix', { room: '!work:chime.test' }, 'Once only');
    matrix.script({ status: 502, storeThenFail: true, body: { errcode: 'M_UNKNOWN', error: 'Bad gateway' } });
    const d = await settled(server, r.id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
    expect((await attemptsOf(server, d.id)).map((a) => a.error_code)).toEqual(['MATRIX_HTTP_5XX', null]);
    const sends = matrix.requests.filter((q) => q.method === 'PUT' && q.path.endsWith(`chime-${d.idempotency_key}`));
    expect(sends).toHaveLength(2);
    expect(matrix.events.filter((e) => e.content.body.includes('Once only'))).toHaveLength(1);
  });

  it("429 M_LIMIT_EXCEEDED is retried after its retry_after_ms", async () => {
    const r = await dueReminder(server, user, 'matrix', { room: '!work:chime.test' }, 'Slow down');
    matrix.script({ status: 429, body: { errcode: 'M_LIMIT_EXCEEDED', error: 'Too Many Requests', retry_after_ms: 1200 } });
    const d = await settled(server, r.id, 15_000);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
    const attempts = await attemptsOf(server, d.id);
    expect(attempts.map((a) => a.error_code)).toEqual(['MATRIX_RATE_LIMITED', null]);
    expect(Date.parse(attempts[1]!.created_at) - Date.parse(attempts[0]!.created_at)).toBeGreaterThanOrEqual(1150);
  });

  it('401 M_UNKNOWN_TOKEN at send time is final (the administrator must fix the token); so is 403 once the bot was kicked', async () => {
    const r = await dueReminder(server, user, 'matrix', { room: '!work:chime.test' });
    const d = await withTokenRevoked(async () => {
      const sends = matrix.requests.filter((q) => q.method === 'PUT').length;
      server.app.scheduler.wake();
      const settledRow = await settled(server, r.id);
      expect(matrix.requests.filter((q) => q.method === 'PUT').length).toBe(sends + 1);
      return settledRow;
    });
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'MATRIX_UNAUTHORIZED' });
    const history = await user.api.get(`/api/reminders/${r.id}/deliveries`);
    expect(history.body.deliveries[0].attempts[0]).toMatchObject({ outcome: 'error', http_status: 401, code: 'MATRIX_UNAUTHORIZED' });
    expect(JSON.stringify(history.body)).not.toContain(TOKEN);

    const kicked = await dueReminder(server, user, 'matrix', { room: '!work:chime.test' });
    matrix.rooms.get('!work:chime.test')!.joined.delete(BOT);
    try {
      expect(await settled(server, kicked.id)).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'MATRIX_FORBIDDEN' });
    } finally {
      matrix.rooms.get('!work:chime.test')!.joined.add(BOT);
    }
  });

  it('test send posts a message without a link', async () => {
    const created = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message: 'Probar', destinations: [{ type: 'matrix', metadata: { room: '#family:chime.test' } }] });
    expect(created.status).toBe(201);
    const before = matrix.events.length;
    const res = await user.api.post(`/api/reminders/${created.body.id}/destinations/${created.body.destinations[0].id}/test`, {});
    expect(res.body).toMatchObject({ ok: true });
    const [event] = (await matrix.waitForEvents(before + 1)).slice(before);
    expect(event!.roomId).toBe('!family:chime.test');
    expect(event!.content.formatted_body).not.toContain('<a ');
  });
});

describe('Matrix for the administrator: doctor, the start check and the SSRF guard', () => {
  it("npm run admin -- doctor checks the bot's token with whoami, and says what to fix", async () => {
    expect(await checkMatrix(server.config)).toMatchObject({ name: 'matrix', status: 'ok', detail: expect.stringContaining(BOT) });
    const revoked = await withTokenRevoked(() => checkMatrix(server.config));
    expect(revoked).toMatchObject({ status: 'fail', detail: expect.stringContaining('MATRIX_UNAUTHORIZED'), fix: expect.stringContaining('MATRIX_ACCESS_TOKEN') });
    expect(JSON.stringify(revoked)).not.toContain(TOKEN);
    expect(await checkMatrix({ ...server.config, matrix: null, matrixMissing: ['MATRIX_HOMESERVER_URL', 'MATRIX_ACCESS_TOKEN'] })).toMatchObject({ status: 'skipped' });
  });

  it('a loopback homeserver is refused at start unless private targets are allowed, and at send time by the guard', async () => {
    const env = { MATRIX_HOMESERVER_URL: matrix.url, MATRIX_ACCESS_TOKEN: TOKEN };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/MATRIX_HOMESERVER_URL is refused by the SSRF guard/);
    expect(() => loadConfig({ MATRIX_HOMESERVER_URL: 'https://matrix.example.org' })).toThrow(/MATRIX_ACCESS_TOKEN is required/);
    expect(loadConfig({}).matrix).toBeNull();
    expect(loadConfig({}).matrixMissing).toEqual(['MATRIX_HOMESERVER_URL', 'MATRIX_ACCESS_TOKEN']);
    try {
      loadConfig(env);
    } catch (err) {
      expect(String(err)).not.toContain(TOKEN);
    }

    // A name resolving to loopback (here `localhost`, from /etc/hosts; a public-looking name could
    // resolve there just as well) is refused again after DNS, at every request.
    const config = { ...server.config, webhookAllowPrivateTargets: false, matrix: { homeserverUrl: matrix.url.replace('127.0.0.1', 'localhost'), accessToken: TOKEN } };
    const sender = matrixSenderOf({ db: server.app.db, config, log: server.app.log })!;
    const requests = matrix.requests.length;
    try {
      const result = await sender.send({
        deliveryId: 'test',
        idempotencyKey: 'k1',
        attempt: 1,
        reminder: { id: 'test', message: 'x', recurrence_type: 'ONCE', timezone: 'UTC', remind_at_utc: new Date().toISOString() },
        account: { id: 'a', timezone: 'UTC', locale: 'en', username: 'u' },
        destination: { id: 'd', type: 'matrix', metadata: { room: '!work:chime.test', room_id: '!work:chime.test' }, secret: null },
        occurrenceUtc: new Date().toISOString(),
        firedAt: new Date().toISOString(),
        late: false,
        test: true,
        signal: AbortSignal.timeout(5000),
      });
      expect(result).toMatchObject({ ok: false, retryable: false, code: 'MATRIX_TARGET_FORBIDDEN' });
    } finally {
      await sender.close?.();
    }
    expect(matrix.requests.length).toBe(requests);
  });
});
