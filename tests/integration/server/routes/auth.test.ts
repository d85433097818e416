import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { DEFAULT_LOGIN_THROTTLE } from '../../../../server/accounts/login-throttle.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let n = 0;
const uniqueEmail = (tag = 'auth') => `${tag}-${++n}-${Date.now()}@example.com`;

function cookieOf(res: { headers: Headers }): string {
  return res.headers.get('set-cookie') ?? '';
}

describe('auth API', () => {
  let server: TestServer;
  let anon: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await startTestServer();
    anon = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('POST /api/auth/register', () => {
    it('creates an account and answers 201 with the documented shape', async () => {
      const email = uniqueEmail();
      const res = await anon.post('/api/auth/register', { email, username: 'Alice', password: 'longenough1', timezone: 'Europe/Paris' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['created_at', 'email', 'id', 'timezone', 'username']);
      expect(res.body).toMatchObject({ email, username: 'Alice', timezone: 'Europe/Paris' });
      expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Math.abs(Date.parse(res.body.created_at) - Date.now())).toBeLessThan(60_000);
    });

    it('defaults the timezone to UTC when none is given', async () => {
      const res = await anon.post('/api/auth/register', { email: uniqueEmail(), username: 'NoZone', password: 'longenough1' });
      expect(res.status).toBe(201);
      expect(res.body.timezone).toBe('UTC');
    });

    it('stores the password as an argon2id hash, never in clear', async () => {
      const email = uniqueEmail();
      const password = 'Sup3r-secret-pass!';
      const res = await anon.post('/api/auth/register', { email, username: 'Hashy', password, timezone: 'UTC' });
      expect(res.status).toBe(201);
      const identity = await server.app.db.selectFrom('identities').selectAll().where('account_id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(identity.provider).toBe('app');
      expect(identity.external_id).toBe(email.toLowerCase());
      expect(identity.password_hash).toMatch(/^\$argon2id\$/);
      expect(identity.password_hash).not.toContain(password);
      // Nowhere else in the account's rows either.
      const account = await server.app.db.selectFrom('accounts').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(account)).not.toContain(password);
    });

    it('refuses a duplicate email, case-insensitively, with 409 EMAIL_TAKEN', async () => {
      const email = uniqueEmail('Dup');
      expect((await anon.post('/api/auth/register', { email, username: 'One', password: 'longenough1', timezone: 'UTC' })).status).toBe(201);
      for (const variant of [email, email.toUpperCase(), `  ${email.toLowerCase()}  `]) {
        const res = await anon.post('/api/auth/register', { email: variant, username: 'Two', password: 'longenough2', timezone: 'UTC' });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: expect.any(String), code: 'EMAIL_TAKEN' });
      }
      const rows = await server.app.db.selectFrom('accounts').select('id').where('email_normalized', '=', email.toLowerCase()).execute();
      expect(rows).toHaveLength(1);
    });

    it('refuses a password shorter than 8 characters', async () => {
      const res = await anon.post('/api/auth/register', { email: uniqueEmail(), username: 'Shorty', password: '1234567', timezone: 'UTC' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Password must be at least 8 characters', code: 'PASSWORD_TOO_SHORT' });
      // Exactly 8 is enough.
      const ok = await anon.post('/api/auth/register', { email: uniqueEmail(), username: 'Eight', password: '12345678', timezone: 'UTC' });
      expect(ok.status).toBe(201);
    });

    it('refuses an empty password with PASSWORD_REQUIRED', async () => {
      const res = await anon.post('/api/auth/register', { email: uniqueEmail(), username: 'Empty', password: '', timezone: 'UTC' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Password is required', code: 'PASSWORD_REQUIRED' });
    });

    it.each(['not-an-email', 'a@b', '@example.com', 'two@@example.com', 'spa ce@example.com'])('refuses the malformed email %j', async (email) => {
      const res = await anon.post('/api/auth/register', { email, username: 'Bad', password: 'longenough1', timezone: 'UTC' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Please enter a valid email address', code: 'EMAIL_INVALID' });
    });

    it('refuses a blank email with "Email is required"', async () => {
      const res = await anon.post('/api/auth/register', { email: '   ', username: 'Bad', password: 'longenough1', timezone: 'UTC' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Email is required', code: 'EMAIL_INVALID' });
    });

    it('refuses a blank username', async () => {
      const res = await anon.post('/api/auth/register', { email: uniqueEmail(), username: '   ', password: 'longenough1', timezone: 'UTC' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Username is required', code: 'USERNAME_REQUIRED' });
    });

    it.each(['Mars/Olympus_Mons', 'GMT+25', '+05:00', 'Europe/'])('refuses the invalid timezone %j', async (timezone) => {
      const res = await anon.post('/api/auth/register', { email: uniqueEmail(), username: 'Zone', password: 'longenough1', timezone });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_TIMEZONE');
      expect(res.body.error).toEqual(expect.any(String));
    });

    it('refuses missing fields and wrong types with VALIDATION_FAILED', async () => {
      for (const body of [
        { username: 'x', password: 'longenough1' },
        { email: uniqueEmail(), password: 'longenough1' },
        { email: uniqueEmail(), username: 'x' },
        { email: 42, username: 'x', password: 'longenough1' },
        { email: uniqueEmail(), username: ['x'], password: 'longenough1' },
        { email: uniqueEmail(), username: 'x', password: 12345678 },
      ]) {
        const res = await anon.post('/api/auth/register', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(res.body.error).toEqual(expect.any(String));
      }
    });

    it('drops unknown fields instead of storing them', async () => {
      const forcedId = '00000000-0000-0000-0000-000000000000';
      const res = await anon.post('/api/auth/register', {
        email: uniqueEmail(),
        username: 'Extra',
        password: 'longenough1',
        timezone: 'UTC',
        id: forcedId,
        is_admin: true,
        created_at: '2000-01-01T00:00:00.000Z',
      });
      expect(res.status).toBe(201);
      expect(res.body.id).not.toBe(forcedId);
      expect(res.body).not.toHaveProperty('is_admin');
      expect(res.body.created_at).not.toBe('2000-01-01T00:00:00.000Z');
    });
  });

  describe('POST /api/auth/login', () => {
    it('answers token, expires_at, id, email, username and stores only the token hash', async () => {
      const email = uniqueEmail();
      const reg = await anon.post('/api/auth/register', { email, username: 'Login', password: 'longenough1', timezone: 'UTC' });
      const res = await anon.post('/api/auth/login', { email, password: 'longenough1', remember_me: false });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['email', 'expires_at', 'id', 'language', 'token', 'username']);
      // Neither the sign-up nor the sign-in named a language.
      expect(res.body).toMatchObject({ id: reg.body.id, email, username: 'Login', language: null });
      expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43,}$/);

      const sessions = await server.app.db.selectFrom('sessions').selectAll().where('account_id', '=', reg.body.id).execute();
      expect(sessions).toHaveLength(1);
      expect(sessions[0]!.token_hash).toBe(sha256(res.body.token));
      const dump = JSON.stringify(sessions);
      expect(dump).not.toContain(res.body.token);
    });

    it("answers the account's language, so a new browser can take it on", async () => {
      const email = uniqueEmail('Lang');
      await anon.post('/api/auth/register', { email, username: 'Lang', password: 'longenough1', timezone: 'UTC' }, { 'accept-language': 'es-MX,es;q=0.9' });
      // Signed in from a French browser: the account keeps the language it was made with.
      const res = await anon.post('/api/auth/login', { email, password: 'longenough1' }, { 'accept-language': 'fr-FR' });
      expect(res.body.language).toBe('es');
      const other = uniqueEmail('NoLang');
      await anon.post('/api/auth/register', { email: other, username: 'NoLang', password: 'longenough1', timezone: 'UTC' });
      // An account without one takes the first sign-in's, and says so.
      const first = await anon.post('/api/auth/login', { email: other, password: 'longenough1' }, { 'accept-language': 'fr-FR' });
      expect(first.body.language).toBe('fr');
    });

    it('logs in with the email in another case and with surrounding spaces', async () => {
      const email = uniqueEmail('Case');
      await anon.post('/api/auth/register', { email, username: 'Case', password: 'longenough1', timezone: 'UTC' });
      const res = await anon.post('/api/auth/login', { email: `  ${email.toUpperCase()} `, password: 'longenough1' });
      expect(res.status).toBe(200);
    });

    it('gives a 24-hour session by default and a 30-day one with remember_me', async () => {
      const email = uniqueEmail();
      await anon.post('/api/auth/register', { email, username: 'Ttl', password: 'longenough1', timezone: 'UTC' });

      const short = await anon.post('/api/auth/login', { email, password: 'longenough1', remember_me: false });
      expect(short.status).toBe(200);
      expect(Math.abs(Date.parse(short.body.expires_at) - (Date.now() + DAY))).toBeLessThan(60_000);

      const omitted = await anon.post('/api/auth/login', { email, password: 'longenough1' });
      expect(Math.abs(Date.parse(omitted.body.expires_at) - (Date.now() + DAY))).toBeLessThan(60_000);

      const long = await anon.post('/api/auth/login', { email, password: 'longenough1', remember_me: true });
      expect(long.status).toBe(200);
      expect(Math.abs(Date.parse(long.body.expires_at) - (Date.now() + 30 * DAY))).toBeLessThan(60_000);

      const row = await server.app.db.selectFrom('sessions').select('expires_at').where('token_hash', '=', sha256(long.body.token)).executeTakeFirstOrThrow();
      expect(row.expires_at).toBe(long.body.expires_at);
    });

    it('sets the chime_session cookie HttpOnly, SameSite=Lax, Path=/', async () => {
      const email = uniqueEmail();
      await anon.post('/api/auth/register', { email, username: 'Cookie', password: 'longenough1', timezone: 'UTC' });
      const res = await anon.post('/api/auth/login', { email, password: 'longenough1', remember_me: true });
      const cookie = cookieOf(res);
      expect(cookie).toContain(`chime_session=${res.body.token}`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//i);
      // Served over http: a Secure cookie would never come back.
      expect(cookie).not.toMatch(/;\s*Secure/i);
      const expires = /Expires=([^;]+)/i.exec(cookie)?.[1];
      expect(expires).toBeDefined();
      expect(Math.abs(Date.parse(expires!) - Date.parse(res.body.expires_at))).toBeLessThan(2000);
    });

    it('answers the same status and body for a wrong email and a wrong password', async () => {
      const email = uniqueEmail();
      await anon.post('/api/auth/register', { email, username: 'Same', password: 'longenough1', timezone: 'UTC' });
      const wrongPassword = await anon.post('/api/auth/login', { email, password: 'not-the-password' });
      const wrongEmail = await anon.post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'longenough1' });
      expect(wrongPassword.status).toBe(401);
      expect(wrongEmail.status).toBe(wrongPassword.status);
      expect(wrongEmail.body).toEqual(wrongPassword.body);
      expect(wrongPassword.body).toEqual({ error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
      expect(cookieOf(wrongPassword)).toBe('');
    });

    it('refuses missing or empty credentials with a 400', async () => {
      for (const body of [{}, { email: 'a@example.com' }, { password: 'x' }, { email: '', password: 'longenough1' }, { email: 'a@example.com', password: '' }]) {
        const res = await anon.post('/api/auth/login', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      const wrongType = await anon.post('/api/auth/login', { email: 'a@example.com', password: 'longenough1', remember_me: 'yes' });
      expect(wrongType.status).toBe(400);
    });

    it('holds an account on the network that failed 5 times, even with the right password, with a clear 429', async () => {
      const email = uniqueEmail('throttle');
      await anon.post('/api/auth/register', { email, username: 'Throttled', password: 'longenough1', timezone: 'UTC' });
      for (let i = 0; i < 5; i += 1) {
        const res = await anon.post('/api/auth/login', { email, password: `wrong-${i}-password` });
        expect(res.status).toBe(401);
      }
      const blocked = await anon.post('/api/auth/login', { email, password: 'longenough1' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('RATE_LIMITED');
      expect(blocked.body.error).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ (minute|second)s?\.$/);
      expect(blocked.body).toEqual({ error: expect.any(String), code: 'RATE_LIMITED', retry_after_seconds: Number(blocked.headers.get('retry-after')) });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(cookieOf(blocked)).toBe('');
      // The email in another case is the same account.
      const upper = await anon.post('/api/auth/login', { email: email.toUpperCase(), password: 'longenough1' });
      expect(upper.status).toBe(429);
      // Other accounts are not affected.
      const other = await signUp(server.url);
      expect(other.token).toBeTruthy();
    });

    it('a successful login resets the per-account failure count', async () => {
      const email = uniqueEmail('reset');
      await anon.post('/api/auth/register', { email, username: 'Reset', password: 'longenough1', timezone: 'UTC' });
      for (let i = 0; i < 4; i += 1) expect((await anon.post('/api/auth/login', { email, password: 'wrong-password' })).status).toBe(401);
      expect((await anon.post('/api/auth/login', { email, password: 'longenough1' })).status).toBe(200);
      for (let i = 0; i < 4; i += 1) expect((await anon.post('/api/auth/login', { email, password: 'wrong-password' })).status).toBe(401);
      expect((await anon.post('/api/auth/login', { email, password: 'longenough1' })).status).toBe(200);
    });
  });

  describe('sessions', () => {
    it('logout revokes the session server-side and clears the cookie', async () => {
      const user = await signUp(server.url);
      expect((await user.api.get('/api/account')).status).toBe(200);
      const out = await user.api.post('/api/auth/logout');
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ ok: true });
      expect(cookieOf(out)).toMatch(/chime_session=;/);
      expect(cookieOf(out)).toMatch(/Expires=Thu, 01 Jan 1970/i);
      const after = await user.api.get('/api/account');
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('NOT_AUTHENTICATED');
      const rows = await server.app.db.selectFrom('sessions').select('id').where('token_hash', '=', sha256(user.token)).execute();
      expect(rows).toHaveLength(0);
    });

    it('logout with no body, no session or an unknown token still answers ok', async () => {
      const raw = await fetch(`${server.url}/api/auth/logout`, { method: 'POST' });
      expect(raw.status).toBe(200);
      expect(await raw.json()).toEqual({ ok: true });
      const unknown = await client(server.url, 'x'.repeat(43)).post('/api/auth/logout');
      expect(unknown.status).toBe(200);
    });

    it('logging out one session leaves the other sessions of the account alive', async () => {
      const user = await signUp(server.url);
      const second = await anon.post('/api/auth/login', { email: user.email, password: user.password });
      const api2 = client(server.url, second.body.token);
      expect((await user.api.post('/api/auth/logout')).status).toBe(200);
      expect((await api2.get('/api/account')).status).toBe(200);
    });

    it('an expired session is refused with 401 NOT_AUTHENTICATED', async () => {
      const user = await signUp(server.url);
      expect((await user.api.get('/api/account')).status).toBe(200);
      await server.app.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', sha256(user.token))
        .execute();
      for (const res of [await user.api.get('/api/account'), await user.api.get('/api/reminders'), await user.api.put('/api/account/timezone', { timezone: 'UTC' })]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: expect.any(String), code: 'NOT_AUTHENTICATED' });
      }
      const viaCookie = await client(server.url).get('/api/account', { cookie: `chime_session=${user.token}` });
      expect(viaCookie.status).toBe(401);
    });

    it('refuses a made-up, truncated or malformed bearer token', async () => {
      const user = await signUp(server.url);
      for (const header of [
        `Bearer ${user.token.slice(0, -1)}`,
        `Bearer ${user.token}x`,
        `Bearer ${'A'.repeat(43)}`,
        `Basic ${user.token}`,
        'Bearer',
        `Bearer ${'x'.repeat(600)}`,
      ]) {
        const res = await client(server.url).get('/api/account', { authorization: header });
        expect(res.status, header).toBe(401);
        expect(res.body.code).toBe('NOT_AUTHENTICATED');
      }
    });
  });

  describe('cookie authentication and CSRF', () => {
    let user: Awaited<ReturnType<typeof signUp>>;
    let cookie: string;
    beforeAll(async () => {
      user = await signUp(server.url);
      cookie = `chime_session=${user.token}`;
    });

    it('the cookie alone authenticates a GET', async () => {
      const res = await client(server.url).get('/api/account', { cookie });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(user.id);
    });

    it('a cookie-only unsafe request without Origin or Referer is refused with 403 CSRF_REJECTED', async () => {
      const res = await client(server.url).put('/api/account/timezone', { timezone: 'Asia/Tokyo' }, { cookie });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), code: 'CSRF_REJECTED' });
      const create = await client(server.url).post('/api/reminders', { date: '2030-01-01', time: '10:00', message: 'x' }, { cookie });
      expect(create.status).toBe(403);
      const account = await user.api.get('/api/account');
      expect(account.body.timezone).toBe('UTC');
      expect((await user.api.get('/api/reminders')).body).toEqual([]);
    });

    it('a cookie-only unsafe request from a foreign Origin or Referer is refused', async () => {
      const foreign: Array<Record<string, string>> = [
        { origin: 'https://evil.example.com' },
        { origin: 'null' },
        { origin: `${server.url}.evil.example.com` },
        { referer: 'https://evil.example.com/page' },
      ];
      for (const headers of foreign) {
        const res = await client(server.url).put('/api/account/timezone', { timezone: 'Asia/Tokyo' }, { cookie, ...headers });
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(res.body.code).toBe('CSRF_REJECTED');
      }
      expect((await user.api.get('/api/account')).body.timezone).toBe('UTC');
    });

    it('a cookie-only unsafe request with this server as Origin or Referer is accepted', async () => {
      const viaOrigin = await client(server.url).put('/api/account/timezone', { timezone: 'Asia/Tokyo' }, { cookie, origin: server.url });
      expect(viaOrigin.status).toBe(200);
      expect(viaOrigin.body.timezone).toBe('Asia/Tokyo');
      const viaReferer = await client(server.url).put('/api/account/timezone', { timezone: 'UTC' }, { cookie, referer: `${server.url}/account` });
      expect(viaReferer.status).toBe(200);
      expect(viaReferer.body.timezone).toBe('UTC');
    });

    it('bearer authentication ignores Origin', async () => {
      const res = await user.api.put('/api/account/timezone', { timezone: 'Europe/Berlin' }, { origin: 'https://evil.example.com' });
      expect(res.status).toBe(200);
      expect(res.body.timezone).toBe('Europe/Berlin');
    });

    it('logout through the cookie alone from this origin revokes the session', async () => {
      const other = await signUp(server.url);
      const out = await client(server.url).post('/api/auth/logout', undefined, { cookie: `chime_session=${other.token}`, origin: server.url });
      expect(out.status).toBe(200);
      expect((await other.api.get('/api/account')).status).toBe(401);
    });

    it('logout through the cookie alone from a foreign Origin, or with no Origin, is refused and the session stays alive', async () => {
      const other = await signUp(server.url);
      const otherCookie = `chime_session=${other.token}`;
      for (const headers of [{ origin: 'https://evil.example.com' }, { referer: 'https://evil.example.com/page' }, { origin: 'null' }, {}] as Array<Record<string, string>>) {
        const out = await client(server.url).post('/api/auth/logout', undefined, { cookie: otherCookie, ...headers });
        expect(out.status, JSON.stringify(headers)).toBe(403);
        expect(out.body).toEqual({ error: expect.any(String), code: 'CSRF_REJECTED' });
        // The cookie is not cleared either: a cross-site page cannot sign the user out.
        expect(cookieOf(out)).toBe('');
        expect((await other.api.get('/api/account')).status).toBe(200);
      }
      // The same request with a bearer token is not a CSRF vector and still works.
      expect((await other.api.post('/api/auth/logout', undefined, { origin: 'https://evil.example.com' })).status).toBe(200);
      expect((await other.api.get('/api/account')).status).toBe(401);
    });
  });
});

// The throttle's networks come from X-Forwarded-For here (TRUST_PROXY=true), one per client.
const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('login throttling: attackers are slowed, the owner is never locked out', () => {
  let server: TestServer;
  let anon: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    anon = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a stranger hammering the owner\'s email does not stop the owner from signing in elsewhere', async () => {
    const owner = await signUp(server.url);
    const answers = new Map<number, number>();
    for (let i = 0; i < 30; i += 1) {
      const res = await anon.post('/api/auth/login', { email: owner.email, password: `guess-${i}-password` }, from('203.0.113.66'));
      answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
    }
    // The stranger's guesses were checked at first, then held.
    expect(answers.get(401)).toBeGreaterThanOrEqual(4);
    expect(answers.get(429)).toBeGreaterThanOrEqual(20);
    // Even the right password is refused from the stranger's network...
    const stranger = await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from('203.0.113.66'));
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    // ...and from the stranger's other addresses in the same IPv6 /64.
    await anon.post('/api/auth/login', { email: owner.email, password: 'v6-guess-password' }, from('2001:db8:66:1::1'));
    await anon.post('/api/auth/login', { email: owner.email, password: 'v6-guess-password' }, from('2001:db8:66:1::1'));
    expect((await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from('2001:db8:66:1::beef'))).status).toBe(429);
    // The owner, from any network with no failures for this account, gets in at once, again and again.
    for (const ip of ['198.51.100.20', '198.51.100.21', '2001:db8:77:1::1']) {
      const res = await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from(ip));
      expect(res.status, ip).toBe(200);
      expect(res.body.token).toEqual(expect.any(String));
    }
  });

  it('parallel guesses from one network do not slip past the counters', async () => {
    const owner = await signUp(server.url);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => anon.post('/api/auth/login', { email: owner.email, password: `parallel-${i}-password` }, from('203.0.113.90'))),
    );
    const checked = results.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.status === 429).length).toBe(12 - checked);
    expect((await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from('198.51.100.90'))).status).toBe(200);
  });
});

