import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../server/lib/ids.ts';
import { type ApiResponse, client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';
import { type FakeDiscord, startFakeDiscord } from '../../../helpers/fake-discord/index.ts';

/** Personal access tokens (docs/api.md): contract, scopes on every route, ownership, revocation, expiry, throttle. */

type User = Awaited<ReturnType<typeof signUp>>;
type Api = ReturnType<typeof client>;
type Scope = 'reminders:read' | 'reminders:write';

const TOKEN_PATTERN = /^chime_pat_[A-Za-z0-9_-]{43}$/;
const FAR_DATE = '2031-03-10';
const reminderBody = (message: string) => ({ date: FAR_DATE, time: '09:00', message, recurrence: 'DAILY', timezone: 'UTC', destinations: [] });

async function makeToken(user: User, scopes: Scope[], extra: Record<string, unknown> = {}) {
  const res = await user.api.post('/api/tokens', { name: `t-${randomUUID().slice(0, 8)}`, scopes, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; token: string; name: string; scopes: Scope[]; expires_at: string | null };
}

/**
 * Which routes a token may use. Every registered route is listed, so a new route fails this test
 * until someone decides: a reminder route gets a scope, anything else stays refused (null).
 */
const DECISIONS: Record<string, Scope | null> = {
  'GET /api/reminders': 'reminders:read',
  'GET /api/reminders/preview': 'reminders:read',
  'GET /api/reminders/schedule-from-text': 'reminders:read',
  'GET /api/reminders/:id': 'reminders:read',
  'GET /api/reminders/:id/occurrences': 'reminders:read',
  'GET /api/reminders/:id/deliveries': 'reminders:read',
  'GET /api/reminders/errors': 'reminders:read',
  'GET /api/reminders/export': 'reminders:read',
  'POST /api/reminders': 'reminders:write',
  'PUT /api/reminders/:id': 'reminders:write',
  'DELETE /api/reminders/:id': 'reminders:write',
  'POST /api/reminders/:id/pause': 'reminders:write',
  'POST /api/reminders/:id/resume': 'reminders:write',
  'POST /api/reminders/:id/snooze': 'reminders:write',
  'POST /api/reminders/:id/duplicate': 'reminders:write',
  'POST /api/reminders/:id/skip': 'reminders:write',
  'DELETE /api/reminders/:id/skip/:occurrence': 'reminders:write',
  'POST /api/reminders/:id/deliveries/:deliveryId/resend': 'reminders:write',
  'POST /api/reminders/errors/:deliveryId/dismiss': 'reminders:write',
  'POST /api/reminders/:id/destinations/:destinationId/enable': 'reminders:write',
  'POST /api/reminders/:id/destinations/:destinationId/test': 'reminders:write',
  'POST /api/reminders/:id/destinations/:destinationId/rotate-secret': 'reminders:write',
  'POST /api/destinations/check': 'reminders:write',
  'POST /api/webhooks/test': 'reminders:write',
  'POST /api/reminders/import': 'reminders:write',
  // The account, its sign-in methods, its tokens, its feed, Discord: the dashboard's only.
  'GET /api/account': null,
  'GET /api/account/capabilities': null,
  'PUT /api/account/timezone': null,
  'PUT /api/account/language': null,
  'PUT /api/account/identity/app/username': null,
  'PUT /api/account/identity/app/email': null,
  'POST /api/account/identity/app/change-password': null,
  'DELETE /api/account': null,
  'GET /api/account/calendar-feed': null,
  'POST /api/account/calendar-feed/rotate': null,
  'DELETE /api/account/calendar-feed': null,
  'GET /api/tokens': null,
  'POST /api/tokens': null,
  'DELETE /api/tokens/:id': null,
  'GET /api/sessions': null,
  'DELETE /api/sessions/:id': null,
  'POST /api/sessions/sign-out-others': null,
  'GET /api/account/two-factor': null,
  'POST /api/account/two-factor/setup': null,
  'POST /api/account/two-factor/enable': null,
  'POST /api/account/two-factor/disable': null,
  'GET /api/account/passkeys': null,
  'POST /api/account/passkeys/registration-options': null,
  'POST /api/account/passkeys': null,
  'PUT /api/account/passkeys/:id': null,
  'DELETE /api/account/passkeys/:id': null,
  'POST /api/telegram/link-codes': null,
  'GET /api/telegram/chats': null,
  'DELETE /api/telegram/chats/:id': null,
  'GET /api/email/addresses': null,
  'POST /api/email/addresses/confirmation': null,
  'POST /api/discord/guilds': null,
  'POST /api/discord/guilds/channels': null,
  'POST /api/discord/guilds/roles': null,
  'POST /api/discord/guilds/threads/archived': null,
  'GET /api/discord/invite-url': null,
  // Managing a Discord server stays a signed-in person's act (docs/servers.md).
  'GET /api/servers': null,
  'GET /api/servers/:guildId/reminders': null,
  'POST /api/servers/:guildId/reminders/:id/pause': null,
  'POST /api/servers/:guildId/reminders/:id/resume': null,
  'POST /api/servers/:guildId/reminders/:id/take-over': null,
  'DELETE /api/servers/:guildId/reminders/:id': null,
  'GET /api/servers/:guildId/settings': null,
  'PUT /api/servers/:guildId/settings': null,
  'GET /api/servers/:guildId/audit': null,
  'GET /api/servers/:guildId/my-reminders': null,
  'GET /api/servers/:guildId/rules': null,
  'GET /api/auth/discord/authorize-url': null,
  'POST /api/auth/discord/callback': null,
  'POST /api/auth/discord/setup': null,
  'POST /api/auth/logout': null,
  // Public: no credential is read, so a token changes nothing.
  'GET /healthz': null,
  'GET /metrics': null,
  'GET /api/config': null,
  'POST /api/auth/register': null,
  'POST /api/auth/login': null,
  'POST /api/auth/two-factor': null,
  'POST /api/auth/passkey/options': null,
  'POST /api/auth/passkey': null,
  'POST /api/auth/password-reset': null,
  'POST /api/auth/password-reset/confirm': null,
  'POST /api/email/confirm': null,
  'GET /feeds/:file': null,
  // Telegram's webhook: its secret header is the credential.
  'POST /telegram/webhook': null,
  'GET /a/:token': null,
  'POST /a/:token': null,
  'GET /api/openapi.json': null,
  'GET /api/docs': null,
};
/** The API reference's own files (its reader's page, scripts and copies of the document). */
const isDocsFile = (key: string) => key.startsWith('GET /api/docs/');

describe('personal access tokens', () => {
  let server: TestServer;
  let sink: WebhookSink;
  let alice: User;
  let mallory: User;
  let readToken: { id: string; token: string };
  let writeToken: { id: string; token: string };
  let asRead: Api;
  let asWrite: Api;
  let reminder: { id: string; destinations: Array<{ id: string }> };

  beforeAll(async () => {
    server = await startTestServer();
    sink = await startWebhookSink();
    alice = await signUp(server.url);
    mallory = await signUp(server.url);
    readToken = await makeToken(alice, ['reminders:read']);
    writeToken = await makeToken(alice, ['reminders:read', 'reminders:write']);
    asRead = client(server.url, readToken.token);
    asWrite = client(server.url, writeToken.token);
    const res = await alice.api.post('/api/reminders', {
      ...reminderBody('with a hook'),
      destinations: [{ type: 'webhook', metadata: { url: sink.url, platform: 'generic' } }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    reminder = res.body;
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  describe('the contract of /api/tokens', () => {
    it('creates a token shown once, stored only as its hash, listed without it', async () => {
      const before = Date.now();
      const res = await alice.api.post('/api/tokens', { name: '  Shortcuts  ', scopes: ['reminders:read'], expires_in_days: 30 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Shortcuts',
        scopes: ['reminders:read'],
        token: expect.stringMatching(TOKEN_PATTERN),
        created_at: expect.any(String),
        expires_at: expect.any(String),
        last_used_at: null,
      });
      const expiresIn = Date.parse(res.body.expires_at) - Date.parse(res.body.created_at);
      expect(expiresIn).toBe(30 * 24 * 3600_000);
      expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before - 1000);

      const row = await server.app.db.selectFrom('access_tokens').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(sha256Hex(res.body.token));
      expect(JSON.stringify(row)).not.toContain(res.body.token.slice('chime_pat_'.length));

      const list = await alice.api.get('/api/tokens');
      expect(list.status).toBe(200);
      const listed = list.body.find((t: { id: string }) => t.id === res.body.id);
      expect(listed).toEqual({ id: res.body.id, name: 'Shortcuts', scopes: ['reminders:read'], created_at: res.body.created_at, expires_at: res.body.expires_at, last_used_at: null });
      expect(JSON.stringify(list.body)).not.toContain('chime_pat_');
      expect((await mallory.api.get('/api/tokens')).body).toEqual([]);
    });

    it('two tokens never share a secret; without expires_in_days a token does not expire', async () => {
      const a = await makeToken(mallory, ['reminders:read']);
      const b = await makeToken(mallory, ['reminders:write', 'reminders:read']);
      expect(a.token).not.toBe(b.token);
      expect(a.expires_at).toBeNull();
      expect(b.scopes).toEqual(['reminders:read', 'reminders:write']);
      for (const t of [a, b]) expect((await mallory.api.delete(`/api/tokens/${t.id}`)).status).toBe(200);
    });

    it('refuses bad names, scopes and expiries with a code', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: '   ', scopes: ['reminders:read'] }, 'TOKEN_NAME_REQUIRED'],
        [{ name: 'x'.repeat(101), scopes: ['reminders:read'] }, 'TOKEN_NAME_REQUIRED'],
        [{ name: 'w', scopes: ['reminders:write'] }, 'TOKEN_SCOPES_INVALID'],
        [{ name: 'w', scopes: ['account'] }, 'VALIDATION_FAILED'],
        [{ name: 'w', scopes: [] }, 'VALIDATION_FAILED'],
        [{ name: 'w', scopes: ['reminders:read'], expires_in_days: 0 }, 'VALIDATION_FAILED'],
        [{ name: 'w', scopes: ['reminders:read'], expires_in_days: 366 }, 'VALIDATION_FAILED'],
        [{ name: 'w', scopes: ['reminders:read'], expires_in_days: 1.5 }, 'VALIDATION_FAILED'],
      ];
      for (const [body, code] of cases) {
        const res = await mallory.api.post('/api/tokens', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body, JSON.stringify(body)).toEqual({ error: expect.any(String), code });
      }
      expect((await mallory.api.get('/api/tokens')).body).toEqual([]);
    });

    it('holds at most 20 tokens per account: the 21st is 409 TOKEN_LIMIT', async () => {
      const user = await signUp(server.url);
      for (let i = 0; i < 20; i++) await makeToken(user, ['reminders:read']);
      const refused = await user.api.post('/api/tokens', { name: 'one too many', scopes: ['reminders:read'] });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: expect.any(String), code: 'TOKEN_LIMIT' });
      const list = (await user.api.get('/api/tokens')).body as Array<{ id: string }>;
      expect(list).toHaveLength(20);
      await user.api.delete(`/api/tokens/${list[0]!.id}`);
      expect((await user.api.post('/api/tokens', { name: 'room again', scopes: ['reminders:read'] })).status).toBe(201);
    });

    it("revoking another account's token is 404 TOKEN_NOT_FOUND and it keeps working", async () => {
      const res = await mallory.api.delete(`/api/tokens/${readToken.id}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('TOKEN_NOT_FOUND');
      expect((await asRead.get('/api/reminders')).status).toBe(200);
    });
  });

  it('every registered route has a decision about tokens, and the decision is the one listed here', () => {
    const registered = new Set(server.app.registeredRoutes().map((r) => `${r.method} ${r.url}`));
    const decided = new Map(server.app.routeTokenAccess().map((r) => [`${r.method} ${r.url}`, r.tokenScope]));
    expect([...registered].filter((key) => !decided.has(key))).toEqual([]);
    const actual: Record<string, Scope | null> = {};
    for (const [key, scope] of decided) if (!key.startsWith('HEAD ') && !isDocsFile(key)) actual[key] = scope;
    expect(actual).toEqual(DECISIONS);
    expect([...decided].filter(([key, scope]) => isDocsFile(key) && scope !== null)).toEqual([]);
    // A GET's automatic HEAD asks for the same scope.
    for (const [key, scope] of decided) if (key.startsWith('HEAD ')) expect(scope, key).toBe(decided.get(key.replace(/^HEAD/, 'GET')) ?? null);
  });

  describe('through every reminder route', () => {
    let occurrence: string;
    let victim: string;
    let exported: string;
    beforeAll(async () => {
      exported = JSON.stringify((await alice.api.get('/api/reminders/export?format=json')).body);
      occurrence = (await alice.api.get(`/api/reminders/${reminder.id}/occurrences?count=2`)).body.occurrences[1];
      victim = (await alice.api.post('/api/reminders', reminderBody('to delete'))).body.id;
    });

    /** One request per scoped route, with what the write token answers. */
    const calls = (): Record<string, { call: (api: Api) => Promise<ApiResponse>; expect: number }> => {
      const r = reminder.id;
      const d = reminder.destinations[0]!.id;
      return {
        'GET /api/reminders': { call: (api) => api.get('/api/reminders'), expect: 200 },
        'GET /api/reminders/preview': { call: (api) => api.get(`/api/reminders/preview?date=${FAR_DATE}&time=09:00&recurrence=DAILY`), expect: 200 },
        'GET /api/reminders/schedule-from-text': { call: (api) => api.get('/api/reminders/schedule-from-text?text=tomorrow%20at%209'), expect: 200 },
        'GET /api/reminders/:id': { call: (api) => api.get(`/api/reminders/${r}`), expect: 200 },
        'GET /api/reminders/:id/occurrences': { call: (api) => api.get(`/api/reminders/${r}/occurrences?count=3`), expect: 200 },
        'GET /api/reminders/:id/deliveries': { call: (api) => api.get(`/api/reminders/${r}/deliveries`), expect: 200 },
        'GET /api/reminders/errors': { call: (api) => api.get('/api/reminders/errors'), expect: 200 },
        'GET /api/reminders/export': { call: (api) => api.get('/api/reminders/export?format=json'), expect: 200 },
        'POST /api/reminders': { call: (api) => api.post('/api/reminders', reminderBody('by token')), expect: 201 },
        'PUT /api/reminders/:id': {
          call: (api) => api.put(`/api/reminders/${r}`, { ...reminderBody('edited by token'), destinations: [{ id: d, type: 'webhook', metadata: { url: sink.url, platform: 'generic' } }] }),
          expect: 200,
        },
        'DELETE /api/reminders/:id': { call: (api) => api.delete(`/api/reminders/${victim}`), expect: 200 },
        'POST /api/reminders/:id/pause': { call: (api) => api.post(`/api/reminders/${r}/pause`), expect: 200 },
        'POST /api/reminders/:id/resume': { call: (api) => api.post(`/api/reminders/${r}/resume`), expect: 200 },
        'POST /api/reminders/:id/snooze': { call: (api) => api.post(`/api/reminders/${r}/snooze`, { minutes: 10 }), expect: 200 },
        'POST /api/reminders/:id/duplicate': { call: (api) => api.post(`/api/reminders/${r}/duplicate`), expect: 201 },
        'POST /api/reminders/:id/skip': { call: (api) => api.post(`/api/reminders/${r}/skip`, { occurrence }), expect: 200 },
        'DELETE /api/reminders/:id/skip/:occurrence': { call: (api) => api.delete(`/api/reminders/${r}/skip/${encodeURIComponent(occurrence)}`), expect: 200 },
        // Nothing was delivered yet: reaching the service is what counts here.
        'POST /api/reminders/:id/deliveries/:deliveryId/resend': { call: (api) => api.post(`/api/reminders/${r}/deliveries/${randomUUID()}/resend`), expect: 404 },
        'POST /api/reminders/errors/:deliveryId/dismiss': { call: (api) => api.post(`/api/reminders/errors/${randomUUID()}/dismiss`), expect: 404 },
        'POST /api/reminders/:id/destinations/:destinationId/enable': { call: (api) => api.post(`/api/reminders/${r}/destinations/${d}/enable`), expect: 200 },
        'POST /api/reminders/:id/destinations/:destinationId/test': { call: (api) => api.post(`/api/reminders/${r}/destinations/${d}/test`), expect: 200 },
        'POST /api/reminders/:id/destinations/:destinationId/rotate-secret': { call: (api) => api.post(`/api/reminders/${r}/destinations/${d}/rotate-secret`), expect: 200 },
        'POST /api/destinations/check': { call: (api) => api.post('/api/destinations/check', { type: 'webhook', metadata: { url: sink.url, platform: 'generic' } }), expect: 200 },
        'POST /api/webhooks/test': { call: (api) => api.post('/api/webhooks/test', { url: sink.url, platform: 'generic' }), expect: 200 },
        'POST /api/reminders/import': { call: (api) => api.post('/api/reminders/import', { format: 'json', content: exported, dry_run: true }), expect: 200 },
      };
    };

    it('covers every route a token may use', () => {
      const scoped = Object.entries(DECISIONS).filter(([, scope]) => scope !== null).map(([key]) => key);
      expect(Object.keys(calls()).sort()).toEqual(scoped.sort());
    });

    it('a read token reads, and every write is 403 TOKEN_SCOPE with nothing changed', async () => {
      const before = (await alice.api.get('/api/reminders')).body;
      for (const [key, { call, expect: status }] of Object.entries(calls())) {
        const res = await call(asRead);
        if (DECISIONS[key] === 'reminders:read') {
          expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(status);
        } else {
          expect(res.status, key).toBe(403);
          expect(res.body, key).toEqual({ error: expect.any(String), code: 'TOKEN_SCOPE' });
        }
      }
      expect((await alice.api.get('/api/reminders')).body).toEqual(before);
    });

    it('a write token reaches every route, its answers the same as a session gets', async () => {
      const sentBefore = sink.requests.length;
      for (const [key, { call, expect: status }] of Object.entries(calls())) {
        const res = await call(asWrite);
        expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(status);
      }
      // The two test sends went out.
      await sink.waitFor(sentBefore + 2);
      const list = (await alice.api.get('/api/reminders')).body as Array<{ id: string; message: string }>;
      expect(list.map((r) => r.message)).toContain('by token');
      expect(list.map((r) => r.id)).not.toContain(victim);
      expect(list.find((r) => r.id === reminder.id)!.message).toBe('edited by token');
    });

    it("another account's reminder is 404 REMINDER_NOT_FOUND through a token, and nothing changes", async () => {
      const own = await mallory.api.post('/api/reminders', reminderBody("Mallory's"));
      const before = (await mallory.api.get(`/api/reminders/${own.body.id}`)).body;
      for (const res of [
        await asWrite.get(`/api/reminders/${own.body.id}`),
        await asWrite.put(`/api/reminders/${own.body.id}`, reminderBody('taken')),
        await asWrite.post(`/api/reminders/${own.body.id}/pause`),
        await asWrite.delete(`/api/reminders/${own.body.id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('REMINDER_NOT_FOUND');
      }
      expect((await mallory.api.get(`/api/reminders/${own.body.id}`)).body).toEqual(before);
      expect((await asWrite.get('/api/reminders')).body.map((r: { id: string }) => r.id)).not.toContain(own.body.id);
    });
  });

  it('no token reaches account, password, token or feed routes: 403 TOKEN_NOT_ALLOWED', async () => {
    const attempts: Array<[string, (api: Api) => Promise<ApiResponse>]> = [
      ['GET /api/account', (api) => api.get('/api/account')],
      ['PUT /api/account/timezone', (api) => api.put('/api/account/timezone', { timezone: 'Asia/Tokyo' })],
      ['PUT /api/account/identity/app/email', (api) => api.put('/api/account/identity/app/email', { email: 'thief@example.com' })],
      ['POST change-password', (api) => api.post('/api/account/identity/app/change-password', { current_password: alice.password, new_password: 'stolen stolen stolen' })],
      ['DELETE /api/account', (api) => api.delete('/api/account')],
      ['GET /api/tokens', (api) => api.get('/api/tokens')],
      ['POST /api/tokens', (api) => api.post('/api/tokens', { name: 'more', scopes: ['reminders:read', 'reminders:write'] })],
      ['DELETE /api/tokens/:id', (api) => api.delete(`/api/tokens/${readToken.id}`)],
      ['GET /api/account/calendar-feed', (api) => api.get('/api/account/calendar-feed')],
      ['POST /api/auth/logout', (api) => api.post('/api/auth/logout')],
    ];
    const tokensBefore = (await alice.api.get('/api/tokens')).body;
    for (const api of [asRead, asWrite]) {
      for (const [what, call] of attempts) {
        const res = await call(api);
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.body, what).toEqual({ error: expect.any(String), code: 'TOKEN_NOT_ALLOWED' });
      }
    }
    const account = (await alice.api.get('/api/account')).body;
    expect(account.timezone).toBe('UTC');
    expect(account.email).toBe(alice.email);
    expect((await alice.api.get('/api/tokens')).body).toEqual(tokensBefore);
    expect((await client(server.url).post('/api/auth/login', { email: alice.email, password: alice.password, remember_me: false })).status).toBe(200);
  });

  it('CSRF rules do not apply to a token; a cookie from another site is still refused', async () => {
    const foreign = { origin: 'https://evil.example.com' };
    const viaToken = await asWrite.post('/api/reminders', reminderBody('cross-site script'), foreign);
    expect(viaToken.status).toBe(201);
    const viaCookie = await client(server.url).post('/api/reminders', reminderBody('forged'), { ...foreign, cookie: `chime_session=${alice.token}` });
    expect(viaCookie.status).toBe(403);
    expect(viaCookie.body.code).toBe('CSRF_REJECTED');
  });

  it('session bearer tokens keep working as before', async () => {
    expect(alice.token).not.toMatch(/^chime_pat_/);
    expect((await alice.api.get('/api/account')).status).toBe(200);
  });

  it('an unknown token is 401 NOT_AUTHENTICATED', async () => {
    const res = await client(server.url, `chime_pat_${'A'.repeat(43)}`).get('/api/reminders');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('NOT_AUTHENTICATED');
  });

  it('revoking a token refuses its next request at once', async () => {
    const t = await makeToken(alice, ['reminders:read']);
    const api = client(server.url, t.token);
    expect((await api.get('/api/reminders')).status).toBe(200);
    expect((await alice.api.delete(`/api/tokens/${t.id}`)).status).toBe(200);
    const res = await api.get('/api/reminders');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('NOT_AUTHENTICATED');
    expect((await alice.api.get('/api/tokens')).body.map((x: { id: string }) => x.id)).not.toContain(t.id);
  });

  it('an expired token is refused and still listed, with its expiry', async () => {
    const t = await makeToken(alice, ['reminders:read'], { expires_in_days: 1 });
    const api = client(server.url, t.token);
    expect((await api.get('/api/reminders')).status).toBe(200);
    const past = new Date(Date.now() - 1000).toISOString();
    await server.app.db.updateTable('access_tokens').set({ expires_at: past }).where('id', '=', t.id).execute();
    const res = await api.get('/api/reminders');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('NOT_AUTHENTICATED');
    expect((await alice.api.get('/api/tokens')).body.find((x: { id: string }) => x.id === t.id).expires_at).toBe(past);
  });

  it('notes the last use, writing it at most once a minute', async () => {
    const t = await makeToken(alice, ['reminders:read']);
    const api = client(server.url, t.token);
    const lastUsed = async () => (await alice.api.get('/api/tokens')).body.find((x: { id: string }) => x.id === t.id).last_used_at as string | null;
    expect(await lastUsed()).toBeNull();
    await api.get('/api/reminders');
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await api.get('/api/reminders');
    expect(await lastUsed()).toBe(first);
    const older = new Date(Date.now() - 61_000).toISOString();
    await server.app.db.updateTable('access_tokens').set({ last_used_at: older }).where('id', '=', t.id).execute();
    await api.get('/api/reminders');
    const after = await lastUsed();
    expect(Date.parse(after!)).toBeGreaterThan(Date.parse(older) + 60_000);
  });

  it('a password change signs every token out, like every other session', async () => {
    const user = await signUp(server.url);
    const t = await makeToken(user, ['reminders:read']);
    const res = await user.api.post('/api/account/identity/app/change-password', { current_password: user.password, new_password: 'a brand new password' });
    expect(res.status).toBe(200);
    expect((await client(server.url, t.token).get('/api/reminders')).status).toBe(401);
    expect((await user.api.get('/api/tokens')).body).toEqual([]);
  });

  it('a token dies with its account', async () => {
    const user = await signUp(server.url);
    const t = await makeToken(user, ['reminders:read', 'reminders:write']);
    expect((await user.api.delete('/api/account')).status).toBe(200);
    expect((await client(server.url, t.token).get('/api/reminders')).status).toBe(401);
    expect(await server.app.db.selectFrom('access_tokens').select('id').where('account_id', '=', user.id).execute()).toEqual([]);
  });
});

