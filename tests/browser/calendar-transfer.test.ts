import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { axeViolations, loseFirstAnswer, screenshot, useE2E } from './helpers.ts';

/** Account page, issue 11: the calendar feed card and the import / export card, in a real browser. */
describe('calendar feed and import / export (browser)', () => {
  const e2e = useE2E();

  it('shows, copies, rotates and turns off the feed address; the address serves the calendar', async () => {
    const { page, user } = await e2e.signedInPage();
    await user.api.post('/api/reminders', { message: 'Water the plants', date: '2027-05-01', time: '09:00', recurrence: 'WEEKLY', timezone: 'Europe/Paris' });
    await page.goto(e2e.url('/account'));
    await page.getByTestId('calendar-feed-card').waitFor();
    await page.getByTestId('calendar-feed-show').click();
    const input = page.getByTestId('calendar-feed-url');
    await input.waitFor();
    const url = await input.inputValue();
    expect(url).toMatch(/\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);
    const path = new URL(url).pathname;
    const res = await fetch(e2e.url(path));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await res.text()).toContain('SUMMARY:Water the plants');
    await screenshot(page, 'account-calendar-feed');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByTestId('calendar-feed-rotate').click();
    await page.waitForFunction((old) => (document.querySelector('[data-testid="calendar-feed-url"]') as HTMLInputElement | null)?.value !== old, url);
    const rotated = await input.inputValue();
    expect((await fetch(e2e.url(path))).status).toBe(404);
    expect((await fetch(e2e.url(new URL(rotated).pathname))).status).toBe(200);

    await page.getByTestId('calendar-feed-disable').click();
    await page.getByTestId('calendar-feed-show').waitFor();
    expect((await fetch(e2e.url(new URL(rotated).pathname))).status).toBe(404);
  });

  it('exports a file, then imports one with a bad row: the preview names the row, confirming creates the rest', async () => {
    const { page, user } = await e2e.signedInPage();
    await user.api.post('/api/reminders', { message: 'Exported one', date: '2027-05-01', time: '09:00', recurrence: 'DAILY', timezone: 'Europe/Paris' });
    await page.goto(e2e.url('/account'));
    await page.getByTestId('import-export-card').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    expect(download.suggestedFilename()).toBe(`chime-reminders-${new Date().toISOString().slice(0, 10)}.json`);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(exported.reminders.map((r: { message: string }) => r.message)).toEqual(['Exported one']);

    const file = {
      reminders: [
        { message: 'Imported good', date: '2027-06-01', time: '08:00', timezone: 'America/New_York', recurrence: 'WORKDAYS' },
        { message: 'Imported bad', date: '2027-06-01', time: '25:00', recurrence: 'DAILY' },
        { message: 'Imported custom', date: '2027-06-01', time: '08:00', recurrence: 'CUSTOM', rrule: 'FREQ=MONTHLY;BYDAY=1MO' },
      ],
    };
    await page.getByTestId('import-file').setInputFiles({ name: 'reminders.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByTestId('import-preview').waitFor();
    const errors = await page.getByTestId('import-errors').textContent();
    expect(errors).toContain('Row 2');
    expect(await page.getByTestId('import-preview').textContent()).toContain('Imported custom');
    // Each row's repetition in words (issue 27 #17); the rule itself on hover.
    const repeats = page.getByTestId('import-preview-repeat');
    expect(await repeats.allTextContents()).toEqual(['Every weekday (Monday to Friday)', expect.stringMatching(/^Every month on the first Monday/)]);
    expect(await repeats.nth(1).getAttribute('title')).toBe('FREQ=MONTHLY;BYDAY=1MO');
    // Nothing is created before confirming.
    expect((await user.api.get('/api/reminders')).body).toHaveLength(1);
    await screenshot(page, 'account-import-preview');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByTestId('import-confirm').click();
    await page.getByText('2 reminders imported').waitFor();
    const messages = ((await user.api.get('/api/reminders')).body as Array<{ message: string }>).map((r) => r.message).sort();
    expect(messages).toEqual(['Exported one', 'Imported custom', 'Imported good']);
    expect(await page.getByTestId('import-preview').count()).toBe(0);
  });

  for (const [language, locale, broken, expected] of [
    ['fr', 'fr-FR', { name: 'rappels.csv', text: 'titre;jour\r\nx;y' }, 'La première ligne d’un fichier CSV doit nommer ses colonnes : message, date, time, timezone, recurrence, rrule, exceptions, paused, destinations, alerts (au moins message, date et time).'],
    ['es', 'es-ES', { name: 'recordatorios.json', text: '{"reminders": [' }, 'Este archivo no es un JSON válido.'],
  ] as const) {
    it(`says why a file cannot be read, in the user's language (${language})`, async () => {
      const { page, user } = await e2e.signedInPage({ locale, storage: { language } });
      await page.goto(e2e.url('/account'));
      await page.getByTestId('import-export-card').waitFor();
      await page.getByTestId('import-file').setInputFiles({ name: broken.name, mimeType: 'text/plain', buffer: Buffer.from(broken.text) });
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: expected });
      await toast.waitFor();
      // The parser's own words say where (JSON), under the sentence in the user's language.
      if (broken.name.endsWith('.json')) expect(await toast.locator('[data-description]').textContent()).toMatch(/JSON/);
      expect(await page.getByTestId('import-preview').count()).toBe(0);
      expect((await user.api.get('/api/reminders')).body).toHaveLength(0);
      await screenshot(page, `account-import-unreadable-${language}`);
    });
  }

  it('Import pressed again after a lost answer imports the file once', async () => {
    const { page, user } = await e2e.signedInPage();
    const file = { reminders: [{ message: 'Only once', date: '2027-06-01', time: '08:00', recurrence: 'DAILY' }] };
    // The dry run passes; the first import reaches the server and is saved, its answer is dropped.
    const imports = await loseFirstAnswer(page, (url, request) => url.pathname === '/api/reminders/import' && !(request.postDataJSON() as { dry_run?: boolean }).dry_run, 200);
    await page.goto(e2e.url('/account'));
    await page.getByTestId('import-file').setInputFiles({ name: 'once.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByTestId('import-confirm').click();
    await page.getByText('The import failed. Please try again.').waitFor();
    await page.getByTestId('import-confirm').click();
    await page.getByText('1 reminder imported').waitFor();
    expect(imports).toHaveLength(2);
    expect(imports[1]).toBe(imports[0]);
    expect(((await user.api.get('/api/reminders')).body as unknown[]).length).toBe(1);
  });
});
