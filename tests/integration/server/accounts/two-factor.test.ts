/**
 * Two-factor codes (docs/security.md): the rules with a controllable clock (service level, real
 * database), then the whole flow over HTTP: enable with a QR secret and a first code, sign-in
 * asking for a code after the password, recovery codes, throttling, disable, the admin command,
 * and the routes' guards (session, personal access tokens, CSRF).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { DatabaseHandle } from '../../../../server/db/connection.ts';
import { accountsCommand } from '../../../../server/admin/accounts.ts';
import { DatabaseAttemptThrottle, DEFAULT_LOGIN_THROTTLE } from '../../../../server/accounts/login-throttle.ts';
import { checkSecondFactor, disableTwoFactor, enableTwoFactor, startTwoFactorSetup, twoFactorStatus } from '../../../../server/accounts/two-factor.ts';
import {
  completeTwoFactorSignIn,
  PENDING_SIGN_IN_TTL_MS,
  type PendingSignIn,
  signInWithPassword,
  signUpWithPassword,
} from '../../../../server/accounts/password-accounts.ts';
import { SharedRecordStore } from '../../../../server/coordination/shared-records.ts';
import { createAccount } from '../../../../server/repositories/accounts.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { useMigratedDatabase } from '../../../helpers/test-database.ts';

const codeAt = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: ms });
const T0 = Date.parse('2026-11-27T08:00:05Z');

describe('two-factor rules (controllable clock)', () => {
  const migrated = useMigratedDatabase('chime-2fa-');
  let database: DatabaseHandle;
  beforeAll(() => {
    database = migrated();
  });

  async function setUp() {
    const account = await createAccount(database.db, { email: `clock-${Math.random()}@example.com`, username: 'clock', timezone: 'UTC' });
    const throttle = new DatabaseAttemptThrottle(database.db, { ...DEFAULT_LOGIN_THROTTLE, maxFailuresPerPair: 100, accountFreeFailures: 100 }, () => T0);
    const { secret, otpauth_url } = await startTwoFactorSetup(database.db, account.id, 'clock@example.com', T0);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/Chime:clock%40example\.com\?issuer=Chime&secret=[A-Z2-7]+&algorithm=SHA1&digits=6&period=30$/);
    return { accountId: account.id, throttle, secret, attempt: (code: string, now: number) => ({ accountId: account.id, code, ip: '192.0.2.1', now }) };
  }

  it('enables with a current code only, and answers 10 distinct recovery codes', async () => {
    const { accountId, throttle, secret, attempt } = await setUp();
    await expect(enableTwoFactor(database.db, throttle, attempt(codeAt(secret, T0 - 120_000), T0))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
    expect((await twoFactorStatus(database.db, accountId)).enabled).toBe(false);
    const { recovery_codes } = await enableTwoFactor(database.db, throttle, attempt(codeAt(secret, T0), T0));
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    for (const code of recovery_codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{2}$/);
    expect(await twoFactorStatus(database.db, accountId)).toEqual({ enabled: true, recovery_codes_left: 10 });
    // Stored hashed: no code in the table.
    const stored = await database.db.selectFrom('recovery_codes').select('code_hash').where('account_id', '=', accountId).execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(recovery_codes[0]);
  });

  it('takes a code within one 30-second step of drift, never the same step twice, never an older one', async () => {
    const { throttle, secret, attempt } = await setUp();
    await enableTwoFactor(database.db, throttle, attempt(codeAt(secret, T0), T0));
    const later = T0 + 10 * 60_000;
    // 30 s behind and ahead are fine; 60 s is not.
    await expect(checkSecondFactor(database.db, throttle, attempt(codeAt(secret, later - 60_000), later))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
    await expect(checkSecondFactor(database.db, throttle, attempt(codeAt(secret, later - 30_000), later))).resolves.toBe('totp');
    // The same code again (a replay), and the code before it: refused.
    await expect(checkSecondFactor(database.db, throttle, attempt(codeAt(secret, later - 30_000), later))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
    await expect(checkSecondFactor(database.db, throttle, attempt(codeAt(secret, later), later))).resolves.toBe('totp');
    await expect(checkSecondFactor(database.db, throttle, attempt(codeAt(secret, later), later + 1000))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
    await expect(checkSecondFactor(database.db, throttle, attempt(codeAt(secret, later + 30_000), later))).resolves.toBe('totp');
    await expect(checkSecondFactor(database.db, throttle, attempt(codeAt(secret, later + 90_000), later))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
  });

  it('recovery codes work once each, whatever their case and dashes', async () => {
    const { accountId, throttle, secret, attempt } = await setUp();
    const { recovery_codes } = await enableTwoFactor(database.db, throttle, attempt(codeAt(secret, T0), T0));
    await expect(checkSecondFactor(database.db, throttle, attempt(` ${recovery_codes[3]!.toUpperCase().replace(/-/g, '')} `, T0))).resolves.toBe('recovery');
    await expect(checkSecondFactor(database.db, throttle, attempt(recovery_codes[3]!, T0))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
    expect((await twoFactorStatus(database.db, accountId)).recovery_codes_left).toBe(9);
    await expect(checkSecondFactor(database.db, throttle, attempt('aaaa-bbbb-cc', T0))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
  });

  it('a password sign-in asks for a code and takes the one of the clock’s time; disabling takes a code too', async () => {
    const email = `flow-${Math.random()}@example.com`;
    const password = 'a long enough password';
    const account = await signUpWithPassword(database.db, { email, username: 'flow', password, language: null });
    let now = T0;
    const clock = () => now;
    const throttle = new DatabaseAttemptThrottle(database.db, DEFAULT_LOGIN_THROTTLE, clock);
    const pending = new SharedRecordStore<PendingSignIn>(database.db, 'two_factor_sign_in', PENDING_SIGN_IN_TTL_MS, clock);
    const ip = '192.0.2.30';
    const { secret } = await startTwoFactorSetup(database.db, account.id, email, now);
    const { recovery_codes } = await enableTwoFactor(database.db, throttle, { accountId: account.id, code: codeAt(secret, now), ip, now });
    const signIn = () => signInWithPassword(database.db, throttle, { email, password, rememberMe: false, ip, userAgent: undefined, language: null, deviceToken: undefined }, pending);
    const second = (ticket: string, code: string) => completeTwoFactorSignIn(database.db, throttle, pending, { ticket, code, ip, userAgent: undefined, deviceToken: undefined, now });

    now += 10 * 60_000;
    const first = await signIn();
    if (first.status !== 'two_factor_required') throw new Error('a code should be asked');
    // A code of three steps ago is refused; the clock's own is taken, once.
    await expect(second(first.ticket, codeAt(secret, now - 90_000))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
    const done = await second(first.ticket, codeAt(secret, now));
    expect(done).toMatchObject({ status: 'signed_in', account: { id: account.id }, token: expect.any(String) });
    await expect(second(first.ticket, codeAt(secret, now + 30_000))).rejects.toMatchObject({ code: 'TWO_FACTOR_TICKET_INVALID' });
    // A ticket lasts 5 minutes: a right code after that starts over at the password.
    const late = await signIn();
    if (late.status !== 'two_factor_required') throw new Error('a code should be asked');
    now += PENDING_SIGN_IN_TTL_MS + 1;
    await expect(second(late.ticket, codeAt(secret, now))).rejects.toMatchObject({ code: 'TWO_FACTOR_TICKET_INVALID' });
    // A recovery code finishes a sign-in too.
    const third = await signIn();
    if (third.status !== 'two_factor_required') throw new Error('a code should be asked');
    await expect(second(third.ticket, recovery_codes[0]!)).resolves.toMatchObject({ status: 'signed_in' });

    // Disabling: a stale code is refused and codes stay on; the clock's code turns them off.
    now += 60_000;
    await expect(disableTwoFactor(database.db, throttle, { accountId: account.id, code: codeAt(secret, now - 120_000), ip, now })).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
    expect((await twoFactorStatus(database.db, account.id)).enabled).toBe(true);
    await disableTwoFactor(database.db, throttle, { accountId: account.id, code: codeAt(secret, now), ip, now });
    expect(await twoFactorStatus(database.db, account.id)).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect((await signIn()).status).toBe('signed_in');
  });

  it('wrong codes are throttled like passwords: refused before any check once over the budget', async () => {
    const account = await createAccount(database.db, { email: `throttle-${Math.random()}@example.com`, username: 'throttled', timezone: 'UTC' });
    let now = T0;
    const throttle = new DatabaseAttemptThrottle(database.db, DEFAULT_LOGIN_THROTTLE, () => now);
    const { secret } = await startTwoFactorSetup(database.db, account.id, 'x', now);
    const attempt = (code: string) => ({ accountId: account.id, code, ip: '192.0.2.9', now });
    await enableTwoFactor(database.db, throttle, attempt(codeAt(secret, now)));
    now += 60_000;
    for (let i = 0; i < 5; i++) await expect(checkSecondFactor(database.db, throttle, attempt('000000'))).rejects.toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID' });
    // Even the right code waits now.
    await expect(checkSecondFactor(database.db, throttle, attempt(codeAt(secret, now)))).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
  });
});

describe('two-factor codes over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('enable with the QR secret and a first code, sign in with a code after the password, a recovery code once, then disable', async () => {
    const user = await signUp(server.url);
    const anon = client(server.url);
    expect((await user.api.get('/api/account/two-factor')).body).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect((await user.api.post('/api/account/two-factor/enable', { code: '123456' })).body.code).toBe('TWO_FACTOR_NOT_STARTED');
    const setup = await user.api.post('/api/account/two-factor/setup');
    expect(setup.status).toBe(200);
    expect(setup.body.qr_data_url).toMatch(/^data:image\/png;base64,/);
    expect(setup.body.otpauth_url).toContain(`secret=${setup.body.secret}`);
    const secret: string = setup.body.secret;
    const wrong = await user.api.post('/api/account/two-factor/enable', { code: '000000' === codeAt(secret, Date.now()) ? '111111' : '000000' });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'TWO_FACTOR_CODE_INVALID', error: expect.any(String) } });
    const enabled = await user.api.post('/api/account/two-factor/enable', { code: codeAt(secret, Date.now()) });
    expect(enabled.status).toBe(200);
    const recovery: string[] = enabled.body.recovery_codes;
    expect(recovery).toHaveLength(10);
    expect((await user.api.post('/api/account/two-factor/setup')).body.code).toBe('TWO_FACTOR_ALREADY_ENABLED');

    // The password alone no longer signs in: a ticket, no session, no cookie.
    const first = await anon.post('/api/auth/login', { email: user.email, password: user.password });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ two_factor_required: true, ticket: expect.any(String) });
    expect(first.headers.getSetCookie().filter((c) => c.startsWith('chime_session='))).toEqual([]);
    expect((await anon.post('/api/auth/two-factor', { ticket: first.body.ticket, code: '12345' })).body.code).toBe('TWO_FACTOR_CODE_INVALID');
    expect((await anon.post('/api/auth/two-factor', { ticket: 'made-up', code: '123456' })).body.code).toBe('TWO_FACTOR_TICKET_INVALID');
    // The next step's code (the current one was used to enable): a session.
    const done = await anon.post('/api/auth/two-factor', { ticket: first.body.ticket, code: codeAt(secret, Date.now() + 30_000) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ token: expect.any(String), id: user.id });
    expect((await client(server.url, done.body.token).get('/api/account')).status).toBe(200);
    // A ticket works once.
    expect((await anon.post('/api/auth/two-factor', { ticket: first.body.ticket, code: recovery[0] })).status).toBe(401);

    // A recovery code signs in once.
    const second = await anon.post('/api/auth/login', { email: user.email, password: user.password });
    expect((await anon.post('/api/auth/two-factor', { ticket: second.body.ticket, code: recovery[0] })).status).toBe(200);
    const third = await anon.post('/api/auth/login', { email: user.email, password: user.password });
    expect((await anon.post('/api/auth/two-factor', { ticket: third.body.ticket, code: recovery[0] })).body.code).toBe('TWO_FACTOR_CODE_INVALID');
    expect((await user.api.get('/api/account/two-factor')).body).toEqual({ enabled: true, recovery_codes_left: 9 });

    // Disabling needs a code or a recovery code.
    expect((await user.api.post('/api/account/two-factor/disable', { code: recovery[0] })).body.code).toBe('TWO_FACTOR_CODE_INVALID');
    expect((await user.api.post('/api/account/two-factor/disable', { code: recovery[1] })).status).toBe(200);
    const plain = await anon.post('/api/auth/login', { email: user.email, password: user.password });
    expect(plain.body.token).toEqual(expect.any(String));
  });

  it('the admin command removes a user’s two-factor codes (with --yes only)', async () => {
    const user = await signUp(server.url);
    const { secret } = (await user.api.post('/api/account/two-factor/setup')).body;
    expect((await user.api.post('/api/account/two-factor/enable', { code: codeAt(secret, Date.now()) })).status).toBe(200);
    await expect(accountsCommand(server.app.db, ['remove-2fa', user.email], {})).rejects.toMatchObject({ exitCode: 2 });
    expect((await user.api.get('/api/account/two-factor')).body.enabled).toBe(true);
    const removed = await accountsCommand(server.app.db, ['remove-2fa', user.email], { yes: true });
    expect(removed.text).toMatch(/^Removed two-factor codes from /);
    expect((await user.api.get('/api/account/two-factor')).body).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect((await client(server.url).post('/api/auth/login', { email: user.email, password: user.password })).body.token).toEqual(expect.any(String));
  });

  it('401 without a session, 403 for personal access tokens, CSRF holds on the cookie', async () => {
    const anon = client(server.url);
    for (const res of [
      await anon.get('/api/account/two-factor'),
      await anon.post('/api/account/two-factor/setup'),
      await anon.post('/api/account/two-factor/enable', { code: '123456' }),
      await anon.post('/api/account/two-factor/disable', { code: '123456' }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), code: 'NOT_AUTHENTICATED' });
    }
    const user = await signUp(server.url);
    const pat = client(server.url, (await user.api.post('/api/tokens', { name: 'script', scopes: ['reminders:read', 'reminders:write'] })).body.token);
    for (const res of [await pat.get('/api/account/two-factor'), await pat.post('/api/account/two-factor/setup'), await pat.post('/api/account/two-factor/disable', { code: '123456' })]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('TOKEN_NOT_ALLOWED');
    }
    const cookie = { cookie: `chime_session=${user.token}` };
    for (const path of ['/api/account/two-factor/setup', '/api/account/two-factor/enable', '/api/account/two-factor/disable']) {
      for (const headers of [{ ...cookie, origin: 'https://evil.example' }, cookie]) {
        expect(await anon.post(path, path.endsWith('setup') ? {} : { code: '123456' }, headers)).toMatchObject({ status: 403, body: { code: 'CSRF_REJECTED' } });
      }
    }
    expect((await user.api.get('/api/account/two-factor')).body.enabled).toBe(false);
    expect((await anon.post('/api/account/two-factor/setup', {}, { ...cookie, origin: server.url })).status).toBe(200);
    // Bad input is a 4xx with { error, code }, never a 500.
    const long = await user.api.post('/api/account/two-factor/enable', { code: 'x'.repeat(41) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
  });
});