describe('personal access token throttle', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ overrides: { tokenThrottle: { limit: 5, windowMs: 60_000 } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 429 with Retry-After past the limit, per token', async () => {
    const user = await signUp(server.url);
    const busy = client(server.url, (await makeToken(user, ['reminders:read'])).token);
    const calm = client(server.url, (await makeToken(user, ['reminders:read'])).token);
    for (let i = 0; i < 5; i++) expect((await busy.get('/api/reminders')).status).toBe(200);
    const refused = await busy.get('/api/reminders');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await calm.get('/api/reminders')).status).toBe(200);
    // The session of the same account is not throttled with the token.
    expect((await user.api.get('/api/reminders')).status).toBe(200);
  });
});

describe('personal access tokens and Discord', () => {
  let fake: FakeDiscord;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeDiscord();
    server = await startTestServer({
      env: { DISCORD_TOKEN: fake.botToken, DISCORD_CLIENT_ID: fake.clientId, DISCORD_CLIENT_SECRET: fake.clientSecret, DISCORD_API_URL: fake.apiUrl },
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('no token reaches the Discord routes, linking included: 403 TOKEN_NOT_ALLOWED', async () => {
    const user = await signUp(server.url);
    const api = client(server.url, (await makeToken(user, ['reminders:read', 'reminders:write'])).token);
    for (const res of [
      await api.post('/api/discord/guilds'),
      await api.post('/api/discord/guilds/channels', { guild_id: '100000000000000001' }),
      await api.get('/api/discord/invite-url?guild_id=100000000000000001'),
      await api.get('/api/auth/discord/authorize-url?mode=link'),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.code).toBe('TOKEN_NOT_ALLOWED');
    }
    // The same account's session is let through (the link starts).
    expect((await user.api.get('/api/auth/discord/authorize-url?mode=link')).status).toBe(200);
  });
});
