import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { axeViolations, screenshot, useE2E } from './helpers.ts';

const codeAt = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: ms });

/** Two-factor codes on the account page and the sign-in page's code step (docs/security.md). */
describe('two-factor codes (browser)', () => {
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
});
