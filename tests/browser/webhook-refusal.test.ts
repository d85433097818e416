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

  it("a saved webhook's body template and headers come back in its form; a refused placeholder or header shows under its field, and the fixed ones are saved", async () => {
    const { page, user } = await e2e.signedInPage({ viewport: { width: 390, height: 844 } });
    const created = await user.api.post('/api/reminders', {
      date: '2031-05-05',
      time: '08:00',
      message: 'Stand-up',
      destinations: [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/chat', body_template: '{"text": "{{message}}"}', headers: { Authorization: 'Bearer one' } } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.goto(e2e.url(`/reminders/${created.body.id}`));
    await page.getByText('Custom body (JSON)').waitFor();
    await page.getByTestId('edit-reminder').click();
    const item = page.locator('[data-testid="destination-item"][data-type="webhook"]');
    expect(await item.textContent()).toContain('Webhook · custom body');
    await item.getByTestId('destination-edit').click();
    // Advanced is open on the saved template and header (a saved webhook is tested from its page).
    expect(await item.getByTestId('webhook-body-template').inputValue()).toBe('{"text": "{{message}}"}');
    expect(await item.getByTestId('webhook-header-name').inputValue()).toBe('authorization');
    expect(await item.getByTestId('webhook-header-value').inputValue()).toBe('Bearer one');
    expect(await item.getByTestId('webhook-test').count()).toBe(0);

    await item.getByTestId('webhook-body-template').fill('{"text": "{{mesage}}"}');
    await item.getByTestId('webhook-save').click();
    expect(await item.getByTestId('webhook-body-template-error').textContent()).toContain('“mesage” is not one of the fields');
    await item.getByTestId('webhook-body-template').fill('{"text": "⏰ "}');
    // A field goes where the cursor is.
    await item.getByTestId('webhook-body-template').press('ArrowLeft');
    await item.getByTestId('webhook-body-template').press('ArrowLeft');
    await item.locator('[data-testid="webhook-template-field"]', { hasText: '{{message}}' }).click();
    expect(await item.getByTestId('webhook-body-template').inputValue()).toBe('{"text": "⏰ {{message}}"}');
    await item.getByTestId('webhook-header-add').click();
    await item.getByTestId('webhook-header-name').nth(1).fill('Content-Type');
    await item.getByTestId('webhook-header-value').nth(1).fill('text/html');
    await item.getByTestId('webhook-save').click();
    const headerError = item.getByTestId('webhook-header-row').nth(1).getByTestId('webhook-header-error');
    expect(await headerError.textContent()).toContain('The header “Content-Type” cannot be used');
    await item.getByTestId('webhook-preview-toggle').click();
    expect(await item.getByTestId('webhook-preview').textContent()).toContain('"text": "⏰ Sample \\"reminder\\"\\nwith a new line"');
    await item.getByTestId('webhook-header-name').nth(1).fill('X-Team');
    await item.getByTestId('webhook-save').click();
    await item.getByTestId('destination-edit-panel').waitFor({ state: 'detached' });

    await page.getByTestId('edit-save').click();
    await page.getByTestId('edit-form').waitFor({ state: 'detached' });
    const saved = await user.api.get(`/api/reminders/${created.body.id}`);
    expect(saved.body.destinations).toEqual([
      expect.objectContaining({
        id: created.body.destinations[0].id,
        metadata: { url: 'https://hooks.example.com/chat', platform: 'generic', body_template: '{"text": "⏰ {{message}}"}', body_format: 'json', headers: { authorization: 'Bearer one', 'x-team': 'text/html' } },
      }),
    ]);
  });
});
