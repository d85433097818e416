/**
 * The calendar with custom repetition (issue 9) and its accessibility (issue 14), in a real browser
 * against the real server: dense series collapse into one chip per day and one entry in the day
 * dialog; one occurrence can be skipped (and restored from the toast or the dialog) and a series
 * deleted; the phone list opens on today; axe finds nothing serious on the calendar.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseTheme, DESKTOP, loadAxe, MOBILE, SAVE_SCREENSHOTS, screenshot, useE2E, waitForSettledColours } from './helpers.ts';


type User = Awaited<ReturnType<ReturnType<typeof useE2E>['signUp']>>;
interface ReminderBody {
  id: string;
  recurrence_text: string;
  exceptions: string[];
  status: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const plusDays = (n: number) => ymd(new Date(Date.now() + n * 86_400_000));
const firstOfMonth = () => ymd(new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)));

async function create(user: User, body: Record<string, unknown>): Promise<ReminderBody> {
  const res = await user.api.post('/api/reminders', { destinations: [], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ReminderBody;
}

async function openHome(page: Page, url: string) {
  await page.goto(url);
  await page.getByTestId('dashboard').waitFor();
}

/** axe on the calendar card (and an open dialog), serious and critical findings only. */
async function calendarAxe(page: Page): Promise<string[]> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await waitForSettledColours(page);
  await loadAxe(page);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: object, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[]; html: string }[] }[] }> } }).axe;
    const include = [['[data-testid="calendar"]'], ['[role="dialog"]'], ['[role="alertdialog"]']].filter(([s]) => document.querySelector(s!));
    const result = await axe.run({ include }, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} ${n.html.slice(0, 120)}`));
  });
}

describe('calendar: custom series, skip, delete series, phone list, accessibility (browser)', () => {
  const e2e = useE2E();
  // Two days ahead: every occurrence of the day is still in the future (skippable).
  const seriesDay = plusDays(2);
  let user: User;
  let stretch: ReminderBody;
  let water: ReminderBody;

  beforeAll(async () => {
    user = await e2e.signUp({ username: 'Ada' });
    // Every 15 minutes for two days from 00:00: 96 a day.
    stretch = await create(user, { date: seriesDay, time: '00:00', message: 'Stretch', recurrence: 'CUSTOM', rrule: 'FREQ=MINUTELY;INTERVAL=15;COUNT=192' });
    water = await create(user, { date: firstOfMonth(), time: '09:00', message: 'Water the plants', recurrence: 'DAILY' });
    await create(user, { date: seriesDay, time: '18:30', message: 'Dentist appointment', recurrence: 'ONCE' });
  });

  const cell = (page: Page, date: string) => page.locator(`[data-testid="calendar-day"][data-date="${date}"]`);

  it('shows a dense series as one chip per day with its count, in the grid and in the list', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    const day = cell(page, seriesDay);
    await day.getByTestId('calendar-series-chip').waitFor();
    expect(await day.getByTestId('calendar-series-chip').count()).toBe(1);
    expect(await day.getByTestId('calendar-series-repetition').textContent()).toBe(stretch.recurrence_text);
    expect(await day.getByTestId('calendar-series-message').textContent()).toBe('Stretch');
    expect(await day.getByTestId('calendar-series-count').textContent()).toBe('×96');
    // The series, Water at 09:00 and the dentist: three entries, not 98 occurrences.
    expect(await day.getByTestId('calendar-day-count').textContent()).toBe('3');
    // The series takes two chip lines: Water and the dentist are "+2 more".
    expect(await day.getByTestId('calendar-chip').count()).toBe(0);
    expect(await day.getByText('+2 more').count()).toBe(1);
    expect(await cell(page, plusDays(3)).getByTestId('calendar-chip').textContent()).toBe('09:00 AMWater the plants');
    // The second day of the series too; the day after it ends holds only Water.
    expect(await cell(page, plusDays(3)).getByTestId('calendar-series-count').textContent()).toBe('×96');
    if (await cell(page, plusDays(4)).count()) expect(await cell(page, plusDays(4)).getByTestId('calendar-series-chip').count()).toBe(0);
    // The day's name starts with what it shows.
    const label = await day.getByTestId('calendar-day-button').getAttribute('aria-label');
    expect(label).toMatch(new RegExp(`^${Number(seriesDay.slice(8))}, .+, 3 reminders$`));
    await page.getByTestId('calendar').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 250));
    await screenshot(page, 'calendar-series-light', { fullPage: false });

    // The reminder list says the rule in words and Completed where the API says so.
    const card = page.locator(`[data-testid="reminder-card"][data-reminder-id="${stretch.id}"]`);
    expect(await card.getByTestId('reminder-card-recurrence').textContent()).toBe(stretch.recurrence_text);

    // The same in dark, only for the eyes (the axe test below checks dark's colours).
    if (SAVE_SCREENSHOTS) {
      const dark = await e2e.signedInPage({ user, storage: { 'vite-ui-theme': 'dark' } });
      await openHome(dark.page, e2e.url('/home'));
      await cell(dark.page, seriesDay).getByTestId('calendar-series-chip').waitFor();
      await dark.page.evaluate(() => window.scrollBy(0, 620));
      await screenshot(dark.page, 'calendar-series-dark', { fullPage: false });
    }
  });

  it('pages through the server cap: an every-5-minutes rule fills the whole grid (288 a day)', async () => {
    const other = await e2e.signUp();
    await create(other, { date: plusDays(1), time: '00:00', message: 'Ping', recurrence: 'CUSTOM', rrule: 'FREQ=MINUTELY;INTERVAL=5' });
    const { page } = await e2e.signedInPage({ user: other });
    await openHome(page, e2e.url('/home'));
    const last = await page.getByTestId('calendar-day').last().getAttribute('data-date');
    // ~12,700 occurrences in the grid's range; the server answers 2,000 per call.
    await cell(page, last!).getByTestId('calendar-series-count').waitFor();
    expect(await cell(page, last!).getByTestId('calendar-series-count').textContent()).toBe('×288');
  });

  it('groups the series in the day dialog, its times behind a disclosure', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    await cell(page, seriesDay).getByTestId('calendar-series-chip').waitFor();
    await cell(page, seriesDay).click();
    const dialog = page.getByTestId('day-dialog');
    await dialog.waitFor();
    expect(await dialog.getByText('3 reminders on this day, 98 times in all').count()).toBe(1);
    const series = dialog.getByTestId('day-series');
    expect(await series.count()).toBe(1);
    expect(await series.getByTestId('day-series-count').textContent()).toBe('×96');
    expect(await series.getByTestId('day-series-span').textContent()).toBe('96 times, from 12:00 AM to 11:45 PM');
    expect(await series.getByTestId('day-reminder-recurrence').textContent()).toBe(stretch.recurrence_text);
    // In time order: the series (from 00:00), Water at 09:00, the dentist at 18:30.
    expect(await dialog.getByTestId('day-reminder-message').allTextContents()).toEqual(['Stretch', 'Water the plants', 'Dentist appointment']);
    const toggle = series.getByTestId('day-series-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await series.getByTestId('day-occurrence').count()).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await series.getByTestId('day-occurrence').count()).toBe(96);
    expect(await series.getByTestId('day-occurrence-time').first().textContent()).toBe('12:00 AM');
    expect(await series.getByTestId('day-occurrence-time').last().textContent()).toBe('11:45 PM');
    // One-time reminders have Delete, series Delete series and Skip this one.
    const dentist = dialog.locator('[data-testid="day-reminder"]', { hasText: 'Dentist appointment' });
    expect(await dentist.getByTestId('day-reminder-delete').textContent()).toBe('Delete');
    expect(await dentist.getByTestId('day-occurrence-skip').count()).toBe(0);
    expect(await series.getByTestId('day-reminder-delete').textContent()).toBe('Delete series');
    await screenshot(page, 'calendar-day-dialog-series-light', { fullPage: false });
    await toggle.click();
    expect(await series.getByTestId('day-occurrence').count()).toBe(0);
  });

  it('skips one occurrence with an undo toast; the API stores and removes the exception', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    await cell(page, seriesDay).getByTestId('calendar-series-chip').waitFor();
    await cell(page, seriesDay).click();
    const dialog = page.getByTestId('day-dialog');
    const series = dialog.getByTestId('day-series');
    await series.getByTestId('day-series-toggle').click();
    const at = `${seriesDay}T10:15:00.000Z`;
    const row = series.locator(`[data-testid="day-occurrence"][data-at="${at}"]`);
    await row.getByTestId('day-occurrence-skip').click();

    const toast = page.locator('[data-sonner-toast]', { hasText: 'Skipped' });
    await toast.waitFor();
    const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(at));
    expect(await toast.textContent()).toContain(`Skipped ${longDate} at 10:15 AM`);
    await row.waitFor({ state: 'detached' });
    expect(await series.getByTestId('day-occurrence').count()).toBe(95);
    expect(await series.getByTestId('day-series-count').textContent()).toBe('×95');
    // Focus moved on to the next occurrence's Skip, and the skipped one waits in "Skipped on this day".
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="day-occurrence"]')?.getAttribute('data-at'))).toBe(`${seriesDay}T10:30:00.000Z`);
    expect(await dialog.getByTestId('day-skipped-occurrence').getAttribute('data-at')).toBe(at);
    expect(((await user.api.get(`/api/reminders/${stretch.id}`)).body as ReminderBody).exceptions).toEqual([at]);
    const occurrences = await user.api.get(`/api/reminders/${stretch.id}/occurrences?from=${seriesDay}T10:00:00Z&to=${seriesDay}T11:00:00Z`);
    expect((occurrences.body as { occurrences: string[] }).occurrences).toEqual([`${seriesDay}T10:00:00.000Z`, `${seriesDay}T10:30:00.000Z`, `${seriesDay}T10:45:00.000Z`]);
    await screenshot(page, 'calendar-skip-toast', { fullPage: false });

    // Undo from the toast: the dialog stays open and the occurrence is back.
    await toast.getByRole('button', { name: 'Undo' }).click();
    await row.waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await series.getByTestId('day-occurrence').count()).toBe(96);
    await dialog.getByTestId('day-skipped').waitFor({ state: 'detached' });
    await expect.poll(async () => ((await user.api.get(`/api/reminders/${stretch.id}`)).body as ReminderBody).exceptions).toEqual([]);

    // A single occurrence of a daily series: Skip this one, then Restore from the dialog.
    const waterAt = `${seriesDay}T09:00:00.000Z`;
    const waterItem = dialog.locator(`[data-testid="day-reminder"][data-at="${waterAt}"]`);
    await waterItem.getByTestId('day-occurrence-skip').click();
    await waterItem.waitFor({ state: 'detached' });
    await expect.poll(async () => ((await user.api.get(`/api/reminders/${water.id}`)).body as ReminderBody).exceptions).toEqual([waterAt]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The grid no longer counts it: the series and the dentist.
    expect(await cell(page, seriesDay).getByTestId('calendar-day-count').textContent()).toBe('2');
    await cell(page, seriesDay).click();
    await dialog.getByTestId('day-skipped-restore').click();
    await dialog.locator(`[data-testid="day-reminder"][data-at="${waterAt}"]`).waitFor();
    await expect.poll(async () => ((await user.api.get(`/api/reminders/${water.id}`)).body as ReminderBody).exceptions).toEqual([]);
  });

  it('deletes a whole series after a confirmation naming all its occurrences', async () => {
    const other = await e2e.signUp();
    const gone = await create(other, { date: seriesDay, time: '00:00', message: 'Hydrate', recurrence: 'CUSTOM', rrule: 'FREQ=HOURLY' });
    const once = await create(other, { date: seriesDay, time: '12:00', message: 'Lunch with Sam', recurrence: 'ONCE' });
    const { page } = await e2e.signedInPage({ user: other });
    await openHome(page, e2e.url('/home'));
    await cell(page, seriesDay).getByTestId('calendar-series-chip').waitFor();
    await cell(page, seriesDay).click();
    const dialog = page.getByTestId('day-dialog');
    await dialog.getByTestId('day-series').getByTestId('day-reminder-delete').click();
    const confirm = page.getByTestId('delete-confirm');
    await confirm.waitFor();
    expect(await confirm.getByRole('heading').textContent()).toBe('Delete the whole series?');
    expect(await confirm.getByTestId('delete-confirm-description').textContent()).toBe(
      'All occurrences of “Hydrate” will be deleted, past and future. This action cannot be undone.',
    );
    expect(await confirm.getByRole('button').allTextContents()).toEqual(['Cancel', 'Delete series']);
    await screenshot(page, 'calendar-delete-series-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    // A one-time reminder keeps the plain confirmation.
    await dialog.locator('[data-testid="day-reminder"]', { hasText: 'Lunch with Sam' }).getByTestId('day-reminder-delete').click();
    expect(await confirm.getByRole('heading').textContent()).toBe('Delete Reminder?');
    expect(await confirm.getByTestId('delete-confirm-description').textContent()).toBe('This action cannot be undone.');
    // The reminder's text reads as a quotation, not as a box that looks like an input (issue 14).
    const quoted = confirm.getByTestId('delete-confirm-message');
    expect(await quoted.textContent()).toBe('Lunch with Sam');
    expect(await quoted.evaluate((el) => ({ tag: el.tagName, border: getComputedStyle(el).borderTopWidth }))).toEqual({ tag: 'BLOCKQUOTE', border: '0px' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    await dialog.getByTestId('day-series').getByTestId('day-reminder-delete').click();
    await confirm.getByRole('button', { name: 'Delete series' }).click();
    await dialog.getByTestId('day-series').waitFor({ state: 'detached' });
    expect((await other.api.get(`/api/reminders/${gone.id}`)).status).toBe(404);
    expect((await other.api.get(`/api/reminders/${once.id}`)).status).toBe(200);
    await page.keyboard.press('Escape');
    expect(await cell(page, seriesDay).getByTestId('calendar-series-chip').count()).toBe(0);
  });

  it('shows Completed and the rule in words in the list for a finished custom series', async () => {
    const other = await e2e.signUp();
    const done = await create(other, { date: plusDays(1), time: '08:00', message: 'Take the pills', recurrence: 'CUSTOM', rrule: 'FREQ=DAILY;COUNT=2' });
    for (const day of [1, 2]) expect((await other.api.post(`/api/reminders/${done.id}/skip`, { occurrence: `${plusDays(day)}T08:00:00.000Z` })).status).toBe(200);
    expect(((await other.api.get(`/api/reminders/${done.id}`)).body as ReminderBody).status).toBe('completed');
    const { page } = await e2e.signedInPage({ user: other });
    await openHome(page, e2e.url('/home'));
    const card = page.locator(`[data-testid="reminder-card"][data-reminder-id="${done.id}"]`);
    expect(await card.getByTestId('status-badge').textContent()).toBe('Completed');
    expect(await card.getByTestId('reminder-card-recurrence').textContent()).toBe(done.recurrence_text);
  });

  it('opens the phone list on today, inside its own scroll area', async () => {
    const { page } = await e2e.signedInPage({ user, viewport: MOBILE });
    await openHome(page, e2e.url('/home'));
    const scroller = page.getByTestId('calendar-day-list-scroller');
    const today = plusDays(0);
    const todayRow = scroller.locator(`[data-testid="calendar-list-day"][data-date="${today}"]`);
    await todayRow.waitFor();
    // Water fires every day from the 1st: every day of the month is listed.
    expect(await scroller.getByTestId('calendar-list-day').first().getAttribute('data-date')).toBe(firstOfMonth());
    await expect
      .poll(() =>
        todayRow.evaluate((row) => {
          const list = row.parentElement!.getBoundingClientRect();
          const box = row.getBoundingClientRect();
          return box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
        }),
      )
      .toBe(true);
    const daysBefore = Number(today.slice(8)) - 1;
    if (daysBefore >= 8) {
      expect(await scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      const first = scroller.getByTestId('calendar-list-day').first();
      expect(await first.evaluate((row) => row.getBoundingClientRect().bottom <= row.parentElement!.getBoundingClientRect().top + 1)).toBe(true);
    }
    // The page itself did not move.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const series = scroller.locator(`[data-testid="calendar-list-day"][data-date="${seriesDay}"]`);
    if (seriesDay.slice(0, 7) === today.slice(0, 7)) expect(await series.getByTestId('calendar-series-count').textContent()).toBe('×96');
    await scroller.scrollIntoViewIfNeeded();
    await screenshot(page, 'calendar-mobile-list', { fullPage: false });
    await todayRow.click();
    await page.getByTestId('day-dialog').waitFor();
    await screenshot(page, 'calendar-mobile-dialog', { fullPage: false });
    if (seriesDay.slice(0, 7) === today.slice(0, 7)) {
      await page.keyboard.press('Escape');
      await page.getByTestId('day-dialog').waitFor({ state: 'detached' });
      await series.click();
      await page.getByTestId('day-series-toggle').click();
      await page.getByTestId('day-occurrence').first().waitFor();
      await screenshot(page, 'calendar-mobile-dialog-series', { fullPage: false });
    }
  });

  // One test per theme: each sweep loads the page once and runs axe four times.
  for (const theme of ['light', 'dark'] as const) {
    it(`has no serious axe finding on the calendar and the day dialog (${theme}, desktop and 390 px)`, async () => {
      const found: string[] = [];
      // One page, as a user would see it: the theme chosen in the header's menu, the phone layout
      // the same page at 390 px (the calendar's layout follows the width in CSS alone).
      const { page } = await e2e.signedInPage({ user });
      await openHome(page, e2e.url('/home'));
      if (theme === 'dark') await chooseTheme(page, 'dark');
      for (const phone of [false, true]) {
        await page.setViewportSize(phone ? MOBILE : DESKTOP);
        const tag = `${theme} ${phone ? '390px' : 'desktop'}`;
        const day = phone ? page.locator(`[data-testid="calendar-list-day"][data-date="${plusDays(0)}"]`) : cell(page, seriesDay);
        await (phone ? day : day.getByTestId('calendar-series-chip')).waitFor();
        found.push(...(await calendarAxe(page)).map((l) => `${tag} calendar: ${l}`));
        await day.click();
        const dialog = page.getByTestId('day-dialog');
        await dialog.waitFor();
        if (await dialog.getByTestId('day-series-toggle').count()) await dialog.getByTestId('day-series-toggle').click();
        found.push(...(await calendarAxe(page)).map((l) => `${tag} dialog: ${l}`));
        if (!phone) await screenshot(page, `calendar-day-dialog-series-${theme}`, { fullPage: false });
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});
