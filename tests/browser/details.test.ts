import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookSink, verifyStandardWebhook, type WebhookSink } from '../helpers/webhook-sink.ts';
import { axeViolations, chooseTheme, DESKTOP, horizontalOverflow, MOBILE, screenshot, useE2E } from './helpers.ts';


/**
 * Reminder details page (docs/dashboard.md "Screens and routes"): view in the account zone, pause/resume, webhook test and
 * secret rotation, edit, duplicate, delete, unknown id.
 */
describe('reminder details (browser)', () => {
  const e2e = useE2E();
  let sink: WebhookSink;

  beforeAll(async () => {
    sink = await startWebhookSink();
  });
  afterAll(async () => {
    await sink?.close();
  });

  /** A Paris account (the browser runs in UTC, so any zone mix-up shows) with one weekly reminder. */
  async function setup() {
    const user = await e2e.signUp({ timezone: 'Europe/Paris' });
    const created = await user.api.post('/api/reminders', {
      date: '2030-01-15',
      time: '09:30',
      message: 'Water the plants',
      recurrence: 'WEEKLY',
      destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hooks/plants-secret-token`, platform: 'slack', username: 'Chime bot' } }],
    });
    expect(created.status).toBe(201);
    return { user, reminder: created.body as { id: string; destinations: { id: string }[] } };
  }

  async function openDetails(page: Page, id: string) {
    await page.goto(e2e.url(`/reminders/${id}`));
    await page.getByTestId('reminder-details').waitFor();
  }

  it('shows the reminder in the account time zone, with short id, info card and next occurrences', async () => {
    const { user, reminder } = await setup();
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, reminder.id);

    expect(await page.getByTestId('view-message').textContent()).toBe('Water the plants');
    expect(await page.getByTestId('view-date').textContent()).toBe('Tuesday, January 15, 2030');
    // 09:30 in Paris is 08:30 UTC: the page must not show the browser's (UTC) wall clock.
    expect(await page.getByTestId('view-time').textContent()).toMatch(/^09:30\s?AM$/);
    expect(await page.getByTestId('view-recurrence').textContent()).toBe('Weekly');
    expect(await page.getByTestId('view-zone').textContent()).toMatch(/Paris \(UTC\+0[12]:00\)/);
    expect(await page.getByTestId('short-id').textContent()).toBe(reminder.id.slice(0, 8));
    expect(await page.getByTestId('info-id').textContent()).toBe(reminder.id);
    expect(await page.getByTestId('info-card').getByTestId('status-badge').textContent()).toBe('Active');
    expect((await page.getByTestId('info-created').textContent())?.length).toBeGreaterThan(5);

    await page.getByTestId('occurrence').first().waitFor();
    expect(await page.getByTestId('occurrence').count()).toBe(5);
    const occurrences = await page.getByTestId('occurrence').evaluateAll((els) => els.map((el) => el.getAttribute('data-value')));
    expect(occurrences[0]).toBe('2030-01-15T08:30:00.000Z');
    expect(occurrences[1]).toBe('2030-01-22T08:30:00.000Z');

    const destination = page.getByTestId('destination-item');
    expect(await destination.getAttribute('data-type')).toBe('webhook');
    const text = (await destination.textContent()) ?? '';
    expect(text).toContain('Slack');
    expect(text).toContain('Chime bot');
    // The URL's secret path is not shown.
    expect(text).not.toContain('plants-secret-token');
    await screenshot(page, 'details-light');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('sends a webhook test, rotates the secret (shown once) and warns about a disabled destination', async () => {
    const { user, reminder } = await setup();
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, reminder.id);

    const before = sink.requests.length;
    await page.getByTestId('webhook-test').click();
    await page.getByText('Test delivered (HTTP 200)').waitFor();
    await sink.waitFor(before + 1);

    await page.getByTestId('webhook-rotate').click();
    await page.getByTestId('webhook-rotate-confirm').click();
    const secret = (await page.getByTestId('new-secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('new-secret').getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('new-secret').count()).toBe(0);

    // A destination the scheduler stopped shows its reason as a warning.
    await e2e.server.app.db
      .updateTable('destinations')
      .set({ disabled_at: new Date().toISOString(), disabled_reason: 'HTTP 410 Gone' })
      .where('id', '=', reminder.destinations[0]!.id)
      .execute();
    await page.reload();
    const warning = page.getByTestId('destination-disabled');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('HTTP 410 Gone');
  });

  it("a webhook added by an edit is tested signed, and its secret, the test's, is shown once after the save", async () => {
    const { user, reminder } = await setup();
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, reminder.id);
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('edit-form').waitFor();
    await page.getByTestId('toggle-webhook').click();
    await page.getByTestId('webhook-url').fill(`${sink.url}/hooks/added`);
    const before = sink.requests.length;
    await page.getByTestId('webhook-test').click();
    const shown = /whsec_[^\s.]+=*/.exec((await page.getByTestId('webhook-test-secret').textContent()) ?? '')?.[0] ?? '';
    const [test] = (await sink.waitFor(before + 1)).slice(before);
    expect(verifyStandardWebhook(shown, test!.headers, test!.body)).toBe(true);
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('edit-save').click();

    const dialog = page.getByTestId('secret-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('secret-value').textContent()).toBe(shown);
    // Only the new webhook's: the one saved before keeps its secret, unseen.
    expect(await dialog.getByTestId('secret-value').count()).toBe(1);
  });

  it('pauses and resumes, then edits message, time and recurrence', async () => {
    const { user, reminder } = await setup();
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, reminder.id);
    const headerBadge = page.getByTestId('reminder-details').locator('header').getByTestId('status-badge');

    await page.getByTestId('toggle-pause').click();
    await page.waitForFunction(() => document.querySelector('header [data-testid="status-badge"]')?.getAttribute('data-status') === 'paused');
    expect(await headerBadge.textContent()).toBe('Paused');
    await page.getByTestId('paused-hint').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect((await user.api.get(`/api/reminders/${reminder.id}`)).body.is_paused).toBe(true);
    expect(await page.getByTestId('toggle-pause').textContent()).toContain('Resume');

    await page.getByTestId('toggle-pause').click();
    await page.waitForFunction(() => document.querySelector('header [data-testid="status-badge"]')?.getAttribute('data-status') === 'active');
    expect((await user.api.get(`/api/reminders/${reminder.id}`)).body.is_paused).toBe(false);

    // Edit mode starts from the stored reminder, in its own zone (here also the account's).
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('edit-form').waitFor();
    expect(await page.inputValue('#edit-date')).toBe('2030-01-15');
    expect(await page.inputValue('#edit-time')).toBe('09:30');
    expect(await page.inputValue('#edit-message')).toBe('Water the plants');
    expect(await page.getByTestId('recurrence-WEEKLY').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('#edit-timezone').textContent()).toMatch(/^Paris \(UTC\+0[12]:00\)/);
    expect(await page.getByTestId('destinations-editor').getByTestId('destination-title').count()).toBe(1);
    await screenshot(page, 'details-edit');
    expect(await axeViolations(page)).toEqual([]);

    // Cancel leaves everything as it was.
    await page.fill('#edit-message', 'Something else');
    await page.getByTestId('edit-cancel').click();
    expect(await page.getByTestId('view-message').textContent()).toBe('Water the plants');

    await page.getByTestId('edit-reminder').click();
    await page.fill('#edit-message', 'Water the cactus');
    await page.fill('#edit-time', '18:45');
    await page.getByTestId('recurrence-DAILY').click();
    await page.getByTestId('edit-save').click();
    await page.getByTestId('edit-form').waitFor({ state: 'detached' });
    await page.getByText('Reminder updated').waitFor();
    expect(await page.getByTestId('view-message').textContent()).toBe('Water the cactus');
    expect(await page.getByTestId('view-time').textContent()).toMatch(/^06:45\s?PM$/);
    expect(await page.getByTestId('view-recurrence').textContent()).toBe('Daily');

    const saved = (await user.api.get(`/api/reminders/${reminder.id}`)).body;
    expect(saved).toMatchObject({ message: 'Water the cactus', recurrence_type: 'DAILY', remind_at_utc: '2030-01-15T17:45:00.000Z', timezone: 'Europe/Paris' });
    // The webhook kept its id (and so its signing secret).
    expect(saved.destinations.map((d: { id: string }) => d.id)).toEqual([reminder.destinations[0]!.id]);
  });

  it("edits in the reminder's own zone: a message-only edit keeps it, picking another zone moves it", async () => {
    // A UTC account with a Paris reminder: saving must not move it to the account's zone.
    const user = await e2e.signUp({ timezone: 'UTC' });
    const created = await user.api.post('/api/reminders', {
      date: '2030-01-15',
      time: '09:30',
      timezone: 'Europe/Paris',
      message: 'Call the bakery',
      recurrence: 'WEEKLY',
      destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hooks/bakery`, platform: 'generic' } }],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, id);
    expect(await page.getByTestId('info-timezone').getAttribute('data-value')).toBe('Europe/Paris');

    // The form shows Paris wall clock and Paris, not the account's 08:30 UTC.
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('edit-form').waitFor();
    expect(await page.locator('#edit-timezone').textContent()).toMatch(/^Paris \(UTC\+0[12]:00\)/);
    expect(await page.inputValue('#edit-date')).toBe('2030-01-15');
    expect(await page.inputValue('#edit-time')).toBe('09:30');
    await page.fill('#edit-message', 'Call the bakery at nine thirty');
    await page.getByTestId('edit-save').click();
    await page.getByTestId('edit-form').waitFor({ state: 'detached' });
    await page.getByText('Reminder updated').waitFor();

    let saved = (await user.api.get(`/api/reminders/${id}`)).body;
    expect(saved).toMatchObject({
      message: 'Call the bakery at nine thirty',
      timezone: 'Europe/Paris',
      date: '2030-01-15',
      time: '09:30',
      remind_at_utc: '2030-01-15T08:30:00.000Z',
    });

    // Picking Tokyo keeps the wall clock and moves the instant.
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('edit-form').waitFor();
    await page.locator('#edit-timezone').click();
    await page.getByTestId('timezone-search').fill('tokyo');
    await page.getByTestId('timezone-search').press('Enter');
    expect(await page.locator('#edit-timezone').textContent()).toContain('Tokyo (UTC+09:00)');
    await page.getByTestId('edit-save').click();
    await page.getByTestId('edit-form').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="info-timezone"]')?.getAttribute('data-value') === 'Asia/Tokyo');

    saved = (await user.api.get(`/api/reminders/${id}`)).body;
    expect(saved).toMatchObject({ timezone: 'Asia/Tokyo', date: '2030-01-15', time: '09:30', remind_at_utc: '2030-01-15T00:30:00.000Z' });
    // The view stays in the account's zone (UTC): 09:30 in Tokyo is 00:30 UTC.
    expect(await page.getByTestId('view-time').textContent()).toMatch(/^12:30\s?AM$/);
  });

  it('picks alerts before the reminder in the edit form (at most 3) and shows them on the page', async () => {
    const { user, reminder } = await setup();
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, reminder.id);
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('edit-form').waitFor();
    for (const m of [15, 60, 1440]) await page.getByTestId(`edit-alert-${m}`).click();
    expect(await page.getByTestId('edit-alert-15').getAttribute('aria-pressed')).toBe('true');
    // Three chosen: the others wait until one is taken off.
    expect(await page.getByTestId('edit-alert-5').isDisabled()).toBe(true);
    await page.getByTestId('edit-alert-15').scrollIntoViewIfNeeded();
    await screenshot(page, 'details-edit-alerts', { fullPage: false });
    await page.getByTestId('edit-save').click();
    await page.getByTestId('edit-form').waitFor({ state: 'detached' });
    expect(await page.getByTestId('view-alerts').textContent()).toBe('Alerts before: 1 day before, 1 hour before, 15 minutes before');
    const saved = (await user.api.get(`/api/reminders/${reminder.id}`)).body;
    expect(saved.alerts).toEqual([{ before_minutes: 1440 }, { before_minutes: 60 }, { before_minutes: 15 }]);
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'details-alerts-mobile');
  });

  it('says when a series first fires on another day than the chosen date', async () => {
    const user = await e2e.signUp({ timezone: 'UTC' });
    // 2030-01-19 is a Saturday: a WORKDAYS series chosen then starts on Monday the 21st.
    const workdays = await user.api.post('/api/reminders', {
      date: '2030-01-19',
      time: '09:00',
      timezone: 'Europe/Paris',
      message: 'Stand-up',
      recurrence: 'WORKDAYS',
      destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hooks/standup`, platform: 'generic' } }],
    });
    expect(workdays.status).toBe(201);
    expect(workdays.body.first_occurrence_utc).toBe('2030-01-21T08:00:00.000Z');
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, workdays.body.id);
    // The headline is the next firing (as on the dashboard), not the chosen Saturday.
    expect(await page.getByTestId('view-date').textContent()).toBe('Monday, January 21, 2030');
    expect(await page.getByTestId('view-first-fires').textContent()).toBe('First fires on Monday, January 21, 2030.');

    // French and Spanish say it in their words and date format.
    for (const [language, text] of [
      ['fr', 'Premier envoi le lundi 21 janvier 2030.'],
      ['es', 'Primer envío el lunes, 21 de enero de 2030.'],
    ] as const) {
      const { page: localized } = await e2e.signedInPage({ user, storage: { language } });
      await openDetails(localized, workdays.body.id);
      expect(await localized.getByTestId('view-first-fires').textContent()).toBe(text);
    }

    // A series that starts on its date says nothing more.
    const weekly = await user.api.post('/api/reminders', {
      date: '2030-01-19',
      time: '09:00',
      message: 'Groceries',
      recurrence: 'WEEKLY',
      destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hooks/groceries`, platform: 'generic' } }],
    });
    await openDetails(page, weekly.body.id);
    expect(await page.getByTestId('view-first-fires').count()).toBe(0);
  });

  it('duplicates to a new reminder page, then deletes it after the browser confirm', async () => {
    const { user, reminder } = await setup();
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, reminder.id);

    await page.getByTestId('duplicate-reminder').click();
    await page.waitForURL((url) => url.pathname.startsWith('/reminders/') && !url.pathname.endsWith(reminder.id));
    await page.getByText('Reminder duplicated').waitFor();
    // The copy's webhook has a signing secret of its own, shown once (tests/browser/new-secrets.test.ts).
    const secretDialog = page.getByTestId('secret-dialog');
    await secretDialog.getByTestId('secret-done').click();
    await secretDialog.waitFor({ state: 'hidden' });
    const copyId = new URL(page.url()).pathname.split('/').pop()!;
    await page.waitForFunction((id) => document.querySelector('[data-testid="info-id"]')?.textContent === id, copyId);
    expect(await page.getByTestId('view-message').textContent()).toBe('Water the plants');
    expect((await user.api.get('/api/reminders')).body).toHaveLength(2);

    // Delete asks in the styled dialog, not the browser's confirm() (issue 27 #16); Cancel keeps the reminder.
    let nativeDialogs = 0;
    page.on('dialog', (dialog) => {
      nativeDialogs += 1;
      void dialog.dismiss();
    });
    await page.getByTestId('delete-reminder').click();
    const confirm = page.getByTestId('delete-reminder-confirm');
    await confirm.waitFor();
    expect(await confirm.getByRole('heading').textContent()).toBe('Delete this reminder?');
    expect(await confirm.textContent()).toContain('This action cannot be undone.');
    await confirm.getByTestId('delete-reminder-cancel').click();
    await confirm.waitFor({ state: 'detached' });
    expect(page.url()).toBe(e2e.url(`/reminders/${copyId}`));
    expect((await user.api.get(`/api/reminders/${copyId}`)).status).toBe(200);

    await page.getByTestId('delete-reminder').click();
    await confirm.getByTestId('delete-reminder-confirm-button').click();
    await page.waitForURL(e2e.url('/home'));
    expect(nativeDialogs).toBe(0);
    expect((await user.api.get(`/api/reminders/${copyId}`)).status).toBe(404);
    expect((await user.api.get(`/api/reminders/${reminder.id}`)).status).toBe(200);
  });

  it('sends an unknown id back to the dashboard with a toast', async () => {
    const { page } = await e2e.signedInPage();
    await page.goto(e2e.url('/reminders/00000000-0000-4000-8000-000000000000'));
    await page.getByText('Reminder not found').waitFor();
    await page.waitForURL(e2e.url('/home'));
  });

  it('shows the page and its edit form in dark mode without accessibility violations, and fits them on a 390 px screen', async () => {
    const { user, reminder } = await setup();
    const { page } = await e2e.signedInPage({ user, storage: { 'vite-ui-theme': 'dark' } });
    await openDetails(page, reminder.id);
    await page.getByTestId('occurrence').first().waitFor();
    await screenshot(page, 'details-dark');
    expect(await axeViolations(page)).toEqual([]);

    // The same page in light on a phone (the layout follows the width in CSS alone).
    await chooseTheme(page, 'light');
    await page.setViewportSize(MOBILE);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'details-mobile');
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('edit-form').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'details-edit-mobile');
    expect(await axeViolations(page)).toEqual([]);

    await chooseTheme(page, 'dark');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'details-edit-dark');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('wraps the longer French labels at 360 px instead of overflowing', async () => {
    const { user, reminder } = await setup();
    const { page: fr } = await e2e.signedInPage({ user, viewport: { width: 360, height: 740 }, storage: { language: 'fr' } });
    await openDetails(fr, reminder.id);
    await fr.getByText('Mettre en pause').waitFor();
    expect(await fr.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    expect(await axeViolations(fr)).toEqual([]);
  });

  it('shows a finished reminder as completed with Duplicate and Delete only, and again with Pause and Edit once it has an occurrence ahead (issue 14)', async () => {
    const user = await e2e.signUp();
    const year = new Date().getUTCFullYear() + 1;
    const created = await user.api.post('/api/reminders', { date: `${year}-05-04`, time: '08:00', message: 'Take the pills', recurrence: 'CUSTOM', rrule: 'FREQ=DAILY;COUNT=2' });
    expect(created.status).toBe(201);
    // Skipping both occurrences ends the series.
    for (const day of ['04', '05']) expect((await user.api.post(`/api/reminders/${created.body.id}/skip`, { occurrence: `${year}-05-${day}T08:00:00.000Z` })).status).toBe(200);
    expect((await user.api.get(`/api/reminders/${created.body.id}`)).body.status).toBe('completed');

    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, created.body.id);
    expect(await page.getByTestId('reminder-details').getByTestId('status-badge').first().textContent()).toBe('Completed');
    await page.getByTestId('completed-hint').waitFor();
    expect(await page.getByRole('group', { name: 'Reminder actions' }).getByRole('button').allTextContents()).toEqual(['Duplicate']);
    expect(await page.getByTestId('toggle-pause').count()).toBe(0);
    expect(await page.getByTestId('edit-reminder').count()).toBe(0);
    expect(await page.getByTestId('delete-reminder').isVisible()).toBe(true);
    expect(await page.getByTestId('occurrences-empty').isVisible()).toBe(true);
    await screenshot(page, 'details-completed');

    // Restoring a skipped occurrence gives the series a future again.
    await page.getByTestId('skipped-restore').first().click();
    await page.getByTestId('toggle-pause').waitFor();
    await page.getByTestId('edit-reminder').waitFor();
    expect(await page.getByTestId('completed-hint').count()).toBe(0);
  });

  it('keeps the date tile on one line at 1280 px with the longest English date, and says a preset in words (issue 14)', async () => {
    const user = await e2e.signUp();
    // A Wednesday in September: the longest weekday and month names.
    const year = new Date().getUTCFullYear() + 2;
    const day = [...Array(30).keys()].map((i) => i + 1).find((d) => new Date(Date.UTC(year, 8, d)).getUTCDay() === 3 && d >= 20)!;
    const date = `${year}-09-${String(day).padStart(2, '0')}`;
    const created = await user.api.post('/api/reminders', { date, time: '10:45', message: 'Quarterly review', recurrence: 'WEEKLY' });
    const { page } = await e2e.signedInPage({ user });
    await openDetails(page, created.body.id);
    const tile = page.getByTestId('view-date');
    expect(await tile.textContent()).toBe(`Wednesday, September ${day}, ${year}`);
    const lines = await tile.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
    expect(lines).toBe(1);
    expect(await page.getByTestId('view-recurrence').textContent()).toBe('Weekly');
    expect(await page.getByTestId('view-recurrence-text').textContent()).toBe(created.body.recurrence_text);
    expect(created.body.recurrence_text).toContain('Wednesday');
    await screenshot(page, 'details-date-tile-1280', { fullPage: false });
  });

  it('ran without console errors', () => {
    // 404 of the unknown-id test is an expected network error line.
    const unexpected = e2e.consoleErrors.filter((line) => !/404|Not Found/i.test(line));
    expect(unexpected).toEqual([]);
  });
});
