/**
 * Passkeys (docs/security.md "Passkeys") over real HTTP, with a software authenticator
 * (tests/helpers/software-authenticator.ts) whose answers the server verifies for real: adding,
 * listing, renaming and removing passkeys (a notice mailed), signing in with one without a password
 * or a two-factor code, and every refusal: wrong or replayed challenge, unknown credential, another
 * account's passkey, a counter going back, no session, access tokens, CSRF.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { PASSKEY_CHALLENGE_TTL_MS, type PasskeyChallenge, relyingPartyOf, startPasskeySignIn } from '../../../../server/accounts/passkeys.ts';
import { accountsCommand } from '../../../../server/admin/accounts.ts';
import { DEFAULT_PASSKEY_OPTIONS_THROTTLE } from '../../../../server/config.ts';
import { RateWindow } from '../../../../server/coordination/rate-window.ts';
import { SharedRecordStore } from '../../../../server/coordination/shared-records.ts';
import { type ApiResponse, client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.ts';
import { SoftwareAuthenticator } from '../../../helpers/software-authenticator.ts';

const PUBLIC_URL = 'http://localhost:4173';
const codeAt = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: ms });

describe('passkeys', () => {
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ env: { PUBLIC_URL, SMTP_URL: sink.url, MAIL_FROM: 'Chime <chime@example.com>' } });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  type User = Awaited<ReturnType<typeof signUp>>;

  async function addPasskey(user: User, authenticator: SoftwareAuthenticator, name = 'Laptop') {
    const started = await user.api.post('/api/account/passkeys/registration-options');
    expect(started.status).toBe(200);
    const response = authenticator.register(started.body.options);
    return user.api.post('/api/account/passkeys', { ticket: started.body.ticket, name, response });
  }

  async function signInWith(authenticator: SoftwareAuthenticator, tweak: Parameters<SoftwareAuthenticator['signIn']>[1] = {}) {
    const anon = client(server.url);
    const started = await anon.post('/api/auth/passkey/options');
    expect(started.status).toBe(200);
    const response = authenticator.signIn(started.body.options, tweak);
    return { ticket: started.body.ticket as string, response, answer: await anon.post('/api/auth/passkey', { ticket: started.body.ticket, response }) };
  }

  it('adds a discoverable passkey bound to PUBLIC_URL, lists it, and signs in with it alone', async () => {
    const user = await signUp(server.url);
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
    const started = await user.api.post('/api/account/passkeys/registration-options');
    expect(started.body.options).toMatchObject({
      rp: { id: 'localhost', name: 'Chime' },
      user: { name: user.email },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true },
    });
    const added = await user.api.post('/api/account/passkeys', { ticket: started.body.ticket, name: '  Laptop  ', response: authenticator.register(started.body.options) });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(String), name: 'Laptop', created_at: expect.any(String), last_used_at: null, device_type: 'singleDevice', backed_up: false });

    const { answer } = await signInWith(authenticator);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token: expect.any(String), id: user.id, email: user.email, username: user.username });
    // The same session and cookies as a password sign-in.
    const cookies = answer.headers.getSetCookie().join('\n');
    expect(cookies).toMatch(/chime_session=/);
    expect(cookies).toMatch(/chime_device=/);
    const me = await client(server.url, answer.body.token).get('/api/account/passkeys');
    expect(me.status).toBe(200);
    expect(me.body).toEqual([{ ...added.body, last_used_at: expect.any(String) }]);

    expect((await user.api.put(`/api/account/passkeys/${added.body.id}`, { name: 'Work laptop' })).status).toBe(200);
    expect((await user.api.get('/api/account/passkeys')).body[0].name).toBe('Work laptop');
    expect((await user.api.put(`/api/account/passkeys/${added.body.id}`, { name: '   ' })).body.code).toBe('PASSKEY_NAME_REQUIRED');
  });

  it('is a full sign-in: no two-factor code asked even when two-factor codes are on', async () => {
    const user = await signUp(server.url);
    const { secret } = (await user.api.post('/api/account/two-factor/setup')).body;
    expect((await user.api.post('/api/account/two-factor/enable', { code: codeAt(secret, Date.now()) })).status).toBe(200);
    const byPassword = await client(server.url).post('/api/auth/login', { email: user.email, password: user.password });
    expect(byPassword.body).toMatchObject({ two_factor_required: true });
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
    expect((await addPasskey(user, authenticator)).status).toBe(201);
    const { answer } = await signInWith(authenticator);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token: expect.any(String), id: user.id });
    expect(answer.body.two_factor_required).toBeUndefined();
  });

  it('refuses a wrong challenge, a replayed one, another origin, an unknown credential and a counter going back', async () => {
    const user = await signUp(server.url);
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);

    // Registration: the challenge signed must be the ticket's, from PUBLIC_URL's origin; a ticket works once.
    const started = await user.api.post('/api/account/passkeys/registration-options');
    const wrong = await user.api.post('/api/account/passkeys', { ticket: started.body.ticket, name: 'x', response: authenticator.register(started.body.options, { challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }) });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'PASSKEY_INVALID', error: expect.any(String) } });
    const replayed = await user.api.post('/api/account/passkeys', { ticket: started.body.ticket, name: 'x', response: authenticator.register(started.body.options) });
    expect(replayed).toMatchObject({ status: 400, body: { code: 'PASSKEY_CHALLENGE_INVALID' } });
    const again = await user.api.post('/api/account/passkeys/registration-options');
    const foreign = await user.api.post('/api/account/passkeys', { ticket: again.body.ticket, name: 'x', response: authenticator.register(again.body.options, { origin: 'https://evil.example' }) });
    expect(foreign).toMatchObject({ status: 400, body: { code: 'PASSKEY_INVALID' } });
    // Another account cannot use this account's registration ticket.
    const other = await signUp(server.url);
    const third = await user.api.post('/api/account/passkeys/registration-options');
    const stolen = await other.api.post('/api/account/passkeys', { ticket: third.body.ticket, name: 'x', response: new SoftwareAuthenticator(PUBLIC_URL).register(third.body.options) });
    expect(stolen).toMatchObject({ status: 400, body: { code: 'PASSKEY_CHALLENGE_INVALID' } });
    expect((await user.api.get('/api/account/passkeys')).body).toEqual([]);

    const good = new SoftwareAuthenticator(PUBLIC_URL);
    expect((await addPasskey(user, good)).status).toBe(201);

    // Sign-in: a signature over another challenge, then the same ticket again.
    const signedOther = await signInWith(good, { challenge: 'c29tZXRoaW5nLWVsc2U' });
    expect(signedOther.answer).toMatchObject({ status: 401, body: { code: 'PASSKEY_SIGN_IN_FAILED' } });
    const first = await signInWith(good);
    expect(first.answer.status).toBe(200);
    const replay = await client(server.url).post('/api/auth/passkey', { ticket: first.ticket, response: first.response });
    expect(replay).toMatchObject({ status: 400, body: { code: 'PASSKEY_CHALLENGE_INVALID' } });
    // A credential the server does not know.
    const unknown = await signInWith(new SoftwareAuthenticator(PUBLIC_URL), { credential: authenticator.credentials[0] });
    expect(unknown.answer).toMatchObject({ status: 401, body: { code: 'PASSKEY_UNKNOWN' } });
    // A counter at or below the last one seen: a cloned authenticator.
    const cloned = await signInWith(good, { counter: good.credentials[0]!.counter });
    expect(cloned.answer).toMatchObject({ status: 401, body: { code: 'PASSKEY_COUNTER_INVALID' } });
    expect((await signInWith(good)).answer.status).toBe(200);
    // A made-up ticket and bad input: 4xx with { error, code }.
    const made = await client(server.url).post('/api/auth/passkey', { ticket: 'nope', response: first.response });
    expect(made).toMatchObject({ status: 400, body: { code: 'PASSKEY_CHALLENGE_INVALID' } });
    const garbage = await client(server.url).post('/api/auth/passkey', { ticket: 'x', response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' }, clientExtensionResults: {} } });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);
    expect(garbage.body).toEqual({ error: expect.any(String), code: expect.any(String) });
  });

  it('failed passkey sign-ins are throttled like passwords (429 with Retry-After)', async () => {
    // The test server's network budget is out of reach (tests/helpers/server.ts): what holds here
    // is the budget of one network on one account (5 failures), the same as for passwords.
    {
      const user = await signUp(server.url);
      const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
      expect((await addPasskey(user, authenticator, 'Key')).status).toBe(201);
      const anon = client(server.url);
      let refused: ApiResponse | undefined;
      for (let i = 0; i < 12 && !refused; i++) {
        const options = (await anon.post('/api/auth/passkey/options')).body;
        const res = await anon.post('/api/auth/passkey', { ticket: options.ticket, response: authenticator.signIn(options.options, { challenge: 'd3Jvbmc' }) });
        if (res.status === 429) refused = res;
        else expect(res.body.code).toBe('PASSKEY_SIGN_IN_FAILED');
      }
      expect(refused?.body.code).toBe('RATE_LIMITED');
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
      // The password of the same account from the same network is held too: one budget.
      expect((await anon.post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(429);
    }
  });

  it('another account’s passkey is 404; removing one mails a notice; at most 10', async () => {
    const owner = await signUp(server.url);
    const stranger = await signUp(server.url);
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
    const added = (await addPasskey(owner, authenticator, 'Phone')).body;
    expect((await stranger.api.put(`/api/account/passkeys/${added.id}`, { name: 'mine' })).body.code).toBe('PASSKEY_NOT_FOUND');
    const foreignDelete = await stranger.api.delete(`/api/account/passkeys/${added.id}`);
    expect(foreignDelete).toMatchObject({ status: 404, body: { code: 'PASSKEY_NOT_FOUND' } });
    expect((await stranger.api.get('/api/account/passkeys')).body).toEqual([]);
    expect((await owner.api.get('/api/account/passkeys')).body).toHaveLength(1);

    expect((await owner.api.delete(`/api/account/passkeys/${added.id}`)).status).toBe(200);
    const notice = await sink.waitFor((m) => m.to.includes(owner.email.toLowerCase()) && /Passkey removed/.test(m.subject), 10_000);
    expect(notice.text).toContain('“Phone”');
    expect(notice.text).toMatch(/If this was not you/);
    // A removed passkey signs in no more.
    expect((await signInWith(authenticator)).answer.body.code).toBe('PASSKEY_UNKNOWN');

    for (let i = 0; i < 10; i++) expect((await addPasskey(owner, authenticator, `Key ${i}`)).status).toBe(201);
    const eleventh = await owner.api.post('/api/account/passkeys/registration-options');
    expect(eleventh).toMatchObject({ status: 409, body: { code: 'PASSKEY_LIMIT' } });
  });

  it('at most 10 even when registrations finish at the same time', async () => {
    const owner = await signUp(server.url);
    for (let i = 0; i < 8; i++) expect((await addPasskey(owner, new SoftwareAuthenticator(PUBLIC_URL), `Key ${i}`)).status).toBe(201);
    // Five registrations started while the account had 8: each was allowed to start.
    const started = [];
    for (let i = 0; i < 5; i++) started.push((await owner.api.post('/api/account/passkeys/registration-options')).body);
    const answers = await Promise.all(
      started.map((s, i) => owner.api.post('/api/account/passkeys', { ticket: s.ticket, name: `Racer ${i}`, response: new SoftwareAuthenticator(PUBLIC_URL).register(s.options) })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.code).toBe('PASSKEY_LIMIT');
    expect((await owner.api.get('/api/account/passkeys')).body).toHaveLength(10);
  });

  it('the admin command removes a user’s passkeys (with --yes only) and mails the notice', async () => {
    const owner = await signUp(server.url);
    const phone = new SoftwareAuthenticator(PUBLIC_URL);
    expect((await addPasskey(owner, phone, 'Phone')).status).toBe(201);
    expect((await addPasskey(owner, new SoftwareAuthenticator(PUBLIC_URL), 'Security key')).status).toBe(201);
    const deps = { mail: server.app.mail };
    // Without --yes it says what it would do, and does nothing.
    const asked = accountsCommand(server.app.db, ['remove-passkeys', owner.email], {}, deps);
    await expect(asked).rejects.toMatchObject({ exitCode: 2, code: 'CONFIRMATION_REQUIRED', message: expect.stringMatching(/2 passkeys .*\(Phone, Security key\)/) });
    expect((await owner.api.get('/api/account/passkeys')).body).toHaveLength(2);

    const removed = await accountsCommand(server.app.db, ['remove-passkeys', owner.email], { yes: true }, deps);
    expect(removed.exitCode).toBe(0);
    expect(removed.text).toMatch(/^Removed 2 passkeys \(.*Phone.*\) from .* Mailed a notice to /);
    expect(removed.data).toMatchObject({ removed: expect.arrayContaining(['Phone', 'Security key']), mailed: true });
    expect((await owner.api.get('/api/account/passkeys')).body).toEqual([]);
    expect((await signInWith(phone)).answer).toMatchObject({ status: 401, body: { code: 'PASSKEY_UNKNOWN' } });
    const notice = await sink.waitFor((m) => m.to.includes(owner.email.toLowerCase()) && /Passkeys removed/.test(m.subject), 10_000);
    expect(notice.text).toMatch(/administrator of this Chime server removed every passkey/);
    expect(notice.text).toContain('Security key');
    expect(notice.text).toMatch(/If you did not ask for this/);
    // The password still signs in; another run has nothing to do.
    expect((await client(server.url).post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(200);
    expect((await accountsCommand(server.app.db, ['remove-passkeys', owner.email], {}, deps)).text).toMatch(/has no passkeys/);
    // Without email settings it says the owner must be told another way.
    const other = await signUp(server.url);
    expect((await addPasskey(other, new SoftwareAuthenticator(PUBLIC_URL), 'Laptop')).status).toBe(201);
    const unmailed = await accountsCommand(server.app.db, ['remove-passkeys', other.id], { yes: true });
    expect(unmailed.text).toMatch(/Email is not configured: tell the owner yourself/);
  });

  it('401 without a session, 403 for access tokens, CSRF holds on the cookie', async () => {
    const anon = client(server.url);
    for (const res of [
      await anon.get('/api/account/passkeys'),
      await anon.post('/api/account/passkeys/registration-options'),
      await anon.post('/api/account/passkeys', { ticket: 'x', name: 'x', response: {} }),
      await anon.put('/api/account/passkeys/abc', { name: 'x' }),
      await anon.delete('/api/account/passkeys/abc'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), code: 'NOT_AUTHENTICATED' });
    }
    const user = await signUp(server.url);
    const pat = client(server.url, (await user.api.post('/api/tokens', { name: 'script', scopes: ['reminders:read', 'reminders:write'] })).body.token);
    for (const res of [await pat.get('/api/account/passkeys'), await pat.post('/api/account/passkeys/registration-options'), await pat.delete('/api/account/passkeys/abc')]) {
      expect(res).toMatchObject({ status: 403, body: { code: 'TOKEN_NOT_ALLOWED' } });
    }
    const added = (await addPasskey(user, new SoftwareAuthenticator(PUBLIC_URL))).body;
    const cookie = { cookie: `chime_session=${user.token}` };
    // Every unsafe passkey route, from another site or with no origin at all: refused, nothing changed.
    const started = (await user.api.post('/api/account/passkeys/registration-options')).body;
    const another = { ticket: started.ticket, name: 'Forged', response: new SoftwareAuthenticator(PUBLIC_URL).register(started.options) };
    for (const headers of [{ ...cookie, origin: 'https://evil.example' }, { ...cookie, referer: 'https://evil.example/page' }, cookie]) {
      for (const forged of [
        await anon.delete(`/api/account/passkeys/${added.id}`, headers),
        await anon.put(`/api/account/passkeys/${added.id}`, { name: 'Forged' }, headers),
        await anon.post('/api/account/passkeys/registration-options', {}, headers),
        await anon.post('/api/account/passkeys', another, headers),
      ]) {
        expect(forged).toMatchObject({ status: 403, body: { code: 'CSRF_REJECTED' } });
      }
    }
    expect((await user.api.get('/api/account/passkeys')).body).toEqual([added]);
    expect((await anon.delete(`/api/account/passkeys/${added.id}`, { ...cookie, origin: PUBLIC_URL })).status).toBe(200);
  });
});

describe('starting passkey sign-ins and registrations (the default budgets)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL, TRUST_PROXY: 'true' }, overrides: { passkeyOptionsThrottle: DEFAULT_PASSKEY_OPTIONS_THROTTLE } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const stored = async () => (await server.app.db.selectFrom('short_lived_records').select('key_hash').where('kind', '=', 'passkey_sign_in').execute()).length;

  it('a burst from one network is refused after its budget, storing nothing; another network is not', async () => {
    const anon = client(server.url);
    const { limit } = DEFAULT_PASSKEY_OPTIONS_THROTTLE;
    const before = await stored();
    const answers: ApiResponse[] = [];
    // Each from another address of one IPv6 /64: one network (docs/security.md), one budget.
    for (let i = 0; i < limit + 5; i++) answers.push(await anon.post('/api/auth/passkey/options', {}, from(`2001:db8:5::${(i + 1).toString(16)}`)));
    expect(answers.slice(0, limit).every((a) => a.status === 200 && typeof a.body.ticket === 'string')).toBe(true);
    for (const refused of answers.slice(limit)) {
      expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', error: expect.any(String) } });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(DEFAULT_PASSKEY_OPTIONS_THROTTLE.windowMs / 1000);
    }
    // A refused call stores no challenge: the table holds what the budget allowed, no more.
    expect((await stored()) - before).toBe(limit);
    // Other networks start at once.
    expect((await anon.post('/api/auth/passkey/options', {}, from('2001:db8:6::1'))).status).toBe(200);
    expect((await anon.post('/api/auth/passkey/options', {}, from('198.51.100.20'))).status).toBe(200);
  });

  it('an account starting registrations has the same budget', async () => {
    const user = await signUp(server.url);
    const { limit } = DEFAULT_PASSKEY_OPTIONS_THROTTLE;
    const answers: ApiResponse[] = [];
    for (let i = 0; i < limit + 1; i++) answers.push(await user.api.post('/api/account/passkeys/registration-options'));
    expect(answers.slice(0, limit).every((a) => a.status === 200)).toBe(true);
    expect(answers.at(-1)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(Number(answers.at(-1)!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not held by it.
    expect((await (await signUp(server.url)).api.post('/api/account/passkeys/registration-options')).status).toBe(200);
  });

  it('a challenge expires after 5 minutes, and expired ones are swept from the table', async () => {
    let now = Date.now();
    const clock = () => now;
    const challenges = new SharedRecordStore<PasskeyChallenge>(server.app.db, 'passkey_sign_in', PASSKEY_CHALLENGE_TTL_MS, clock);
    const perNetwork = new RateWindow(server.app.db, 'passkey_options', 1_000, 60_000, clock);
    const rp = relyingPartyOf(PUBLIC_URL);
    const started = await startPasskeySignIn(challenges, rp, { perNetwork, ip: '192.0.2.44' });
    expect(await challenges.peek(started.ticket)).toMatchObject({ challenge: started.options.challenge, accountId: null });
    now += PASSKEY_CHALLENGE_TTL_MS + 1;
    // Expired: its answer would be PASSKEY_CHALLENGE_INVALID (finishPasskeySignIn takes it from this store).
    expect(await challenges.peek(started.ticket)).toBeNull();
    const expired = () => server.app.db.selectFrom('short_lived_records').select('key_hash').where('expires_at', '<=', new Date(now).toISOString()).execute();
    expect((await expired()).length).toBeGreaterThan(0);
    // The next challenge stored (at most one sweep a minute per instance) deletes every expired one.
    now += 60_001;
    const next = await startPasskeySignIn(challenges, rp, { perNetwork, ip: '192.0.2.44' });
    expect(await expired()).toEqual([]);
    expect(await challenges.peek(next.ticket)).not.toBeNull();
  });
});
