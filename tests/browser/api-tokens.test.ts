import { describe, expect, it } from 'vitest';
import { client } from '../helpers/server.ts';
import { axeViolations, chooseOption, chooseTheme, horizontalOverflow, MOBILE, screenshot, useE2E } from './helpers.ts';

/** The "API tokens" card of the account page and the API reference at /api/docs (docs/api.md). */
describe('API tokens and reference (browser)', () => {
  const e2e = useE2E();

  it('creates a token shown once, lists its last use, and revokes it', async () => {
    const { page, user } = await e2e.signedInPage();
    await page.goto(e2e.url('/account'));
    const card = page.getByTestId('api-tokens-card');
    await card.waitFor();
    await card.getByText('No tokens yet.').waitFor();

    await card.getByTestId('api-token-name-input').fill('Home Assistant');
    await card.getByTestId('api-token-access').click();
    await chooseOption(page, page.getByTestId('api-token-access-write'));
    await card.getByTestId('api-token-expiry').click();
    await chooseOption(page, page.getByTestId('api-token-expiry-never'));
    await card.getByTestId('api-token-create').click();

    const secret = await card.getByTestId('api-token-secret').inputValue();
    expect(secret).toMatch(/^chime_pat_[A-Za-z0-9_-]{43}$/);
    const row = card.getByTestId('api-token-row');
    await row.waitFor();
    expect(await row.getByTestId('api-token-name').textContent()).toBe('Home Assistant');
    expect(await row.textContent()).toContain('write');
    expect(await row.getByTestId('api-token-details').textContent()).toMatch(/never expires · never used/);
    await screenshot(page, 'api-tokens-created');
    expect(await axeViolations(page)).toEqual([]);

    // The token works for a script, with the scopes chosen.
    const script = client(e2e.server.url, secret);
    expect((await script.post('/api/reminders', { date: '2031-01-01', time: '08:00', message: 'from a script', timezone: 'UTC' })).status).toBe(201);

    // Shown once: gone after "Done" and after a reload; the list shows the use.
    await card.getByTestId('api-token-done').click();
    await card.getByTestId('api-token-secret').waitFor({ state: 'detached' });
    await page.reload();
    await card.waitFor();
    await card.getByTestId('api-token-details').getByText(/last used/).waitFor();
    expect(await page.content()).not.toContain(secret);

    await card.getByTestId('api-token-revoke').click();
    await page.getByTestId('api-token-revoke-dialog').waitFor();
    await page.getByTestId('api-token-revoke-confirm').click();
    await card.getByText('No tokens yet.').waitFor();
    expect((await script.get('/api/reminders')).status).toBe(401);
    expect((await user.api.get('/api/tokens')).body).toEqual([]);
    expect(e2e.consoleErrors).toEqual([]);
  });

  it('looks right in dark mode and on a 390 px screen', async () => {
    const user = await e2e.signUp();
    await user.api.post('/api/tokens', { name: 'Shortcuts on my phone', scopes: ['reminders:read'], expires_in_days: 30 });
    await user.api.post('/api/tokens', { name: 'n8n', scopes: ['reminders:read', 'reminders:write'] });
    // One page: dark on a desktop, then light at 390 px (theme from the header menu, phone by resizing).
    const { page } = await e2e.signedInPage({ user, storage: { 'vite-ui-theme': 'dark' } });
    await page.goto(e2e.url('/account'));
    const card = page.getByTestId('api-tokens-card');
    await card.getByTestId('api-token-row').nth(1).waitFor();
    for (const name of ['api-tokens-dark', 'api-tokens-mobile'] as const) {
      if (name === 'api-tokens-mobile') {
        await chooseTheme(page, 'light');
        await page.setViewportSize(MOBILE);
      }
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, name);
      // Nothing wider than the screen.
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    }
  });

  it('renders the API reference at /api/docs under the Content-Security-Policy', async () => {
    const page = await e2e.newPage();
    const response = await page.goto(e2e.url('/api/docs'));
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.getByText('Chime API').first().waitFor();
    await page.getByText('Create an access token; its secret is in this answer only').waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(50);
    await screenshot(page, 'api-docs');
    // A refused inline script or style would show up here.
    expect(e2e.consoleErrors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
  });
});
