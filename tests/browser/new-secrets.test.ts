/**
 * New webhooks get new signing secrets, and the dashboard shows them once wherever they are made:
 * after Duplicate (the copy's) and after Import (each imported webhook's), as after Create. A
 * receiver that checks signatures refuses requests signed with a secret it was never given.
 */
import { describe, expect, it } from 'vitest';
import { useE2E } from './helpers.ts';

const HOOK = 'https://hooks.example.com/services/team';

describe('new signing secrets are shown (browser)', () => {
  const e2e = useE2E();

  /** The stored secret of each webhook of an account's reminders, by destination id. */
  async function storedSecrets(reminderIds: string[]) {
    const rows = await e2e.server.app.db.selectFrom('destinations').select(['id', 'reminder_id', 'secret']).where('reminder_id', 'in', reminderIds).where('type', '=', 'webhook').execute();
    return rows;
  }

  it('Duplicate shows the copy’s new secret, then leaves the copy’s page in view', async () => {
    const { page, user } = await e2e.signedInPage();
    const source = await user.api.post('/api/reminders', { date: '2031-03-03', time: '09:00', message: 'Sprint review', destinations: [{ type: 'webhook', metadata: { url: HOOK, platform: 'generic' } }] });
    expect(source.status).toBe(201);
    await page.goto(e2e.url(`/reminders/${source.body.id}`));
    await page.getByTestId('reminder-details').waitFor();
    await page.getByTestId('duplicate-reminder').click();

    const dialog = page.getByTestId('secret-dialog');
    await dialog.waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/reminders/') && !url.pathname.endsWith(source.body.id));
    const copyId = new URL(page.url()).pathname.split('/').pop()!;
    const [stored] = await storedSecrets([copyId]);
    expect(await dialog.getByTestId('secret-value').allTextContents()).toEqual([stored!.secret]);
    expect(stored!.secret).not.toBe(source.body.destinations[0].secret);
    expect(await dialog.textContent()).toContain('The copy has its own webhook signing secret');
    await dialog.getByTestId('secret-done').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction((id) => document.querySelector('[data-testid="info-id"]')?.textContent === id, copyId);
  });

  it('Duplicate of a reminder without webhooks shows no dialog', async () => {
    const { page, user } = await e2e.signedInPage();
    const source = await user.api.post('/api/reminders', { date: '2031-03-03', time: '09:00', message: 'No hooks' });
    await page.goto(e2e.url(`/reminders/${source.body.id}`));
    await page.getByTestId('reminder-details').waitFor();
    await page.getByTestId('duplicate-reminder').click();
    await page.waitForURL((url) => !url.pathname.endsWith(source.body.id));
    await page.getByText('Reminder duplicated').waitFor();
    expect(await page.getByTestId('secret-dialog').count()).toBe(0);
  });

  it('Import shows each imported webhook’s new secret, with the reminder it belongs to', async () => {
    const { page, user } = await e2e.signedInPage({ storage: { language: 'fr' }, locale: 'fr-FR' });
    const file = {
      reminders: [
        { message: 'Revue de sprint', date: '2031-03-03', time: '09:00', recurrence: 'WEEKLY', destinations: [{ type: 'webhook', metadata: { url: `${HOOK}/a`, platform: 'generic' } }] },
        { message: 'Sans webhook', date: '2031-03-04', time: '09:00', recurrence: 'ONCE' },
        { message: 'Deux webhooks', date: '2031-03-05', time: '09:00', recurrence: 'DAILY', destinations: [{ type: 'webhook', metadata: { url: `${HOOK}/b`, platform: 'generic' } }, { type: 'webhook', metadata: { url: `${HOOK}/c`, platform: 'slack' } }] },
      ],
    };
    await page.goto(e2e.url('/account'));
    await page.getByTestId('import-file').setInputFiles({ name: 'rappels.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByTestId('import-confirm').click();
    const dialog = page.getByTestId('secret-dialog');
    await dialog.waitFor();

    const reminders = (await user.api.get('/api/reminders')).body as Array<{ id: string; message: string }>;
    const stored = await storedSecrets(reminders.map((r) => r.id));
    expect(stored).toHaveLength(3);
    const items = dialog.getByTestId('secret-item');
    expect(await items.count()).toBe(3);
    for (const item of await items.all()) {
      const secret = await item.getByTestId('secret-value').textContent();
      const row = stored.find((s) => s.secret === secret);
      expect(row, String(secret)).toBeDefined();
      expect(await item.getByTestId('secret-reminder').textContent()).toBe(reminders.find((r) => r.id === row!.reminder_id)!.message);
    }
    expect(await dialog.textContent()).toContain('Un fichier ne contient aucun secret');
    await dialog.getByTestId('secret-done').click();
    await dialog.waitFor({ state: 'hidden' });
  });
});
