/**
 * The wizard's webhook form refuses an address the server would refuse before adding it: it does
 * not join the list (nor count toward the five webhooks), and the reason shows under the field.
 */
import { describe, expect, it } from 'vitest';
import { openWizardDestinations, useE2E } from './helpers.ts';

describe('a refused webhook address is not added (browser)', () => {
  const e2e = useE2E();

  it('ftp://… is refused with its reason, and a good URL after it is added', async () => {
    const { page } = await e2e.signedInPage();
    await openWizardDestinations(page, e2e.server.url, '2031-05-05');
    await page.getByTestId('toggle-webhook').click();
    await page.getByTestId('webhook-url').fill('ftp://127.0.0.1/x');
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('webhook-url-check').waitFor();
    expect(await page.getByTestId('destination-count').textContent()).toBe('0');
    expect(await page.getByTestId('destination-item').count()).toBe(0);

    await page.getByTestId('webhook-url').fill('https://hooks.example.com/services/ok');
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('destination-item').waitFor();
    expect(await page.getByTestId('destination-count').textContent()).toBe('1');
    expect(await page.getByTestId('webhook-url-check').count()).toBe(0);
  });
});
