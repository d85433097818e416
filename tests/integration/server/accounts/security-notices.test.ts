/**
 * Security notices (docs/security.md): where email is configured, the account is mailed in its
 * language when its password is changed and when two-factor codes are turned on or off (from the
 * account page or by the administrator's command). A real
 * SMTP server on 127.0.0.1 receives them (tests/helpers/smtp-sink.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { accountsCommand } from '../../../../server/admin/accounts.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.ts';

const codeAt = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: ms });

describe('security notices by mail', () => {
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ env: { SMTP_URL: sink.url, MAIL_FROM: 'Chime <chime@example.com>' } });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const mailTo = (email: string, subject: RegExp) => sink.waitFor((m) => m.to.includes(email.toLowerCase()) && subject.test(m.subject), 10_000);

  it('mails the account when two-factor codes go on and off, and when the password changes', async () => {
    const user = await signUp(server.url);
    const { secret } = (await user.api.post('/api/account/two-factor/setup')).body;
    expect((await user.api.post('/api/account/two-factor/enable', { code: codeAt(secret, Date.now()) })).status).toBe(200);
    const on = await mailTo(user.email, /Two-factor codes are on/);
    expect(on.text).toContain(user.email);
    expect(on.text).toMatch(/If this was not you/);
    expect((await user.api.post('/api/account/two-factor/disable', { code: codeAt(secret, Date.now() + 30_000) })).status).toBe(200);
    await mailTo(user.email, /Two-factor codes are off/);
    const changed = await user.api.post('/api/account/identity/app/change-password', { current_password: user.password, new_password: 'a brand new password' });
    expect(changed.status).toBe(200);
    await mailTo(user.email, /Your Chime password was changed/);
  });

  it('the administrator removing two-factor codes mails the notice too, and says so', async () => {
    const user = await signUp(server.url);
    const { secret } = (await user.api.post('/api/account/two-factor/setup')).body;
    expect((await user.api.post('/api/account/two-factor/enable', { code: codeAt(secret, Date.now()) })).status).toBe(200);
    await mailTo(user.email, /Two-factor codes are on/);
    const removed = await accountsCommand(server.app.db, ['remove-2fa', user.email], { yes: true }, { mail: server.app.mail });
    expect(removed.text).toMatch(/^Removed two-factor codes from .* Mailed a notice to /);
    expect(removed.data).toMatchObject({ removed: true, mailed: true });
    await mailTo(user.email, /Two-factor codes are off/);
  });

  it('in the account’s language', async () => {
    const user = await signUp(server.url);
    expect((await user.api.put('/api/account/language', { language: 'fr' })).status).toBe(200);
    const changed = await user.api.post('/api/account/identity/app/change-password', { current_password: user.password, new_password: 'un tout nouveau mot de passe' });
    expect(changed.status).toBe(200);
    const mail = await mailTo(user.email, /mot de passe de votre compte Chime a été modifié/);
    expect(mail.text).toMatch(/Si ce n’était pas vous/);
  });

  it('nothing is mailed, and nothing fails, where email is not configured', async () => {
    const bare = await startTestServer();
    try {
      const user = await signUp(bare.url);
      const { secret } = (await user.api.post('/api/account/two-factor/setup')).body;
      expect((await user.api.post('/api/account/two-factor/enable', { code: codeAt(secret, Date.now()) })).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