describe('login throttling: progressive delays across networks, not a lock', () => {
  let server: TestServer;
  let anon: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: 'true' },
      overrides: { loginThrottle: { ...DEFAULT_LOGIN_THROTTLE, accountFreeFailures: 1, accountBaseDelayMs: 1000, accountMaxDelayMs: 4000 } },
    });
    anon = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('each failure from anywhere lengthens the hold on the failing networks, up to a ceiling, and the hold ends', async () => {
    const owner = await signUp(server.url);
    const wrong = (ip: string) => anon.post('/api/auth/login', { email: owner.email, password: 'wrong-password' }, from(ip));
    expect((await wrong('192.0.2.1')).status).toBe(401);
    const waits: number[] = [];
    for (const ip of ['192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5']) {
      // A network that has not failed yet is checked...
      expect((await wrong(ip)).status).toBe(401);
      // ...and the first network is held for longer each time.
      const held = await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from('192.0.2.1'));
      expect(held.status).toBe(429);
      expect(held.body.code).toBe('RATE_LIMITED');
      expect(held.body.error).toMatch(/^Too many failed sign-in attempts\. Try again in \d seconds?\.$/);
      waits.push(Number(held.headers.get('retry-after')));
    }
    expect(waits).toEqual([1, 2, 4, 4]);
    // The owner elsewhere is not held at all.
    expect((await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from('198.51.100.1'))).status).toBe(200);
    // Not a lock: once the delay is over, the right password works from the held network too.
    await new Promise((resolve) => setTimeout(resolve, 4100));
    expect((await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from('192.0.2.1'))).status).toBe(200);
  });
});

