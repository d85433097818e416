/**
 * Custom repetition in a real browser (issue 9): the wizard's "Custom..." editor with its live
 * summary and next occurrences from the server, a preset given an end, the edit form reopening a
 * stored rule and keeping it, and skip/restore on the details page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, chooseTheme, DESKTOP, horizontalOverflow, MOBILE, openInApp, screenshot, useE2E } from './helpers.ts';

const YEAR = new Date().getUTCFullYear() + 2;
// A Tuesday, the fourth of its month.
const DATE = (() => {
  for (let day = 22; day <= 28; day++) {
    const d = new Date(Date.UTC(YEAR, 2, day));
    if (d.getUTCDay() === 2) return d.toISOString().slice(0, 10);
  }
  throw new Error('no Tuesday');
})();

// The last Friday of that March: a monthly "last Friday" rule anchored on it opens in the editor.
const LAST_FRIDAY = (() => {
  for (let day = 31; day >= 25; day--) {
    const d = new Date(Date.UTC(YEAR, 2, day));
    if (d.getUTCDay() === 5) return d.toISOString().slice(0, 10);
  }
  throw new Error('no Friday');
})();

async function details(page: Page, opts: { message: string }) {
  await page.getByTestId('reminder-date').fill(DATE);
  await page.getByTestId('reminder-time').fill('08:30');
  await page.getByTestId('reminder-message').fill(opts.message);
}

async function createThroughWizard(page: Page) {
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-step-2').waitFor();
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-step-3').waitFor();
  await page.getByTestId('wizard-create').click();
  await page.waitForURL('**/home');
}

