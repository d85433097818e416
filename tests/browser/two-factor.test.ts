import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { client } from '../helpers/server.ts';
import { axeViolations, screenshot, sessionStorageEntries, useE2E } from './helpers.ts';

const codeAt = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: ms });

/**
 * Two-factor codes on the account page and the sign-in page's code step, and passkeys with
 * Chromium's virtual authenticator (docs/security.md).
 */
describe('two-factor codes and passkeys (browser)', () => {
  const e2e = useE2E();

  it('sets codes up with the QR code, shows the recovery codes once, and asks for a code after the password', async () => {
    const { page, user } = await e2e.signedInPage();
    await page.goto(e2e.url('/account'));
    const card = page.getByTestId('two-factor-card');
    await card.getByTestId('two-factor-setup').click();
    await card.getByTestId('two-factor-qr').waitFor();
    const secret = (await card.getByTestId('two-factor-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await axeViolations(page)).toEqual([]);
    await card.getByTestId('two-factor-enable-code').fill(codeAt(secret, Date.now()));
    await card.getByTestId('two-factor-enable').click();
    const codes = card.getByTestId('two-factor-recovery-codes').locator('li');
    await expect.poll(() => codes.count()).toBe(10);
    await card.getByTestId('two-factor-on').waitFor();
    await screenshot(page, 'two-factor-recovery-codes');
    await card.getByTestId('two-factor-recovery-done').click();
    await card.getByTestId('two-factor-recovery').waitFor({ state: 'detached' });
    await card.getByTestId('two-factor-left').getByText('10 recovery codes left.').waitFor();

    // Another browser: the password, then the code.
    const other = await e2e.newPage();
    await other.goto(e2e.url('/login'));
    await other.locator('#signin-email').fill(user.email);
    await other.locator('#signin-password').fill(user.password);
    await other.getByTestId('sign-in-submit').click();
    const codeForm = other.getByTestId('two-factor-form');
    await codeForm.waitFor();
    await other.getByTestId('two-factor-code').fill('000000' === codeAt(secret, Date.now()) ? '111111' : '000000');
    await other.getByTestId('two-factor-submit').click();
    await other.getByText('This code is not valid. Check the time on your phone, or use a recovery code.').waitFor();
    // The next step's code (the current one turned codes on).
    await other.getByTestId('two-factor-code').fill(codeAt(secret, Date.now() + 30_000));
    await other.getByTestId('two-factor-submit').click();
    await codeForm.waitFor({ state: 'detached' });
    await expect.poll(() => other.evaluate(() => localStorage.getItem('auth_token'))).not.toBeNull();
    expect((await user.api.get('/api/sessions')).body).toHaveLength(2);
    expect(e2e.consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it('adds a passkey on the account page, and signs in with it alone after signing out', async () => {
    // A passkey is bound to a host name, never to an IP address: the page and PUBLIC_URL use localhost.
    const origin = `http://localhost:${new URL(e2e.url()).port}`;
    const errorsBefore = e2e.consoleErrors.length;
    const publicUrl = e2e.server.config.publicUrl;
    e2e.server.config.publicUrl = origin;
    try {
      const user = await e2e.signUp();
      const page = await e2e.newPage({ storage: sessionStorageEntries(user) });
      // Signing out can race the account page's own requests (401 with the ended session): those
      // are fine; a refused passkey request is not.
      const refused: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400 && new URL(r.url()).pathname.includes('passkey')) refused.push(`${r.status()} ${r.url()}`);
      });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable', { enableUI: false });
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      await page.goto(`${origin}/account`);
      const card = page.getByTestId('passkeys-card');
      await card.getByTestId('passkeys-empty').waitFor();
      await card.getByTestId('passkey-name-input').fill('Test laptop');
      await card.getByTestId('passkey-add').click();
      await card.getByTestId('passkey-name').getByText('Test laptop').waitFor();
      await card.getByTestId('passkey-details').getByText(/Never used/).waitFor();
      expect((await user.api.get('/api/account/passkeys')).body).toMatchObject([{ name: 'Test laptop', last_used_at: null }]);

      // Signed out, on a browser without conditional UI: the button, no email, no password (the
      // authenticator's resident key says whose passkey it is).
      const signedInToken = () => page.evaluate(() => localStorage.getItem('auth_token'));
      await page.evaluate(() => {
        const w = window as unknown as { conditional?: unknown };
        w.conditional = PublicKeyCredential.isConditionalMediationAvailable;
        PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });
      await page.getByTestId('logout-button').click();
      await page.waitForURL(`${origin}/login`);
      expect(await page.locator('#signin-email').getAttribute('autocomplete')).toBe('username webauthn');
      expect(await signedInToken()).toBeNull();
      await page.getByTestId('passkey-sign-in').click();
      await expect.poll(signedInToken).not.toBeNull();
      await page.waitForURL((url) => url.pathname !== '/login');
      // Signing out ended the first session: the passkey's session asks from here on.
      const asPage = async () => client(e2e.server.url, (await signedInToken())!);
      const [passkey] = (await (await asPage()).get('/api/account/passkeys')).body;
      expect(passkey.last_used_at).toEqual(expect.any(String));

      // With conditional UI (Chromium has it): the sign-in page asks for the passkey as it opens,
      // and the virtual authenticator, holding one passkey for the site, answers at once.
      const byButton = await signedInToken();
      await page.evaluate(() => {
        PublicKeyCredential.isConditionalMediationAvailable = (window as unknown as { conditional: typeof PublicKeyCredential.isConditionalMediationAvailable }).conditional;
      });
      await page.getByTestId('logout-button').click();
      await expect.poll(signedInToken).not.toBe(byButton);
      await expect.poll(signedInToken).not.toBeNull();
      await page.waitForURL((url) => url.pathname !== '/login');
      const sessions = (await (await asPage()).get('/api/sessions')).body;
      expect(sessions).toMatchObject([{ current: true }]);
      expect(refused).toEqual([]);
      expect(e2e.consoleErrors.slice(errorsBefore).filter((e) => !/status of 401/.test(e))).toEqual([]);
    } finally {
      e2e.server.config.publicUrl = publicUrl;
    }
  });
});
