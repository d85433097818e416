/**
 * Password reset by mail (docs/operations.md "Email") against a real SMTP server on 127.0.0.1, and the admin
 * CLI that prints a link when the server has no SMTP settings.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueResetLink } from '../../../../server/mail/password-reset.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.ts';
import { REPO_ROOT } from '../../../helpers/repo-root.ts';

const run = promisify(execFile);
const ROOT = REPO_ROOT;
const PUBLIC_URL = 'http://chime.test';
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('password reset with SMTP', () => {
  let sink: SmtpSink;
  let server: TestServer;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Chime <chime@example.com>', PUBLIC_URL },
      overrides: { resetThrottle: { windowMs: 60_000, perEmail: 3, perNetwork: 1000 } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const anon = () => client(server.url);
  const mailTo = (address: string) => sink.waitFor((m) => m.to.includes(address.toLowerCase()));

  it('says email is configured, without the SMTP URL', async () => {
    const res = await anon().get('/api/config');
    expect(res.body.email).toEqual({ configured: true, missing: [] });
    expect(JSON.stringify(res.body)).not.toContain('secret-password');
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const user = await signUp(server.url);
    const known = await anon().post('/api/auth/password-reset', { email: user.email });
    const unknown = await anon().post('/api/auth/password-reset', { email: `nobody-${Date.now()}@example.com` });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    await mailTo(user.email);
    expect(sink.messages.some((m) => m.to[0]!.startsWith('nobody-'))).toBe(false);
  });

  it('mails a single-use link that sets the password and signs out every session', async () => {
    const user = await signUp(server.url);
    const other = await anon().post('/api/auth/login', { email: user.email, password: user.password });
    expect(other.status).toBe(200);
    expect((await anon().post('/api/auth/password-reset', { email: user.email.toUpperCase() })).status).toBe(202);
    const mail = await mailTo(user.email);
    expect(mail.parsed.from?.value[0]).toMatchObject({ name: 'Chime', address: 'chime@example.com' });
    expect(mail.subject).toBe('Reset your Chime password');
    const link = linkIn(mail, `${PUBLIC_URL}/reset-password?token=`);
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
    expect(mail.text).toContain('within one hour');

    // The password policy of sign-up; a refused password does not use the link up.
    const short = await anon().post('/api/auth/password-reset/confirm', { token: tokenOf(link), password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 'PASSWORD_TOO_SHORT', error: expect.any(String) });

    const ok = await anon().post('/api/auth/password-reset/confirm', { token: tokenOf(link), password: 'a brand new password' });
    expect(ok.status).toBe(200);
    expect((await user.api.get('/api/account')).status).toBe(401);
    expect((await client(server.url, other.body.token).get('/api/account')).status).toBe(401);
    expect((await anon().post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(401);
    expect((await anon().post('/api/auth/login', { email: user.email, password: 'a brand new password' })).status).toBe(200);

    const again = await anon().post('/api/auth/password-reset/confirm', { token: tokenOf(link), password: 'yet another password' });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('RESET_TOKEN_USED');
  });

  it('using one link makes the account’s other open links useless', async () => {
    const user = await signUp(server.url);
    const first = await issueResetLink(server.app.db, { publicUrl: PUBLIC_URL }, user.id);
    const second = await issueResetLink(server.app.db, { publicUrl: PUBLIC_URL }, user.id);
    expect((await anon().post('/api/auth/password-reset/confirm', { token: tokenOf(second), password: 'password number two' })).status).toBe(200);
    const res = await anon().post('/api/auth/password-reset/confirm', { token: tokenOf(first), password: 'password number one' });
    expect(res.body.code).toBe('RESET_TOKEN_USED');
  });

  it('refuses an expired or unknown link with its own code', async () => {
    const user = await signUp(server.url);
    const old = await issueResetLink(server.app.db, { publicUrl: PUBLIC_URL }, user.id, Date.now() - 61 * 60 * 1000);
    const expired = await anon().post('/api/auth/password-reset/confirm', { token: tokenOf(old), password: 'long enough password' });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('RESET_TOKEN_EXPIRED');
    const unknown = await anon().post('/api/auth/password-reset/confirm', { token: 'not-a-token', password: 'long enough password' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('RESET_TOKEN_INVALID');
    expect((await anon().post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
  });

  it('writes in the account’s language', async () => {
    const user = await signUp(server.url);
    await server.app.db.updateTable('accounts').set({ locale: 'fr' }).where('id', '=', user.id).execute();
    await anon().post('/api/auth/password-reset', { email: user.email });
    const mail = await mailTo(user.email);
    expect(mail.subject).toBe('Réinitialisez votre mot de passe Chime');
    expect(mail.text).toContain('Choisir un nouveau mot de passe');
    expect(mail.html).toContain('lang="fr"');
  });

  it('writes in the language the dashboard was in at sign-up, then in the one the user picks', async () => {
    const email = `lang-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    const spanish = { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' };
    expect((await anon().post('/api/auth/register', { email, username: 'idioma', password }, spanish)).status).toBe(201);
    const login = await anon().post('/api/auth/login', { email, password }, spanish);
    const api = client(server.url, login.body.token);
    expect((await api.get('/api/account')).body.language).toBe('es');
    await anon().post('/api/auth/password-reset', { email });
    expect((await mailTo(email)).subject).toBe('Restablece tu contraseña de Chime');

    // The dashboard's language menu: the account follows; signing in from another language does not undo it.
    const changed = await api.put('/api/account/language', { language: 'fr' });
    expect(changed.status).toBe(200);
    expect(changed.body.language).toBe('fr');
    await anon().post('/api/auth/login', { email, password }, { 'accept-language': 'es' });
    expect((await api.get('/api/account')).body.language).toBe('fr');
    const before = sink.messages.length;
    await anon().post('/api/auth/password-reset', { email }, { 'accept-language': 'es' });
    const second = await sink.waitFor((m) => m.to.includes(email) && sink.messages.indexOf(m) >= before);
    expect(second.subject).toBe('Réinitialisez votre mot de passe Chime');
  });

  it('gives an account without a language the one it signs in with', async () => {
    const user = await signUp(server.url);
    expect((await user.api.get('/api/account')).body.language).toBeNull();
    await anon().post('/api/auth/login', { email: user.email, password: user.password }, { 'accept-language': 'de-DE,fr;q=0.8' });
    expect((await user.api.get('/api/account')).body.language).toBe('fr');
  });

  it('refuses a language Chime does not speak, and needs a session', async () => {
    const user = await signUp(server.url);
    for (const language of ['de', '', 'FR-fr', 42]) {
      const res = await user.api.put('/api/account/language', { language });
      expect(res.status, String(language)).toBe(400);
      expect(res.body.code).toMatch(/^(VALIDATION_FAILED|INVALID_JSON)$/);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await user.api.get('/api/account')).body.language).toBeNull();
    const anonymous = await anon().put('/api/account/language', { language: 'fr' });
    expect(anonymous.status).toBe(401);
  });

  it('throttles requests per email (429 with a code and Retry-After)', async () => {
    const email = `flooded-${Date.now()}@example.com`;
    for (let i = 0; i < 3; i++) expect((await anon().post('/api/auth/password-reset', { email })).status).toBe(202);
    const refused = await anon().post('/api/auth/password-reset', { email: email.toUpperCase() });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', error: expect.any(String) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts requests per email on every instance together (the counters are in the database)', async () => {
    // A second instance on the same database, as behind a load balancer.
    const other = await startTestServer({
      dir: server.dir,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Chime <chime@example.com>', PUBLIC_URL },
      overrides: { resetThrottle: { windowMs: 60_000, perEmail: 3, perNetwork: 1000 } },
    });
    try {
      const email = `shared-${Date.now()}@example.com`;
      for (const s of [server, other, server]) expect((await client(s.url).post('/api/auth/password-reset', { email })).status).toBe(202);
      expect((await client(other.url).post('/api/auth/password-reset', { email })).status).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('answers bad input with 4xx { error, code }', async () => {
    for (const [url, body] of [
      ['/api/auth/password-reset', { email: 'not an email' }],
      ['/api/auth/password-reset', {}],
      ['/api/auth/password-reset/confirm', { token: 'x' }],
      ['/api/auth/password-reset/confirm', { token: '', password: 'long enough password' }],
      ['/api/auth/password-reset/confirm', { token: 'x'.repeat(5000), password: 'long enough password' }],
    ] as const) {
      const res = await anon().post(url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
  });
});

describe('password reset without SMTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the API says to ask the administrator, and the config says email is off', async () => {
    const res = await client(server.url).post('/api/auth/password-reset', { email: 'someone@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MAIL_NOT_CONFIGURED');
    const config = await client(server.url).get('/api/config');
    expect(config.body.email).toEqual({ configured: false, missing: ['SMTP_URL', 'MAIL_FROM'] });
  });

  it('npm run admin -- reset-password prints a working single-use link', async () => {
    const user = await signUp(server.url);
    const env = { ...process.env, DATABASE_URL: server.config.databaseUrl, PUBLIC_URL, SMTP_URL: '', MAIL_FROM: '' };
    const { stdout } = await run(process.execPath, ['scripts/admin.mjs', 'reset-password', user.email.toUpperCase()], { cwd: ROOT, env });
    const link = stdout.match(/https?:\/\/\S+/)?.[0] ?? '';
    expect(link.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
    const ok = await client(server.url).post('/api/auth/password-reset/confirm', { token: tokenOf(link), password: 'set by the admin link' });
    expect(ok.status).toBe(200);
    expect((await user.api.get('/api/account')).status).toBe(401);
    expect((await client(server.url).post('/api/auth/login', { email: user.email, password: 'set by the admin link' })).status).toBe(200);

    const unknown = await run(process.execPath, ['scripts/admin.mjs', 'reset-password', 'nobody@example.com'], { cwd: ROOT, env }).catch((e: { code: number; stderr: string }) => e);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('No account has the email nobody@example.com') });
  });
});