describe('custom repetition (browser)', () => {
  const e2e = useE2E();

  it('the Custom... editor builds a rule, shows it in words with the next 5 occurrences, and the API stores it', async () => {
    const { page, user } = await e2e.signedInPage();
    await page.goto(e2e.url('/reminders/create'));
    await page.getByTestId('wizard-step-1').waitFor();
    await details(page, { message: 'Team sync' });
    await page.getByTestId('recurrence-CUSTOM').click();
    const editor = page.getByTestId('custom-repeat-editor');
    await editor.waitFor();
    // Weekly by default, on the date's weekday (Tuesday); add Thursday, every 2 weeks, 6 times.
    expect(await page.getByTestId('custom-freq').inputValue()).toBe('WEEKLY');
    expect(await page.getByTestId('custom-weekday-TU').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('custom-weekday-TH').click();
    await page.getByTestId('custom-interval').fill('2');
    await page.getByTestId('ends-after').check();
    await page.getByTestId('ends-after-count').fill('6');
    const summary = page.getByTestId('repeat-summary');
    await expect.poll(() => summary.textContent(), { timeout: 5000 }).toBe('Every 2 weeks on Tuesday and Thursday, 6 times');
    const next = page.getByTestId('repeat-next').getByRole('listitem');
    await expect.poll(() => next.count()).toBe(5);
    await screenshot(page, 'custom-repeat-editor-light');

    // Monthly on the fourth Tuesday: the options follow the chosen date.
    await page.getByTestId('custom-freq').selectOption('MONTHLY');
    const monthly = page.getByTestId('custom-monthly');
    expect(await monthly.locator('option').allTextContents()).toContain('The fourth Tuesday');
    await monthly.selectOption('nth-weekday');
    await expect.poll(() => summary.textContent()).toBe('Every 2 months on the fourth Tuesday, 6 times');
    await page.getByTestId('custom-freq').selectOption('WEEKLY');

    await createThroughWizard(page);
    const list = await user.api.get('/api/reminders');
    const created = list.body.find((r: { message: string }) => r.message === 'Team sync');
    expect(created).toMatchObject({ recurrence_type: 'CUSTOM', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=6', date: DATE, time: '08:30' });
  });

  it('a preset with an end is stored as its equivalent rule; a bad minute interval is corrected', async () => {
    const { page, user } = await e2e.signedInPage();
    await page.goto(e2e.url('/reminders/create'));
    await page.getByTestId('wizard-step-1').waitFor();
    await details(page, { message: 'Daily until' });
    await page.getByTestId('recurrence-DAILY').click();
    await page.getByTestId('ends-on').check();
    // An end before the first occurrence: the server refuses the rule (RRULE_INVALID, part UNTIL), said inline in words.
    await page.getByTestId('ends-on-date').fill(`${YEAR}-01-02`);
    const error = page.getByTestId('repeat-preview-error');
    await expect.poll(() => error.textContent(), { timeout: 5000 }).toBe('The end date is before the first occurrence: this rule would never fire.');
    await page.getByTestId('ends-on-date').fill(`${YEAR}-04-30`);
    await error.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('repeat-summary').textContent()).toContain('Every day, until');
    await createThroughWizard(page);
    const list = await user.api.get('/api/reminders');
    expect(list.body.find((r: { message: string }) => r.message === 'Daily until')).toMatchObject({ recurrence_type: 'CUSTOM', rrule: `FREQ=DAILY;UNTIL=${YEAR}0430` });
  });

  it('says that 5 minutes is the minimum when an interval of 0 or nothing is raised to it (issue 27 #10)', async () => {
    const { page } = await e2e.signedInPage();
    await page.goto(e2e.url('/reminders/create'));
    await page.getByTestId('wizard-step-1').waitFor();
    await details(page, { message: 'Every few minutes' });
    await page.getByTestId('recurrence-CUSTOM').click();
    await page.getByTestId('custom-freq').selectOption('MINUTELY');
    const interval = page.getByTestId('custom-interval');
    const minimum = page.getByTestId('custom-interval-minimum');
    expect(await interval.inputValue()).toBe('5');
    // 0 typed: said at once, and the field points at it.
    await interval.fill('0');
    expect(await minimum.textContent()).toBe('The shortest interval is 5 minutes.');
    expect(await interval.getAttribute('aria-invalid')).toBe('true');
    expect(await interval.getAttribute('aria-describedby')).toBe(await minimum.getAttribute('id'));
    // Leaving the field raises it to 5 and says so.
    await page.getByTestId('reminder-message').focus();
    await page.waitForFunction(() => (document.querySelector('[data-testid="custom-interval"]') as HTMLInputElement | null)?.value === '5');
    expect(await minimum.textContent()).toBe('The shortest interval is 5 minutes: it is set to 5.');
    // Emptied, the same; a valid interval takes the notice away.
    await interval.fill('');
    await page.getByTestId('reminder-message').focus();
    await page.waitForFunction(() => (document.querySelector('[data-testid="custom-interval"]') as HTMLInputElement | null)?.value === '5');
    expect(await minimum.textContent()).toBe('The shortest interval is 5 minutes: it is set to 5.');
    await interval.fill('15');
    await minimum.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('repeat-summary').textContent(), { timeout: 5000 }).toContain('Every 15 minutes');
  });

  it('the edit form reopens a stored rule and keeps it when only the message changes; the details page shows it in words; skip and restore', async () => {
    const { page, user } = await e2e.signedInPage({ colorScheme: 'dark' });
    page.setDefaultTimeout(20_000);
    const created = await user.api.post('/api/reminders', { date: LAST_FRIDAY, time: '08:30', message: 'Monthly review', recurrence: 'CUSTOM', rrule: 'FREQ=MONTHLY;BYDAY=-1FR' });
    expect(created.status).toBe(201);
    await page.goto(e2e.url(`/reminders/${created.body.id}`));
    await page.getByTestId('reminder-overview').waitFor();
    await screenshot(page, 'details-custom-dark');
    expect(await page.getByTestId('view-recurrence').textContent()).toBe('Every month on the last Friday');
    // The headline is the next occurrence.
    const nextIso = created.body.next_fire_utc as string;

    // Skip the next occurrence from the upcoming list, then restore it.
    const exceptions = async () => (await user.api.get(`/api/reminders/${created.body.id}`)).body.exceptions;
    await page.getByTestId('occurrence-skip').first().click();
    await expect.poll(exceptions).toEqual([nextIso]);
    await page.getByTestId('skipped-occurrences').waitFor();
    // The headline moves on to the next occurrence.
    expect(await page.getByTestId('occurrence').first().getAttribute('data-value')).not.toBe(nextIso);
    await screenshot(page, 'details-skipped-dark');
    // Undo in the toast restores it.
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(exceptions).toEqual([]);
    await page.getByTestId('skipped-occurrences').waitFor({ state: 'detached' });
    // Skip again, then restore it from the skipped list.
    await page.getByTestId('occurrence-skip').first().click();
    await page.getByTestId('skipped-restore').waitFor();
    await page.getByTestId('skipped-restore').dispatchEvent('click');
    await expect.poll(exceptions).toEqual([]);

    // Edit: the editor opens on the rule; changing the message keeps it.
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('edit-form').waitFor();
    expect(await page.getByTestId('recurrence-CUSTOM').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('custom-freq').inputValue()).toBe('MONTHLY');
    expect(await page.getByTestId('custom-monthly').inputValue()).toBe('last-weekday');
    await page.getByTestId('reminder-message').fill('Monthly review (edited)');
    await page.getByTestId('edit-save').click();
    await expect.poll(async () => (await user.api.get(`/api/reminders/${created.body.id}`)).body.message).toBe('Monthly review (edited)');
    expect((await user.api.get(`/api/reminders/${created.body.id}`)).body.rrule).toBe('FREQ=MONTHLY;BYDAY=-1FR');
  });

  it('a rule the editor cannot show is kept as it is', async () => {
    const { page, user } = await e2e.signedInPage({ viewport: { width: 390, height: 844 } });
    const created = await user.api.post('/api/reminders', { date: DATE, time: '08:30', message: 'Odd rule', recurrence: 'CUSTOM', rrule: 'FREQ=MONTHLY;BYMONTHDAY=1,15;BYMONTH=1,7' });
    await page.goto(e2e.url(`/reminders/${created.body.id}`));
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('repeat-raw').waitFor();
    // Said in words (the API's sentence), the rule itself below, untouched.
    expect(await page.getByTestId('repeat-raw-summary').textContent()).toBe(`Custom rule: ${created.body.recurrence_text}`);
    expect(await page.getByTestId('repeat-raw-rule').textContent()).toBe(created.body.rrule);
    await expect.poll(() => page.getByTestId('repeat-next').getByRole('listitem').count()).toBe(5);
    await screenshot(page, 'edit-raw-rule-mobile');
    await page.getByTestId('edit-save').click();
    await expect.poll(async () => (await user.api.get(`/api/reminders/${created.body.id}`)).body.updated_at).not.toBe(created.body.updated_at);
    expect((await user.api.get(`/api/reminders/${created.body.id}`)).body.rrule).toBe('FREQ=MONTHLY;BYMONTH=1,7;BYMONTHDAY=1,15');
  });

  it('takes screenshots of the editor and the details page: light, dark and 390 px (no overflow, no axe violations)', async () => {
    const user = await e2e.signUp();
    const created = await user.api.post('/api/reminders', {
      date: DATE,
      time: '08:30',
      message: 'Stand-up',
      recurrence: 'CUSTOM',
      rrule: `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE;UNTIL=${YEAR + 1}0301`,
    });
    expect(created.status).toBe(201);
    const skipped = (await user.api.get(`/api/reminders/${created.body.id}/occurrences?count=2`)).body.occurrences[1] as string;
    expect((await user.api.post(`/api/reminders/${created.body.id}/skip`, { occurrence: skipped })).status).toBe(200);

    // One page, as a user would look at it: light and dark chosen in the header's menu, the phone
    // layout the same page at 390 px.
    const { page } = await e2e.signedInPage({ user });
    const looksRight = async (name: string) => {
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, name);
      expect(await axeViolations(page)).toEqual([]);
    };

    await page.goto(e2e.url(`/reminders/${created.body.id}`));
    await page.getByTestId('occurrence').first().waitFor();
    await page.getByTestId('skipped-occurrence').waitFor();
    expect(await page.getByTestId('view-recurrence').textContent()).toBe(created.body.recurrence_text);
    await looksRight('custom-details-light');
    await page.setViewportSize(MOBILE);
    await looksRight('custom-details-mobile');
    await page.setViewportSize(DESKTOP);
    await chooseTheme(page, 'dark');
    await looksRight('custom-details-dark');

    await openInApp(page, '/reminders/create');
    await page.getByTestId('wizard-step-1').waitFor();
    await details(page, { message: 'Stand-up' });
    await page.getByTestId('recurrence-CUSTOM').click();
    await page.getByTestId('custom-freq').selectOption('MONTHLY');
    await page.getByTestId('custom-monthly').selectOption('nth-weekday');
    await page.getByTestId('ends-on').check();
    await page.getByTestId('ends-on-date').fill(`${YEAR + 1}-03-01`);
    await expect.poll(() => page.getByTestId('repeat-next').getByRole('listitem').count(), { timeout: 5000 }).toBe(5);
    await looksRight('custom-repeat-editor-dark');
    await chooseTheme(page, 'light');
    await looksRight('custom-repeat-editor-light');
    await page.setViewportSize(MOBILE);
    await looksRight('custom-repeat-editor-mobile');
  });

  it('ran without console errors', () => {
    // The refused rule of the preset-with-an-end test is an expected 400 line.
    expect(e2e.consoleErrors.filter((line) => !/status of 400/.test(line))).toEqual([]);
  });
});
