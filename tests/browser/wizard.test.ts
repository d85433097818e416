/**
 * Create-reminder wizard in a real browser: validation, recurrence, a webhook destination aimed at a
 * local sink (with a test send), the review step's occurrences, the one-time signing secret, and
 * the failure path when the server refuses the webhook address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, MOBILE, SAVE_SCREENSHOTS, screenshot as rawScreenshot, useE2E } from './helpers.ts';
import { verifyStandardWebhook } from '../helpers/webhook-sink.ts';

/** Full-page shot from the top (a scrolled page would paint the sticky header mid-page). */
async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  if (options.fullPage !== false) await page.evaluate(() => window.scrollTo(0, 0));
  return rawScreenshot(page, name, options);
}

interface SinkRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A tiny webhook receiver on 127.0.0.1 that records every request and answers 200. */
async function startSink() {
  const requests: SinkRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-06-15`;
/** Today's date in UTC (the test accounts' zone). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

async function fillDetails(page: Page, opts: { date?: string; time?: string; message?: string } = {}) {
  await page.getByTestId('reminder-date').fill(opts.date ?? FUTURE_DATE);
  await page.getByTestId('reminder-time').fill(opts.time ?? '09:30');
  await page.getByTestId('reminder-message').fill(opts.message ?? 'Water the plants');
}

async function openWizard(page: Page, url: string) {
  await page.goto(url);
  await page.getByTestId('wizard-step-1').waitFor();
}

describe('create-reminder wizard (browser)', () => {
  const e2e = useE2E();
  let sink: Awaited<ReturnType<typeof startSink>>;

  beforeAll(async () => {
    sink = await startSink();
  });
  afterAll(async () => {
    await sink?.close();
  });

  it('step 1: Next stays disabled until a date and a non-blank message are set; messages, counter, recurrence buttons', async () => {
    const { page } = await e2e.signedInPage();
    await openWizard(page, e2e.url('/reminders/create'));
    expect(await page.getByTestId('step-counter').textContent()).toBe('Step 1 of 3');
    expect(await page.getByTestId('back-to-dashboard').getAttribute('href')).toBe('/home');
    // Time defaults to the current time (account zone: UTC; the browser is in UTC too).
    const time = await page.getByTestId('reminder-time').inputValue();
    expect(time).toMatch(/^\d{2}:\d{2}$/);
    const now = new Date();
    const minutes = Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
    const diff = Math.abs(minutes - (now.getUTCHours() * 60 + now.getUTCMinutes()));
    expect(Math.min(diff, 1440 - diff)).toBeLessThanOrEqual(2);
    expect(await page.getByTestId('reminder-timezone').textContent()).toContain('UTC');
    // The date starts on today, in the account zone (issue 27 #6).
    expect(await page.getByTestId('reminder-date').inputValue()).toBe(todayUtc());
    expect(await page.getByTestId('reminder-in-past').count()).toBe(0);

    const next = page.getByTestId('wizard-next');
    expect(await next.isDisabled()).toBe(true);

    // Leaving the empty fields shows their messages.
    await page.getByTestId('reminder-date').fill('');
    await page.getByTestId('reminder-date').focus();
    await page.getByTestId('reminder-message').focus();
    await page.getByTestId('reminder-time').focus();
    expect(await page.getByTestId('reminder-date-error').textContent()).toBe('Please select a date');
    expect(await page.getByTestId('reminder-message-error').textContent()).toBe('Please enter a message');

    await page.getByTestId('reminder-message').fill('   ');
    await page.getByTestId('reminder-date').fill(FUTURE_DATE);
    expect(await page.getByTestId('reminder-date-error').count()).toBe(0);
    expect(await next.isDisabled()).toBe(true); // blank message
    await page.getByTestId('reminder-message').fill('Hello');
    expect(await page.getByTestId('reminder-message-counter').textContent()).toBe('5 / 2000');
    expect(await page.getByTestId('reminder-message').getAttribute('maxlength')).toBe('2000');
    expect(await next.isDisabled()).toBe(false);
    await page.getByTestId('reminder-date').fill('');
    expect(await next.isDisabled()).toBe(true);
    expect(await page.getByTestId('reminder-date-error').textContent()).toBe('Please select a date');
    await page.getByTestId('reminder-date').fill(FUTURE_DATE);

    // Eight presets and Custom..., ONCE pressed by default, exactly one pressed at a time.
    const options = page.getByTestId('recurrence-options').getByRole('button');
    expect(await options.count()).toBe(9);
    expect(await options.allTextContents()).toEqual(['Once', 'Yearly', 'Monthly', 'Weekly', 'Daily', 'Hourly', 'Workdays', 'Weekend', 'Custom…']);
    expect(await page.getByTestId('recurrence-ONCE').getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Workdays' }).click();
    expect(await page.getByTestId('recurrence-WORKDAYS').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('recurrence-ONCE').getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('recurrence-hint').textContent()).toBe('Monday to Friday, at this time.');
    await screenshot(page, 'wizard-step1-light');

    // Back to the dashboard: the form is half-filled, so it asks first.
    await page.getByTestId('back-to-dashboard').click();
    await page.getByTestId('leave-confirm').getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(e2e.url('/home'));
  });

  it('"Or type when" fills the date, time and repetition from words, says what it read, and says why it cannot read others', async () => {
    const { page } = await e2e.signedInPage();
    await openWizard(page, e2e.url('/reminders/create'));
    await page.getByTestId('schedule-text-input').fill('every monday at 9');
    await page.getByTestId('schedule-text-read').click();
    const result = page.getByTestId('schedule-text-result');
    await page.waitForFunction(() => document.querySelector('[data-testid="schedule-text-result"]')?.getAttribute('data-status') === 'read');
    expect(await result.textContent()).toMatch(/^Set to .*Monday.*, first on Monday/);
    expect(await page.getByTestId('recurrence-WEEKLY').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('reminder-time').inputValue()).toBe('09:00');
    const date = await page.getByTestId('reminder-date').inputValue();
    expect(new Date(`${date}T12:00:00Z`).getUTCDay()).toBe(1);
    // The fields stay the user's: the review shows what will be saved.
    await page.getByTestId('reminder-message').fill('Stand-up');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    expect(await page.getByTestId('review-recurrence').textContent()).toBe('Weekly');
    await page.getByTestId('wizard-back').click();
    await page.getByTestId('wizard-back').click();

    await page.getByTestId('schedule-text-input').fill('whenever you like');
    await page.getByTestId('schedule-text-read').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="schedule-text-result"]')?.getAttribute('data-status') === 'failed');
    expect(await result.textContent()).toContain('No date or time could be read in these words');
    // A failed reading changes nothing.
    expect(await page.getByTestId('reminder-time').inputValue()).toBe('09:00');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('creates a DAILY reminder with a webhook: test send, 5 occurrences, signing secret, toast, /home, saved as typed', async () => {
    const user = await e2e.signUp({ timezone: 'Europe/Paris' });
    const { page } = await e2e.signedInPage({ user });
    await openWizard(page, e2e.url('/reminders/create'));
    expect(await page.getByTestId('reminder-timezone').textContent()).toMatch(/Paris \(UTC\+0[12]:00\)/);
    await fillDetails(page, { message: 'Stand-up in 5 minutes' });
    await page.getByTestId('recurrence-DAILY').click();
    await page.getByTestId('wizard-next').click();

    // Step 2: destinations (optional). No Discord here: DM and channel are disabled.
    await page.getByTestId('wizard-step-2').waitFor();
    expect(await page.getByTestId('step-counter').textContent()).toBe('Step 2 of 3');
    await page.getByTestId('destinations-empty').waitFor();
    expect(await page.getByTestId('add-dm').isDisabled()).toBe(true);
    expect(await page.getByTestId('add-channel').isDisabled()).toBe(true);
    // The hints follow the server's capabilities, which may arrive after the step is drawn.
    await page.waitForFunction(() => document.querySelector('[data-testid="dm-hint"]')?.textContent === 'Discord is not configured on this server');
    expect(await page.getByTestId('dm-hint').textContent()).toBe('Discord is not configured on this server');
    expect(await page.getByTestId('channel-hint').textContent()).toBe('Discord is not configured on this server');
    await page.getByTestId('toggle-webhook').click();
    const add = page.getByTestId('webhook-add');
    expect(await add.isDisabled()).toBe(true);
    expect(await page.getByTestId('webhook-test').isDisabled()).toBe(true);
    // Username only for Discord and Slack.
    expect(await page.getByTestId('webhook-username').count()).toBe(0);
    await page.getByTestId('webhook-platform').click();
    await page.getByTestId('webhook-platform-slack').click();
    await page.getByTestId('webhook-username').waitFor();
    await page.getByTestId('webhook-platform').click();
    await page.getByTestId('webhook-platform-generic').click();
    expect(await page.getByTestId('webhook-username').count()).toBe(0);
    // No client-side format check: any non-blank text enables Add.
    await page.getByTestId('webhook-url').fill('  ');
    expect(await add.isDisabled()).toBe(true);
    await page.getByTestId('webhook-url').fill('not a url');
    expect(await add.isDisabled()).toBe(false);

    const hookUrl = `${sink.url}/hooks/chime?k=1`;
    await page.getByTestId('webhook-url').fill(hookUrl);
    await page.getByTestId('webhook-test').click();
    const result = page.getByTestId('webhook-test-result');
    await page.waitForFunction(() => document.querySelector('[data-testid="webhook-test-result"]')?.getAttribute('data-status') === 'ok', undefined, { timeout: 10_000 });
    expect(await result.textContent()).toContain('HTTP 200');
    expect(sink.requests.length).toBe(1);
    expect(sink.requests[0]!.method).toBe('POST');
    expect(sink.requests[0]!.url).toBe('/hooks/chime?k=1');
    // Signed like a saved webhook, with the secret shown under the result, which the save keeps.
    const testSecret = /whsec_\S+/.exec((await page.getByTestId('webhook-test-secret').textContent()) ?? '')?.[0].replace(/\.$/, '');
    expect(verifyStandardWebhook(testSecret!, sink.requests[0]!.headers, sink.requests[0]!.body)).toBe(true);
    await screenshot(page, 'wizard-step2-webhook-light');

    await add.click();
    const items = page.getByTestId('destination-item');
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    expect(await items.first().getByTestId('destination-title').textContent()).toBe(`${new URL(sink.url).host}/hooks/…`);
    expect(await page.getByTestId('webhook-url').inputValue()).toBe('');
    await page.getByTestId('wizard-next').click();

    // Step 3: review.
    await page.getByTestId('review-step').waitFor();
    expect(await page.getByTestId('step-counter').textContent()).toBe('Step 3 of 3');
    expect(await page.getByTestId('review-message').textContent()).toBe('Stand-up in 5 minutes');
    expect(await page.getByTestId('review-recurrence').textContent()).toBe('Daily');
    expect(await page.getByTestId('review-when').textContent()).toContain('9:30');
    expect(await page.getByTestId('review-destination').count()).toBe(1);
    await page.getByTestId('review-occurrences').waitFor();
    const occurrences = page.getByTestId('review-occurrence');
    await occurrences.nth(4).waitFor();
    expect(await occurrences.count()).toBe(5);
    // 09:30 in Paris in June is 07:30 UTC; one per day; shown in Paris time.
    const isos = await occurrences.evaluateAll((els) => els.map((el) => el.getAttribute('data-iso')));
    expect(isos[0]).toBe(`${FUTURE_DATE}T07:30:00.000Z`);
    expect(Date.parse(isos[4]!) - Date.parse(isos[0]!)).toBe(4 * 86_400_000);
    expect(await occurrences.first().textContent()).toContain('9:30');
    await screenshot(page, 'wizard-step3-light');

    // Back keeps what was entered.
    await page.getByTestId('wizard-back').click();
    expect(await page.getByTestId('destination-item').count()).toBe(1);
    await page.getByTestId('wizard-back').click();
    expect(await page.getByTestId('reminder-message').inputValue()).toBe('Stand-up in 5 minutes');
    expect(await page.getByTestId('recurrence-DAILY').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();

    await page.getByTestId('wizard-create').click();
    const dialog = page.getByTestId('secret-dialog');
    await dialog.waitFor();
    expect(await dialog.getByText('Save your signing secret').count()).toBe(1);
    expect(await dialog.getByText('It is shown only once').count()).toBe(1);
    const secret = await dialog.getByTestId('secret-value').textContent();
    expect(secret).toBe(testSecret);
    await screenshot(page, 'wizard-secret-dialog-light', { fullPage: false });
    expect(new URL(page.url()).pathname).toBe('/reminders/create'); // not before the dialog closes
    await dialog.getByTestId('secret-done').click();
    await page.waitForURL(e2e.url('/home'));
    await page.getByText('Reminder created successfully!').waitFor();

    const list = await user.api.get('/api/reminders');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    const reminder = list.body[0];
    expect(reminder).toMatchObject({ date: FUTURE_DATE, time: '09:30', recurrence_type: 'DAILY', message: 'Stand-up in 5 minutes', timezone: 'Europe/Paris' });
    expect(reminder.remind_at_utc).toBe(`${FUTURE_DATE}T07:30:00.000Z`);
    expect(reminder.destinations).toHaveLength(1);
    expect(reminder.destinations[0]).toMatchObject({ type: 'webhook', metadata: { url: hookUrl, platform: 'generic' } });
    expect(reminder.destinations[0].secret).toBeUndefined();
  }, 60_000);

  it('creates a reminder without destinations (no secret dialog) and prefills the date from ?date=', async () => {
    const { page, user } = await e2e.signedInPage();
    await openWizard(page, e2e.url(`/reminders/create?date=${FUTURE_DATE}`));
    expect(await page.getByTestId('reminder-date').inputValue()).toBe(FUTURE_DATE);
    await page.getByTestId('reminder-time').fill('18:05');
    await page.getByTestId('reminder-message').fill('Call mum');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click(); // destinations are optional
    await page.getByTestId('review-no-destinations').waitFor();
    await page.getByTestId('review-occurrences').waitFor();
    expect(await page.getByTestId('review-occurrence').count()).toBe(1); // ONCE
    await page.getByTestId('wizard-create').click();
    await page.waitForURL(e2e.url('/home'));
    await page.getByText('Reminder created successfully!').waitFor();
    const list = await user.api.get('/api/reminders');
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ date: FUTURE_DATE, time: '18:05', recurrence_type: 'ONCE', destinations: [] });

    // An impossible date in the query is ignored.
    await openWizard(page, e2e.url('/reminders/create?date=2030-02-30'));
    expect(await page.getByTestId('reminder-date').inputValue()).toBe(todayUtc());
  });

  it('a past date and time: the review step says so once and Create is disabled until a later date (issue 10)', async () => {
    const { page, user } = await e2e.signedInPage();
    await openWizard(page, e2e.url('/reminders/create'));
    await fillDetails(page, { date: '2020-01-01' });
    // Flagged where it is typed (issue 27 #6), and the time field points at the reason.
    const flag = page.getByTestId('reminder-in-past');
    expect(await flag.textContent()).toBe('This date and time are already past: pick a later time.');
    expect(await page.getByTestId('reminder-time').getAttribute('aria-describedby')).toContain(await flag.getAttribute('id'));
    // A series that started in the past still has occurrences to come: not flagged.
    await page.getByTestId('recurrence-options').getByRole('button', { name: 'Daily' }).click();
    await flag.waitFor({ state: 'detached' });
    await page.getByTestId('recurrence-options').getByRole('button', { name: 'Once' }).click();
    await flag.waitFor();
    // A later date clears the flag, an earlier one brings it back.
    await page.getByTestId('reminder-date').fill(FUTURE_DATE);
    await flag.waitFor({ state: 'detached' });
    await page.getByTestId('reminder-date').fill('2020-01-01');
    await flag.waitFor();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    const notice = page.getByTestId('review-in-past');
    await notice.waitFor();
    const create = page.getByTestId('wizard-create');
    expect(await create.isDisabled()).toBe(true);
    // The button names its reason for assistive technology; the reason is on the page once.
    expect(await create.getAttribute('aria-describedby')).toBe(await notice.getAttribute('id'));
    const reason = 'This date and time are already past.';
    expect(await notice.textContent()).toContain(reason);
    expect(await page.getByText(reason).count()).toBe(1);
    expect(await page.getByTestId('create-error').count()).toBe(0);
    expect(await page.getByTestId('review-occurrences').count()).toBe(0);
    // A click on the disabled button sends nothing and adds no second or third copy of the reason.
    await create.click({ force: true });
    await page.waitForTimeout(300);
    expect(await page.getByText(reason).count()).toBe(1);
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect((await user.api.get('/api/reminders')).body).toHaveLength(0);
    await screenshot(page, 'wizard-review-in-past-light');

    // A later date: the occurrences come back and Create works.
    await page.getByTestId('step-tab-1').click();
    await page.getByTestId('reminder-date').fill(FUTURE_DATE);
    await page.getByTestId('step-tab-3').click();
    await page.getByTestId('review-occurrences').waitFor();
    expect(await page.getByTestId('review-in-past').count()).toBe(0);
    expect(await create.isDisabled()).toBe(false);
    expect(await create.getAttribute('aria-describedby')).toBeNull();
    await create.click();
    await page.waitForURL(e2e.url('/home'));
    expect((await user.api.get('/api/reminders')).body).toHaveLength(1);
  });

  // Pictures for the eyes only (a11y.test.ts checks every step's colours in dark): taken when saved.
  it.runIf(SAVE_SCREENSHOTS)('renders every step in dark mode', async () => {
    const { page } = await e2e.signedInPage({ colorScheme: 'dark', storage: { 'vite-ui-theme': 'dark' } });
    await openWizard(page, e2e.url('/reminders/create'));
    await fillDetails(page);
    await screenshot(page, 'wizard-step1-dark');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('toggle-webhook').click();
    await screenshot(page, 'wizard-step2-dark');
    await page.getByTestId('webhook-url').fill(`${sink.url}/dark`);
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('review-occurrences').waitFor();
    await screenshot(page, 'wizard-step3-dark');
  });

  it('asks before a half-filled wizard is left (Back to dashboard, a header link, the browser Back button) and leaves an untouched one at once (issue 14)', async () => {
    const { page, user } = await e2e.signedInPage();
    const nav = page.getByRole('banner').getByRole('navigation');
    const confirm = page.getByTestId('leave-confirm');
    await page.goto(e2e.url('/home'));
    await page.getByTestId('dashboard').waitFor();

    // Untouched: leaves without a question.
    await nav.getByRole('link', { name: 'New reminder' }).click();
    await page.getByTestId('wizard-step-1').waitFor();
    await page.getByTestId('back-to-dashboard').click();
    await page.waitForURL(e2e.url('/home'));
    expect(await confirm.count()).toBe(0);

    await nav.getByRole('link', { name: 'New reminder' }).click();
    await page.getByTestId('wizard-step-1').waitFor();
    await page.getByTestId('reminder-message').fill('Half-written');

    // Back to dashboard: the app's own dialog, not the browser's; Keep editing keeps every field.
    await page.getByTestId('back-to-dashboard').click();
    await confirm.waitFor();
    expect(await confirm.getByRole('heading').textContent()).toBe('Leave without creating the reminder?');
    expect(await confirm.getByRole('button').allTextContents()).toEqual(['Keep editing', 'Leave']);
    expect(page.url()).toBe(e2e.url('/reminders/create'));
    await screenshot(page, 'wizard-leave-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await page.getByTestId('reminder-message').inputValue()).toBe('Half-written');

    // Another link of the header, then Escape: still here.
    await nav.getByRole('link', { name: 'Account' }).click();
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(page.url()).toBe(e2e.url('/reminders/create'));

    // The browser's Back button asks too, every time.
    await page.evaluate(() => history.back());
    await confirm.waitFor();
    expect(page.url()).toBe(e2e.url('/reminders/create'));
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await page.getByTestId('reminder-message').inputValue()).toBe('Half-written');
    await page.evaluate(() => history.back());
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(e2e.url('/home'));
    await page.getByTestId('dashboard').waitFor();

    // Leave from a link goes where the link leads; nothing was created.
    await nav.getByRole('link', { name: 'New reminder' }).click();
    await page.getByTestId('recurrence-DAILY').click();
    await nav.getByRole('link', { name: 'Account' }).click();
    await confirm.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(e2e.url('/account'));
    expect((await user.api.get('/api/reminders')).body).toEqual([]);
  });

  it('renders every step on a 390 px screen, in French', async () => {
    const mobile = (await e2e.signedInPage({ viewport: MOBILE, storage: { language: 'fr' } })).page;
    await openWizard(mobile, e2e.url('/reminders/create'));
    expect(await mobile.getByTestId('step-counter').textContent()).toBe('Étape 1 sur 3');
    await fillDetails(mobile);
    await mobile.getByTestId('recurrence-WEEKEND').click();
    await screenshot(mobile, 'wizard-step1-mobile');
    // Words in French, read in French; the custom rule shows in words at the review.
    await mobile.getByTestId('schedule-text-input').fill('le dernier vendredi du mois à 17h');
    await mobile.getByTestId('schedule-text-read').click();
    await mobile.waitForFunction(() => document.querySelector('[data-testid="schedule-text-result"]')?.getAttribute('data-status') === 'read');
    expect(await mobile.getByTestId('schedule-text-result').textContent()).toMatch(/^Réglé sur .*vendredi/);
    expect(await mobile.getByTestId('reminder-time').inputValue()).toBe('17:00');
    await screenshot(mobile, 'wizard-step1-typed-mobile');
    await mobile.getByTestId('recurrence-WEEKEND').click();
    await mobile.getByTestId('wizard-next').click();
    await mobile.getByTestId('toggle-webhook').click();
    await mobile.getByTestId('webhook-platform').click();
    await mobile.getByTestId('webhook-platform-discord').click();
    await screenshot(mobile, 'wizard-step2-mobile');
    await mobile.getByTestId('webhook-url').fill(`${sink.url}/mobile`);
    await mobile.getByTestId('webhook-add').click();
    await mobile.getByTestId('wizard-next').click();
    await mobile.getByTestId('review-occurrences').waitFor();
    expect(await mobile.getByTestId('review-recurrence').textContent()).toBe('Week-end');
    await screenshot(mobile, 'wizard-step3-mobile');
    // No horizontal scrolling on a phone.
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
  });
});

describe('create-reminder wizard: server refuses the webhook (browser)', () => {
  const e2e = useE2E({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });

  it('shows the failed test, then refuses to add the private address with its reason, and holds the wizard on its step', async () => {
    const { page, user } = await e2e.signedInPage();
    await openWizard(page, e2e.url('/reminders/create'));
    await fillDetails(page);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('toggle-webhook').click();
    await page.getByTestId('webhook-url').fill('http://127.0.0.1:9/hook');
    await page.getByTestId('webhook-test').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="webhook-test-result"]')?.getAttribute('data-status') !== 'sending', undefined, {
      timeout: 10_000,
    });
    expect(await page.getByTestId('webhook-test-result').textContent()).toMatch(/^Test failed: /);
    await page.getByTestId('webhook-add').click();

    // Checked before it is added: the reason under the field, in words, and nothing joins the list.
    const check = page.getByTestId('webhook-url-check');
    await check.waitFor();
    expect(await check.textContent()).toBe('This webhook address is not allowed: it points to a private or local network.');
    expect(await page.getByTestId('destination-item').count()).toBe(0);
    expect(await page.getByTestId('destination-count').textContent()).toBe('0');
    await screenshot(page, 'wizard-create-error-light');
    expect(new URL(page.url()).pathname).toBe('/reminders/create');
    expect((await user.api.get('/api/reminders')).body).toHaveLength(0);
  });
});
