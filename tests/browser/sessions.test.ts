import { describe, expect, it } from 'vitest';
import { client } from '../helpers/server.ts';
import { axeViolations, MOBILE, screenshot, useE2E } from './helpers.ts';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** The "Where you are signed in" card of the account page (docs/security.md "Sessions"). */
describe('sessions card (browser)', () => {
  const e2e = useE2E();

  async function signInElsewhere(user: { email: string; password: string }, userAgent: string) {
    const res = await client(e2e.server.url).post('/api/auth/login', { email: user.email, password: user.password }, { 'user-agent': userAgent });
    expect(res.status).toBe(200);
    return client(e2e.server.url, res.body.token);
  }

  it('lists the devices, marks this one, signs one out, then every other one', async () => {
    const { page, user } = await e2e.signedInPage();
    const laptop = await signInElsewhere(user, FIREFOX_WINDOWS);
    const phone = await signInElsewhere(user, SAFARI_IPHONE);
    await page.goto(e2e.url('/account'));
    const card = page.getByTestId('sessions-card');
    await card.waitFor();
    await expect.poll(() => card.getByTestId('session-row').count()).toBe(3);
    expect(await card.getByTestId('session-current').count()).toBe(1);
    const laptopRow = card.getByTestId('session-row').filter({ hasText: 'Firefox 132 on Windows' });
    expect(await laptopRow.getByTestId('session-details').textContent()).toMatch(/^Computer · network 127\.0\.0\.1 · signed in .+ · last seen /);
    await card.getByTestId('session-row').filter({ hasText: 'Safari 18 on iOS 18' }).getByText('Phone').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sessions-card');

    await laptopRow.getByTestId('session-sign-out').click();
    await page.getByTestId('session-sign-out-dialog').waitFor();
    await page.getByTestId('session-sign-out-confirm').click();
    await laptopRow.waitFor({ state: 'detached' });
    expect((await laptop.get('/api/account')).status).toBe(401);
    expect((await phone.get('/api/account')).status).toBe(200);

    await card.getByTestId('sessions-sign-out-others').click();
    await page.getByTestId('session-sign-out-dialog').getByText('Sign out 1 other session?').waitFor();
    await page.getByTestId('session-sign-out-confirm').click();
    await expect.poll(() => card.getByTestId('session-row').count()).toBe(1);
    expect(await card.getByTestId('sessions-sign-out-others').isDisabled()).toBe(true);
    expect((await phone.get('/api/account')).status).toBe(401);
    expect((await user.api.get('/api/account')).status).toBe(200);
    expect(e2e.consoleErrors).toEqual([]);
  });

  it('speaks French and fits a 390 px screen', async () => {
    const user = await e2e.signUp();
    await signInElsewhere(user, FIREFOX_WINDOWS);
    const { page } = await e2e.signedInPage({ user, viewport: MOBILE, locale: 'fr-FR' });
    await page.goto(e2e.url('/account'));
    const card = page.getByTestId('sessions-card');
    await card.getByText('Où vous êtes connecté').waitFor();
    await card.getByText('Firefox 132 sur Windows').waitFor();
    await card.getByText('Celle-ci').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'sessions-card-mobile-fr');
  });
});