describe('per-network login throttling (a shared NAT)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' }, overrides: { loginThrottle: { ...DEFAULT_LOGIN_THROTTLE, networkFreeFailures: 4, networkBaseDelayMs: 60_000 } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a network over its budget is slowed for every account, except the browsers known for theirs', async () => {
    const anon = client(server.url);
    const nat = from('100.64.7.7');
    const colleague = await signUp(server.url);
    // The colleague signed in once from their own browser behind the NAT: it is known for their account.
    const first = await anon.post('/api/auth/login', { email: colleague.email, password: colleague.password }, nat);
    expect(first.status).toBe(200);
    const device = /chime_device=([^;]+)/.exec(first.headers.getSetCookie().join('\n'))![1]!;
    for (let i = 0; i < 5; i += 1) {
      const res = await anon.post('/api/auth/login', { email: `stranger${i}@example.com`, password: 'whatever-password' }, nat);
      expect(res.status).toBe(401);
    }
    // Over the budget: every account is slowed from here, even with the right password...
    const blocked = await anon.post('/api/auth/login', { email: colleague.email, password: colleague.password }, nat);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(blocked.body.error).toMatch(/Too many failed sign-in attempts/);
    expect(blocked.body.retry_after_seconds).toBe(60);
    expect(blocked.headers.get('retry-after')).toBe('60');
    // ...except from the colleague's own browser.
    const known = await anon.post('/api/auth/login', { email: colleague.email, password: colleague.password }, { ...nat, cookie: `chime_device=${device}` });
    expect(known.status).toBe(200);
    // Elsewhere, everyone signs in.
    expect((await anon.post('/api/auth/login', { email: colleague.email, password: colleague.password }, from('198.51.100.5'))).status).toBe(200);
    expect((await colleague.api.get('/api/account')).status).toBe(200);
  });
});
