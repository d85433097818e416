/**
 * Dashboard (/home) and calendar in a real browser against a real server. Data is created
 * through the API; only what no route can create (a failed delivery attempt, a DM destination
 * without a Discord account) is written to the database directly.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage, MOBILE, SAVE_SCREENSHOTS, screenshot, useE2E } from './helpers.ts';

type User = Awaited<ReturnType<ReturnType<typeof useE2E>['signUp']>>;

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const plusDays = (n: number) => ymd(new Date(Date.now() + n * 86_400_000));
/** YYYY-MM-DD of day `day` in the month `offset` months from the current (UTC) one. */
const monthDay = (offset: number, day: number) => {
  const now = new Date();
  return ymd(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, day)));
};
const monthTitle = (date: string, locale = 'en-US') =>
  new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));

/** Every day from `from` to the last day of its month. */
function restOfMonth(from: string): string[] {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  const month = d.getUTCMonth();
  while (d.getUTCMonth() === month) {
    out.push(ymd(d));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

async function create(user: User, body: Record<string, unknown>) {
  const res = await user.api.post('/api/reminders', { destinations: [], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; destinations: { id: string }[] };
}

async function openHome(page: Page, url: string) {
  await page.goto(url);
  await page.getByTestId('dashboard').waitFor();
}

describe('dashboard and calendar (browser)', () => {
  const e2e = useE2E();
  const today = plusDays(0);
  const onceDate = plusDays(3);
  const pausedDate = plusDays(5);
  let user: User;
  const ids = { once: '', daily: '', paused: '', dailyDestination: '' };

  beforeAll(async () => {
    user = await e2e.signUp({ username: 'Grace' });
    const once = await create(user, {
      date: onceDate,
      time: '10:30',
      message: 'Dentist appointment',
      recurrence: 'ONCE',
      destinations: [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/chime', platform: 'generic' } }],
    });
    const daily = await create(user, {
      date: today,
      time: '23:59',
      message: 'Stand-up notes',
      recurrence: 'DAILY',
      destinations: [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/standup', platform: 'slack' } }],
    });
    const paused = await create(user, { date: pausedDate, time: '08:00', message: 'Water the plants', recurrence: 'ONCE' });
    expect((await user.api.post(`/api/reminders/${paused.id}/pause`)).status).toBe(200);
    expect((await user.api.post(`/api/reminders/${daily.id}/snooze`, { minutes: 90 })).status).toBe(200);
    // A DM destination needs a Discord identity through the API; the badge only needs the row.
    await e2e.server.app.db
      .insertInto('destinations')
      .values({ id: randomUUID(), reminder_id: paused.id, type: 'discord_dm', metadata: '{}', secret: null, position: 0, disabled_at: null, disabled_reason: null, created_at: new Date().toISOString() })
      .execute();
    Object.assign(ids, { once: once.id, daily: daily.id, paused: paused.id, dailyDestination: daily.destinations[0]!.id });
  });

  it('shows the empty state with a create button and no stat cards', async () => {
    const { page } = await e2e.signedInPage();
    await page.goto(e2e.url('/home'));
    await page.getByTestId('dashboard-empty').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    expect(await page.getByTestId('stat-cards').count()).toBe(0);
    expect(await page.getByTestId('delivery-problems').count()).toBe(0);
    expect(await page.getByTestId('empty-create').getAttribute('href')).toBe('/reminders/create');
    expect(await page.getByTestId('new-reminder').getAttribute('href')).toBe('/reminders/create');
    expect(await page.getByTestId('calendar-next-reminder').count()).toBe(0);
    await screenshot(page, 'dashboard-empty');
  });

  it('shows the server message in a red card when the list cannot load', async () => {
    const { page } = await e2e.signedInPage();
    await page.route('**/api/reminders', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Storage is on fire', code: 'E2E_ODD' }) }));
    await page.goto(e2e.url('/home'));
    await page.getByTestId('dashboard-error').waitFor();
    expect(await page.getByTestId('dashboard-error-message').textContent()).toBe('Storage is on fire');
  });

  it('shows stat cards and the list with status, date, time and destination badges', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    expect(await page.getByTestId('stat-total-value').textContent()).toBe('3');
    expect(await page.getByTestId('stat-total').textContent()).toContain('2 active');
    expect(await page.getByTestId('stat-active-value').textContent()).toBe('2');
    expect(await page.getByTestId('stat-active').textContent()).toContain('Account active');
    expect(await page.getByTestId('stat-timezone-value').textContent()).toBe('UTC');
    const todayLong = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date());
    expect(await page.getByTestId('stat-today').textContent()).toBe(todayLong);

    const cards = page.getByTestId('reminder-card');
    expect(await cards.count()).toBe(3);
    const card = (id: string) => page.locator(`[data-testid="reminder-card"][data-reminder-id="${id}"]`);
    expect(await card(ids.paused).getByTestId('status-badge').textContent()).toBe('Paused');
    expect(await card(ids.once).getByTestId('status-badge').textContent()).toBe('Active');
    expect(await card(ids.daily).getByTestId('status-badge').textContent()).toBe('Active');
    expect(await card(ids.once).getByTestId('reminder-card-time').textContent()).toBe('10:30 AM');
    const onceLong = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${onceDate}T10:30:00Z`));
    expect(await card(ids.once).getByTestId('reminder-card-date').textContent()).toBe(onceLong);
    expect(await card(ids.once).getByTestId('destination-badge').allTextContents()).toEqual(['Webhook']);
    expect(await card(ids.paused).getByTestId('destination-badge').allTextContents()).toEqual(['DM']);
    // The list scrolls inside its card.
    expect(await page.getByTestId('reminder-list').locator('ul').evaluate((el) => getComputedStyle(el).maxHeight)).toBe('800px');

    await card(ids.once).click();
    await page.waitForURL(e2e.url(`/reminders/${ids.once}`));
  });

  it('searches the list without accents or case and filters it by status, destination and repetition', async () => {
    const owner = await e2e.signUp();
    const hook = [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/budget', platform: 'generic' } }];
    await create(owner, { date: onceDate, time: '09:00', message: 'Réunion budget', recurrence: 'ONCE', destinations: hook });
    await create(owner, { date: onceDate, time: '09:15', message: 'Stand-up notes', recurrence: 'DAILY' });
    await create(owner, { date: onceDate, time: '09:30', message: 'Pay the rent', recurrence: 'MONTHLY', destinations: hook });
    await create(owner, { date: onceDate, time: '09:45', message: 'Call mom', recurrence: 'ONCE' });
    const paused = await create(owner, { date: pausedDate, time: '08:00', message: 'Water the plants', recurrence: 'ONCE' });
    expect((await owner.api.post(`/api/reminders/${paused.id}/pause`)).status).toBe(200);

    for (const viewport of [undefined, MOBILE]) {
      const { page } = await e2e.signedInPage({ user: owner, viewport });
      await openHome(page, e2e.url('/home'));
      const shown = () => page.getByTestId('reminder-card-message').allTextContents();
      const count = page.getByTestId('reminder-list-count');
      expect(await count.textContent()).toBe('5 reminders, upcoming first');

      await page.getByTestId('reminder-search').fill('REUNION');
      await page.getByText('1 of 5 shown').waitFor();
      expect(await shown()).toEqual(['Réunion budget']);
      await page.getByTestId('reminder-search').fill('');
      await page.getByTestId('filter-status').selectOption('paused');
      await page.getByText('1 of 5 shown').waitFor();
      expect(await shown()).toEqual(['Water the plants']);
      await page.getByTestId('filter-status').selectOption('open');
      await page.getByTestId('filter-repeat').selectOption('repeating');
      await page.getByText('2 of 5 shown').waitFor();
      expect((await shown()).sort()).toEqual(['Pay the rent', 'Stand-up notes']);
      // Only the destination types the reminders use are offered.
      expect(await page.getByTestId('filter-destination').locator('option').allTextContents()).toEqual(['All destinations', 'Webhook', 'No destinations']);
      await page.getByTestId('filter-destination').selectOption('webhook');
      await page.getByText('1 of 5 shown').waitFor();
      expect(await shown()).toEqual(['Pay the rent']);
      await page.getByTestId('reminder-search').fill('plants');
      await page.getByTestId('reminder-list-no-match').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport?.width ?? 1280);
      await screenshot(page, `dashboard-filters-no-match${viewport ? '-390' : ''}`);

      await page.getByTestId('clear-filters').click();
      await page.getByText('5 reminders, upcoming first').waitFor();
      expect(await shown()).toHaveLength(5);
      expect(await page.getByTestId('reminder-search').inputValue()).toBe('');
      expect(await page.getByTestId('filter-status').inputValue()).toBe('all');
      // Choosing several fits too: a checkbox beside each card.
      await page.getByTestId('select-toggle').click();
      await page.getByTestId('select-all').click();
      await page.locator('[data-testid="selected-count"]', { hasText: '5 selected' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport?.width ?? 1280);
      await screenshot(page, `dashboard-select${viewport ? '-390' : ''}`);
    }
  });

  it('pauses, resumes and deletes several reminders at once, and says which could not be changed and why', async () => {
    const owner = await e2e.signUp();
    const made = [];
    for (const message of ['Morning pills', 'Evening pills', 'Call grandma']) made.push(await create(owner, { date: onceDate, time: '09:00', message, recurrence: 'DAILY' }));
    const { page } = await e2e.signedInPage({ user: owner });
    await openHome(page, e2e.url('/home'));
    const card = (id: string) => page.locator(`[data-testid="reminder-card"][data-reminder-id="${id}"]`);
    const status = (id: string) => card(id).getByTestId('status-badge').textContent();
    const check = (message: string) => page.getByRole('checkbox', { name: `Select “${message}”` });
    const toast = (text: string) => page.locator('[data-sonner-toast]', { hasText: text });
    const selectedCount = (text: string) => page.locator('[data-testid="selected-count"]', { hasText: text });

    await page.getByTestId('select-toggle').click();
    await check('Morning pills').click();
    await check('Evening pills').click();
    await selectedCount('2 selected').waitFor();
    // Nothing chosen is paused yet: Resume has nothing to do.
    expect(await page.getByTestId('bulk-resume').isDisabled()).toBe(true);
    await page.getByTestId('bulk-pause').click();
    await toast('2 reminders paused').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="select-reminder"]').length === 0);
    expect([await status(made[0]!.id), await status(made[1]!.id), await status(made[2]!.id)]).toEqual(['Paused', 'Paused', 'Active']);
    for (const { id } of made.slice(0, 2)) expect((await owner.api.get(`/api/reminders/${id}`)).body.is_paused).toBe(true);

    // One of them was deleted elsewhere meanwhile: the others go through, and the failure says why.
    await page.getByTestId('select-toggle').click();
    await page.getByTestId('select-all').click();
    await selectedCount('3 selected').waitFor();
    expect((await owner.api.delete(`/api/reminders/${made[1]!.id}`)).status).toBe(200);
    await page.getByTestId('bulk-resume').click();
    await toast('1 reminder resumed').waitFor();
    await toast('1 reminder could not be changed: Reminder not found').waitFor();
    expect(await status(made[0]!.id)).toBe('Active');
    expect(await card(made[1]!.id).count()).toBe(0);

    // After a failure the choice stays (less the reminder that is gone), to act on it again.
    await selectedCount('2 selected').waitFor();
    await page.getByTestId('bulk-delete').click();
    const confirm = page.getByTestId('bulk-delete-confirm');
    expect(await confirm.getByRole('heading').textContent()).toBe('Delete 2 reminders?');
    await screenshot(page, 'dashboard-bulk-delete');
    await confirm.getByTestId('bulk-delete-confirm-button').click();
    await toast('2 reminders deleted').waitFor();
    await page.getByTestId('dashboard-empty').waitFor();
    expect((await owner.api.get('/api/reminders')).body).toEqual([]);
  });

  it('says when a reminder kept in another zone fires there, on its card and its page (issue 27 #5)', async () => {
    const owner = await e2e.signUp({ timezone: 'UTC' });
    // Monday 10:00 in Tokyo is Monday 01:00 UTC; the account reads it in UTC.
    const monday = (() => {
      const d = new Date(Date.now() + 7 * 86_400_000);
      d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7));
      return ymd(d);
    })();
    const tokyo = await create(owner, { date: monday, time: '10:00', timezone: 'Asia/Tokyo', message: 'Weekly sync with Osaka', recurrence: 'WEEKLY' });
    const local = await create(owner, { date: monday, time: '10:00', message: 'Local one', recurrence: 'WEEKLY' });
    const { page } = await e2e.signedInPage({ user: owner });
    await openHome(page, e2e.url('/home'));
    const card = (id: string) => page.locator(`[data-testid="reminder-card"][data-reminder-id="${id}"]`);
    expect(await card(tokyo.id).getByTestId('reminder-card-time').textContent()).toBe('01:00 AM');
    expect(await card(tokyo.id).getByTestId('reminder-card-own-zone').textContent()).toBe('Mon 10:00 AM in Tokyo');
    expect(await card(tokyo.id).getByTestId('reminder-card-own-zone').getAttribute('title')).toContain('Asia/Tokyo');
    expect(await card(local.id).getByTestId('reminder-card-own-zone').count()).toBe(0);
    await screenshot(page, 'dashboard-own-zone');

    await card(tokyo.id).click();
    const ownZone = page.getByTestId('view-own-zone');
    await ownZone.waitFor();
    const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'Asia/Tokyo' }).format(new Date(`${monday}T01:00:00Z`));
    expect(await ownZone.textContent()).toBe(`In the reminder's own zone, Tokyo (UTC+09:00): ${longDate} at 10:00 AM`);
    expect(await page.getByTestId('view-time').textContent()).toContain('01:00 AM');
    await screenshot(page, 'details-own-zone');
  });

  it('puts the daily reminder on every remaining day of the month and navigates months', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    const grid = page.getByTestId('calendar-grid');
    await grid.waitFor();
    expect(await page.getByTestId('calendar-day').count()).toBe(42);
    // en weeks start on Sunday.
    expect(await page.getByTestId('calendar-weekday').allTextContents()).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
    expect(await page.getByTestId('calendar-title').textContent()).toBe(monthTitle(today));
    expect(await page.locator('[data-testid="calendar-day"][data-today]').getAttribute('data-date')).toBe(today);

    const day = (date: string) => page.locator(`[data-testid="calendar-day"][data-date="${date}"]`);
    await day(today).getByTestId('calendar-day-count').waitFor();
    for (const date of restOfMonth(today)) {
      const expected = 1 + (date === onceDate ? 1 : 0) + (date === pausedDate ? 1 : 0);
      expect(await day(date).getByTestId('calendar-day-count').textContent(), date).toBe(String(expected));
    }
    // Before the anchor: nothing.
    if (!today.endsWith('-01')) expect(await day(plusDays(-1)).getByTestId('calendar-day-count').count()).toBe(0);

    await page.getByTestId('calendar-prev').click();
    expect(await page.getByTestId('calendar-title').textContent()).toBe(monthTitle(monthDay(-1, 1)));
    await page.getByTestId('calendar-next').click();
    await page.getByTestId('calendar-next').click();
    expect(await page.getByTestId('calendar-title').textContent()).toBe(monthTitle(monthDay(1, 1)));
    // The daily reminder goes on in the next month (fetched for that range).
    await day(monthDay(1, 15)).getByTestId('calendar-day-count').waitFor();
    await page.getByTestId('calendar-today').click();
    expect(await page.getByTestId('calendar-title').textContent()).toBe(monthTitle(today));

    // Month picker: year arrows, a month, Today, Close.
    await page.getByTestId('calendar-title').click();
    const picker = page.getByTestId('month-picker');
    await picker.waitFor();
    const year = Number(today.slice(0, 4));
    expect(await picker.getByTestId('picker-year').textContent()).toBe(String(year));
    await picker.getByTestId('picker-next-year').click();
    expect(await picker.getByTestId('picker-year').textContent()).toBe(String(year + 1));
    expect(await picker.getByTestId('picker-month').count()).toBe(12);
    await screenshot(page, 'dashboard-month-picker', { fullPage: false });
    await picker.getByRole('button', { name: `March ${year + 1}` }).click();
    expect(await page.getByTestId('calendar-title').textContent()).toBe(`March ${year + 1}`);
    await page.getByTestId('calendar-title').click();
    await page.getByTestId('picker-today').click();
    expect(await page.getByTestId('calendar-title').textContent()).toBe(monthTitle(today));
    await page.getByTestId('calendar-title').click();
    await page.getByTestId('picker-close').click();
    await picker.waitFor({ state: 'detached' });
  });

  it('jumps to the next month holding a reminder, three months ahead, bucketed in the account zone', async () => {
    // 08:00 in Tokyo on the 1st is 23:00 UTC on the last day of the month before: the browser runs
    // in UTC, so only account-zone bucketing puts it on the 1st, three months ahead.
    const other = await e2e.signUp({ timezone: 'Asia/Tokyo' });
    const target = monthDay(3, 1);
    const created = await create(other, { date: target, time: '08:00', message: 'Renew passport', recurrence: 'ONCE' });
    const { page } = await e2e.signedInPage({ user: other });
    await openHome(page, e2e.url('/home'));
    expect(await page.getByTestId('stat-timezone-value').textContent()).toBe('Tokyo (UTC+09:00)');
    const card = page.locator(`[data-testid="reminder-card"][data-reminder-id="${created.id}"]`);
    expect(await card.getByTestId('reminder-card-time').textContent()).toBe('08:00 AM');
    await page.getByTestId('calendar-next-reminder').click();
    expect(await page.getByTestId('calendar-title').textContent()).toBe(monthTitle(target));
    expect(await page.locator(`[data-testid="calendar-day"][data-date="${target}"]`).getByTestId('calendar-day-count').textContent()).toBe('1');
    // Nothing after it: the button goes away.
    await page.getByTestId('calendar-next-reminder').waitFor({ state: 'detached' });
  });

  it('counts "Next reminder" from now: a reminder due later this month is the next one, not the month after (issue 27 #14)', async () => {
    const other = await e2e.signUp({ timezone: 'UTC' });
    // Due in ten minutes (this month, barring the last minutes of one), and again every week.
    const soon = new Date(Date.now() + 10 * 60_000);
    const soonDate = ymd(soon);
    await create(other, { date: soonDate, time: `${pad(soon.getUTCHours())}:${pad(soon.getUTCMinutes())}`, message: 'Weekly soon', recurrence: 'WEEKLY' });
    await create(other, { date: monthDay(2, 15), time: '09:00', message: 'Later once', recurrence: 'ONCE' });
    const { page } = await e2e.signedInPage({ user: other });
    await openHome(page, e2e.url('/home'));
    expect(await page.getByTestId('calendar-title').textContent()).toBe(monthTitle(soonDate));
    // From three months ahead the button goes back to the month of the next reminder.
    for (let i = 0; i < 3; i += 1) await page.getByTestId('calendar-next').click();
    await page.getByTestId('calendar-next-reminder').click();
    await page.waitForFunction((title) => document.querySelector('[data-testid="calendar-title"]')?.textContent === title, monthTitle(soonDate));
    // Already there: nowhere further to jump.
    await page.getByTestId('calendar-next-reminder').waitFor({ state: 'detached' });
  });

  it('lists a day in a dialog with time, recurrence, paused, destinations, created and snooze', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    await screenshot(page, 'dashboard-light');

    const day = (date: string) => page.locator(`[data-testid="calendar-day"][data-date="${date}"]`);
    await day(today).getByTestId('calendar-day-count').waitFor();
    await day(today).click();
    const dialog = page.getByTestId('day-dialog');
    await dialog.waitFor();
    const weekday = new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${today}T12:00:00Z`));
    const longDate = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${today}T12:00:00Z`));
    const title = await dialog.getByTestId('day-dialog-title').textContent();
    expect(title).toContain(weekday);
    expect(title).toContain(longDate);
    const item = dialog.getByTestId('day-reminder');
    expect(await item.count()).toBe(1);
    expect(await item.getByTestId('day-reminder-time').textContent()).toBe('11:59 PM');
    expect(await item.getByTestId('day-reminder-message').textContent()).toBe('Stand-up notes');
    expect(await item.getByTestId('day-reminder-recurrence').textContent()).toBe('Daily');
    expect(await item.getByTestId('day-reminder-destinations').textContent()).toBe('1 destination');
    const created = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date());
    expect(await item.getByTestId('day-reminder-created').textContent()).toBe(`Created ${created}`);
    expect(await item.getByTestId('day-reminder-snoozed').textContent()).toMatch(/^Snoozed until /);
    expect(await item.getByTestId('day-reminder-paused').count()).toBe(0);
    await screenshot(page, 'dashboard-day-dialog', { fullPage: false });
    // Keyboard: Escape closes and gives focus back to the day; arrows move between days.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Radix gives focus back once the dialog has gone, which can be a frame after it left the DOM.
    await page.waitForFunction((date) => document.activeElement?.getAttribute('data-date') === date, today);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const tomorrow = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${plusDays(1)}T12:00:00Z`));
    expect(await dialog.getByTestId('day-dialog-title').textContent()).toContain(tomorrow);
    await dialog.getByTestId('day-dialog-close').click();
    await dialog.waitFor({ state: 'detached' });

    await day(pausedDate).click();
    const paused = page.locator('[data-testid="day-reminder"]', { hasText: 'Water the plants' });
    expect(await paused.getByTestId('day-reminder-paused').textContent()).toBe('Paused');
    expect(await paused.getByTestId('day-reminder-recurrence').textContent()).toBe('Once');
    await paused.getByTestId('day-reminder-view').click();
    await page.waitForURL(e2e.url(`/reminders/${ids.paused}`));
  });

  it('reports a failed delivery once however many attempts it took, with a link to its history', async () => {
    const db = e2e.server.app.db;
    const now = Date.now();
    const deliveryId = randomUUID();
    const occurrence = new Date(now - 3600_000).toISOString();
    await db
      .insertInto('deliveries')
      .values({
        id: deliveryId,
        reminder_id: ids.daily,
        destination_id: ids.dailyDestination,
        account_id: user.id,
        occurrence_utc: occurrence,
        idempotency_key: randomUUID(),
        status: 'failed',
        attempts: 2,
        next_attempt_at: null,
        late: 0,
        last_error: 'HTTP 500 from webhook',
        created_at: occurrence,
        updated_at: new Date(now).toISOString(),
        delivered_at: null,
      })
      .execute();
    const attempt = (n: number, error: string, at: number) => ({
      delivery_id: deliveryId,
      reminder_id: ids.daily,
      destination_id: ids.dailyDestination,
      account_id: user.id,
      occurrence_utc: occurrence,
      attempt: n,
      outcome: 'failed' as const,
      error,
      http_status: 500,
      discord_code: null,
      duration_ms: 42,
      created_at: new Date(at).toISOString(),
    });
    await db.insertInto('delivery_attempts').values([attempt(1, 'Connection reset', now - 120_000), attempt(2, 'HTTP 500 from webhook', now - 60_000)]).execute();

    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    const card = page.getByTestId('delivery-problems');
    await card.waitFor();
    expect(await card.getByRole('heading').first().textContent()).toBe('Delivery problems');
    // One row per delivery (not per attempt): the last error, and how many attempts it took.
    const rows = card.getByTestId('delivery-problem');
    expect(await rows.count()).toBe(1);
    // No code stored (an older row): the server's detail is shown as it is.
    expect(await rows.nth(0).getByTestId('delivery-problem-error').textContent()).toBe('HTTP 500 from webhook');
    expect(await rows.nth(0).getByTestId('delivery-problem-attempts').textContent()).toBe('2 attempts');
    expect(await rows.nth(0).getByTestId('delivery-problem-message').textContent()).toBe('Stand-up notes');
    expect(await rows.nth(0).getByTestId('delivery-problem-destination').textContent()).toBe('Slack webhook · hooks.example.com/standup');
    await screenshot(page, 'dashboard-light-problems');

    // The same in dark, only for the eyes (a11y.test.ts checks the dashboard's colours in dark).
    if (SAVE_SCREENSHOTS) {
      const dark = await e2e.signedInPage({ user, storage: { 'vite-ui-theme': 'dark' } });
      await openHome(dark.page, e2e.url('/home'));
      await dark.page.getByTestId('delivery-problems').waitFor();
      await dark.page.locator(`[data-testid="calendar-day"][data-date="${today}"]`).getByTestId('calendar-day-count').waitFor();
      await screenshot(dark.page, 'dashboard-dark');
    }

    await rows.nth(0).getByTestId('delivery-problem-link').click();
    await page.waitForURL(e2e.url(`/reminders/${ids.daily}#delivery-history`));
  });

  it('shows the days with reminders as a list on a 390 px screen', async () => {
    const { page } = await e2e.signedInPage({ user, viewport: MOBILE });
    await openHome(page, e2e.url('/home'));
    expect(await page.getByTestId('calendar-grid').isVisible()).toBe(false);
    const list = page.getByTestId('calendar-day-list');
    expect(await list.isVisible()).toBe(true);
    await list.getByTestId('calendar-list-day').first().waitFor();
    expect(await list.getByTestId('calendar-list-day').evaluateAll((els) => els.map((e) => e.getAttribute('data-date')))).toEqual(restOfMonth(today));
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(page, 'dashboard-mobile');
    await list.locator(`[data-date="${today}"]`).click();
    await page.getByTestId('day-dialog').waitFor();
    await screenshot(page, 'dashboard-mobile-dialog', { fullPage: false });
  });

  it('renders French and Spanish headings, weeks starting on Monday', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    for (const [language, heading, total, monday] of [
      ['fr', 'Tableau de bord', 'Rappels au total', 'lun'],
      ['es', 'Panel', 'Recordatorios en total', 'lun'],
    ] as const) {
      await chooseLanguage(page, language);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(await page.getByTestId('stat-total').textContent()).toContain(total);
      const headers = await page.getByTestId('calendar-weekday').allTextContents();
      expect(headers[0]?.toLowerCase()).toBe(monday);
      expect(await page.getByTestId('calendar-title').textContent()).toBe(
        monthTitle(today, language).replace(/^./, (c) => c.toLocaleUpperCase(language)),
      );
    }
  });

  it('deletes from the day dialog after the exact confirmation texts', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    const day = page.locator(`[data-testid="calendar-day"][data-date="${onceDate}"]`);
    if (!(await day.count())) await page.getByTestId('calendar-next').click();
    await day.getByTestId('calendar-day-count').waitFor();
    await day.click();
    const dialog = page.getByTestId('day-dialog');
    const once = dialog.locator('[data-testid="day-reminder"]', { hasText: 'Dentist appointment' });
    await once.getByTestId('day-reminder-delete').click();

    const confirm = page.getByTestId('delete-confirm');
    await confirm.waitFor();
    expect(await confirm.getByRole('heading').textContent()).toBe('Delete Reminder?');
    await confirm.getByText('This action cannot be undone.', { exact: true }).waitFor();
    expect(await confirm.getByRole('button').allTextContents()).toEqual(['Cancel', 'Delete']);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await once.count()).toBe(1);

    await once.getByTestId('day-reminder-delete').click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await once.waitFor({ state: 'detached' });
    expect(await dialog.getByTestId('day-reminder').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.locator(`[data-testid="reminder-card"][data-reminder-id="${ids.once}"]`).waitFor({ state: 'detached' });
    expect(await page.getByTestId('reminder-card').count()).toBe(2);
    expect(await page.getByTestId('stat-total-value').textContent()).toBe('2');
    expect((await user.api.get(`/api/reminders/${ids.once}`)).status).toBe(404);
  });

  it('offers Close and "+ Add New" on an empty day, which opens the wizard with ?date=', async () => {
    const { page } = await e2e.signedInPage({ user });
    await openHome(page, e2e.url('/home'));
    await page.getByTestId('calendar-prev').click();
    const empty = monthDay(-1, 15);
    await page.locator(`[data-testid="calendar-day"][data-date="${empty}"]`).click();
    const dialog = page.getByTestId('day-dialog');
    await dialog.getByText('No reminders on this day.').waitFor();
    expect(await dialog.getByTestId('day-reminder').count()).toBe(0);
    expect(await dialog.getByTestId('day-dialog-close').textContent()).toBe('Close');
    expect((await dialog.getByTestId('day-dialog-add').textContent())?.trim()).toBe('+ Add New');
    await dialog.getByTestId('day-dialog-add').click();
    // A predicate: in a string pattern `?` would be a glob wildcard.
    await page.waitForURL((url) => url.pathname === '/reminders/create' && url.searchParams.get('date') === empty);
    // The dialog unmounted with the page: nothing of it may keep blocking the next screen.
    await page.getByTestId('day-dialog').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.body.style.pointerEvents)).toBe('');
  });
  // The README's picture (docs/images/dashboard.png): an account as a person would have it.
  // SCREENSHOTS=1 npx vitest run --project browser tests/browser/dashboard.test.ts -t "README"
  it.runIf(SAVE_SCREENSHOTS)('README picture: a lived-in dashboard', async () => {
    const grace = await e2e.signUp({ timezone: 'Europe/Paris', username: 'Grace' });
    const slack = { type: 'webhook', metadata: { url: 'https://hooks.example.com/team', platform: 'slack' } };
    const home = { type: 'webhook', metadata: { url: 'https://hooks.example.com/home', platform: 'discord' } };
    await create(grace, { date: plusDays(1), time: '09:30', message: 'Team stand-up', recurrence: 'CUSTOM', rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', destinations: [slack] });
    await create(grace, { date: plusDays(2), time: '08:00', message: 'Water the plants', recurrence: 'CUSTOM', rrule: 'FREQ=DAILY;INTERVAL=3', destinations: [home] });
    await create(grace, { date: monthDay(1, 1), time: '10:00', message: 'Pay the rent', recurrence: 'MONTHLY', destinations: [home] });
    await create(grace, { date: plusDays(5), time: '14:15', message: 'Dentist appointment', recurrence: 'ONCE', destinations: [home] });
    await create(grace, { date: plusDays(3), time: '18:00', message: 'Call Mum', recurrence: 'WEEKLY', destinations: [home] });
    const { page } = await e2e.signedInPage({ user: grace, viewport: { width: 1280, height: 1040 } });
    await openHome(page, e2e.url('/home'));
    await screenshot(page, 'readme-dashboard', { fullPage: false });
  });
});
