/**
 * The dashboard on a 390 px phone with long content (a custom rule that reads long in words, a long
 * message without spaces, long webhook URLs, a delivery problem): no page is wider than the screen,
 * in light and dark, and the status badges stay in view.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { refusedUrl, seedReminder } from '../helpers/webhook-sink.ts';
import { chooseTheme, MOBILE, useE2E } from './helpers.ts';

const YEAR = new Date().getUTCFullYear() + 1;
const LONG_RULE = 'Every 2 weeks on Monday and Wednesday, 10 times';
const LONG_WORD = 'Supercalifragilisticexpialidocious-reminder-without-any-space-at-all';
const LONG_URL = `https://hooks.example.com/services/${'T0123456789ABCDEF'.repeat(6)}/incoming`;

type User = Awaited<ReturnType<ReturnType<typeof useE2E>['signUp']>>;

/**
 * The page is no wider than the phone: nothing scrolls sideways. The message names what sticks out.
 * Measured until it settles (5 s at most): a list that has just rendered can be laid out once more.
 */
async function expectFits(page: Page, where: string, limit: number = MOBILE.width) {
  const measure = () =>
    page.evaluate((limit) => {
      const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}.${(el.getAttribute('class') ?? '').split(' ').slice(0, 4).join('.')}`;
      const wide = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > limit + 0.5);
      // The innermost ones: an element that sticks out because of a child is not the cause.
      const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
      return { width: document.documentElement.scrollWidth, culprits: innermost.slice(0, 5).map((el) => `${describe(el)} ${Math.round(el.getBoundingClientRect().right)}`) };
    }, limit);
  let last = await measure();
  await expect
    .poll(async () => (last = await measure()).width, { timeout: 5000, message: `${where} is wider than ${limit} px` })
    .toBeLessThanOrEqual(limit)
    .catch(() => undefined);
  expect(last.width, `${where} is ${last.width} px wide: ${last.culprits.join(', ')}`).toBeLessThanOrEqual(limit);
}

/**
 * expectFits in light, then in dark (chosen in the header's menu, as a user does), then back in
 * light: the same page in both themes, without loading it twice.
 */
async function fitsInBothThemes(page: Page, where: string) {
  await expectFits(page, `${where} (light)`);
  await chooseTheme(page, 'dark');
  await expectFits(page, `${where} (dark)`);
  await chooseTheme(page, 'light');
}

/** The first Monday of January of `year`, as YYYY-MM-DD. */
function firstMonday(year: number) {
  for (let day = 1; ; day++) if (new Date(Date.UTC(year, 0, day)).getUTCDay() === 1) return `${year}-01-0${day}`;
}

describe('phone layout with long content (browser)', () => {
  const e2e = useE2E();
  let user: User;
  let customId: string;

  beforeAll(async () => {
    user = await e2e.signUp({ timezone: 'Europe/Paris' });
    const custom = await user.api.post('/api/reminders', {
      message: `${LONG_WORD} then water the plants on the balcony and in the kitchen before leaving`,
      date: firstMonday(YEAR),
      time: '09:00',
      recurrence: 'CUSTOM',
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10',
      destinations: [
        { type: 'webhook', metadata: { url: LONG_URL, platform: 'generic' } },
        { type: 'webhook', metadata: { url: `${LONG_URL}/slack`, platform: 'slack', username: 'A rather long bot name for Slack' } },
      ],
    });
    expect(custom.status, JSON.stringify(custom.body)).toBe(201);
    expect(custom.body.recurrence_text).toBe(LONG_RULE);
    customId = custom.body.id;
    const paused = await user.api.post('/api/reminders', {
      message: 'Last Friday of the month: send the invoices',
      date: `${YEAR}-01-30`,
      time: '17:00',
      recurrence: 'CUSTOM',
      rrule: 'FREQ=MONTHLY;BYDAY=-1FR;UNTIL=' + `${YEAR + 1}0101`,
    });
    expect((await user.api.post(`/api/reminders/${paused.body.id}/pause`)).status).toBe(200);
    // A delivery that failed: the dashboard lists it under "Delivery problems".
    e2e.server.app.scheduler.setOptions({ retryDelaysMs: [10], retryJitter: 0 });
    await seedReminder(e2e.server.app.db, { accountId: user.id, at: Date.now() - 5, message: `${LONG_WORD} failed`, destinations: [{ url: `${await refusedUrl()}/${'x'.repeat(80)}` }] });
    e2e.server.app.scheduler.wake();
    const deadline = Date.now() + 8000;
    while (((await user.api.get('/api/reminders/errors')).body?.length ?? 0) === 0) {
      if (Date.now() > deadline) throw new Error('the seeded delivery never failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('in Spanish, the signed-in header fits an 800 px tablet, and "Personalizada…" stays on one line on a phone', async () => {
    const { page } = await e2e.signedInPage({ user, viewport: { width: 800, height: 900 }, storage: { language: 'es' } });
    await page.goto(e2e.url('/reminders/create'));
    await page.getByTestId('recurrence-CUSTOM').waitFor();
    await expectFits(page, 'the Spanish wizard at 800 px', 800);
    await page.setViewportSize(MOBILE);
    await expectFits(page, 'the Spanish wizard at 390 px');
    const label = page.getByTestId('recurrence-CUSTOM').locator('span');
    expect(await label.textContent()).toBe('Personalizada…');
    expect(await label.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)))).toBe(1);
  });

  const open = async () => (await e2e.signedInPage({ user, viewport: MOBILE })).page;

  it('light and dark: the dashboard (list, delivery problems, calendar days) fits, with every status badge in view', async () => {
    const page = await open();
    await page.goto(e2e.url('/home'));
    await page.getByTestId('delivery-problem').first().waitFor();
    await page.getByTestId('reminder-card').nth(2).waitFor();
    await fitsInBothThemes(page, 'the dashboard');
    for (const badge of await page.getByTestId('reminder-card').getByTestId('status-badge').all()) {
      const box = (await badge.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(MOBILE.width);
    }
    const rule = page.getByTestId('reminder-card').filter({ hasText: LONG_WORD }).first().getByTestId('reminder-card-recurrence');
    expect(await rule.textContent()).toBe(LONG_RULE);
  });

  it('light and dark: the details of the long custom reminder, and its edit form, fit', async () => {
    const page = await open();
    await page.goto(e2e.url(`/reminders/${customId}`));
    await page.getByTestId('reminder-details').waitFor();
    await page.getByTestId('occurrence').first().waitFor();
    await fitsInBothThemes(page, 'the details');
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('custom-repeat-editor').waitFor();
    await fitsInBothThemes(page, 'the edit form');
  });

  it('light and dark: each wizard step with a custom rule and a long webhook URL fits', async () => {
    const page = await open();
    await page.goto(e2e.url('/reminders/create'));
    await page.getByTestId('wizard-step-1').waitFor();
    await page.getByTestId('reminder-date').fill(firstMonday(YEAR));
    await page.getByTestId('reminder-time').fill('09:00');
    await page.getByTestId('reminder-message').fill(`${LONG_WORD} again`);
    await page.getByTestId('recurrence-CUSTOM').click();
    await page.getByTestId('custom-interval').fill('2');
    await page.getByTestId('custom-weekday-WE').click();
    await page.getByTestId('ends-after').check();
    await page.getByTestId('ends-after-count').fill('10');
    await expect.poll(() => page.getByTestId('repeat-summary').textContent(), { timeout: 5000 }).toBe(LONG_RULE);
    await fitsInBothThemes(page, 'wizard step 1');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-2').waitFor();
    await page.getByTestId('toggle-webhook').click();
    await page.getByTestId('webhook-url').fill(LONG_URL);
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('destination-item').first().waitFor();
    await fitsInBothThemes(page, 'wizard step 2');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('review-occurrences').waitFor();
    await fitsInBothThemes(page, 'wizard step 3');
  });

  it('light and dark: the account page fits', async () => {
    const page = await open();
    await page.goto(e2e.url('/account'));
    await page.getByTestId('import-export-card').waitFor();
    await fitsInBothThemes(page, 'the account page');
  });
});
