/**
 * The whole journey of issue 5, as a person would go through it, in two tests of one account: sign up,
 * sign in, create a reminder with a webhook in the wizard, see it delivered to a real receiver,
 * find it in the list and the calendar, edit, pause, resume, duplicate and delete it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.ts';
import { screenshot, useE2E } from './helpers.ts';

describe('a person uses Chime end to end (browser)', () => {
  const e2e = useE2E();
  let sink: WebhookSink;
  beforeAll(async () => {
    sink = await startWebhookSink();
  });
  afterAll(async () => {
    await sink?.close();
  });

  // One account through both tests: the second signs in as the first signed up.
  const email = `journey-${Date.now()}@example.com`;
  const password = 'Journey#2026';
  let created = false;

  it('sign up -> wizard -> delivered to a real receiver', async () => {
    const page = await e2e.newPage();

    // Sign up from the landing page's call to action: the new account is signed in at once.
    await page.goto(e2e.url('/'));
    await page.getByTestId('hero-cta').click();
    await page.getByTestId('sign-up-form').waitFor();
    await page.fill('#signup-email', email);
    await page.fill('#signup-username', 'Journey');
    await page.fill('#signup-password', password);
    await page.fill('#signup-confirm', password);
    await page.getByTestId('sign-up-submit').click();
    await page.waitForURL(e2e.url('/home'), { timeout: 15_000 });

    // The wizard: a daily reminder with a webhook, for today.
    await page.goto(e2e.url('/reminders/create'));
    await page.getByTestId('wizard-step-1').waitFor();
    const today = new Date().toISOString().slice(0, 10);
    await page.getByTestId('reminder-date').fill(today);
    await page.getByTestId('reminder-message').fill('Journey check-in');
    await page.getByTestId('recurrence-DAILY').click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-2').waitFor();
    await page.getByTestId('toggle-webhook').click();
    await page.getByTestId('webhook-url').fill(`${sink.url}/journey`);
    await page.getByTestId('webhook-add').click();
    // Add asks the server about the address first: the webhook joins the list once it answers.
    await page.getByTestId('destination-item').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('review-step').waitFor();

    // Back to the first step, where the draft is kept, to set the time to the current minute just
    // before creating: the server fires a reminder of the current minute at once while that
    // minute is less than a minute old (PAST_GRACE_MS), so the three clicks to Create must fall
    // within it. Near a minute's end, the next minute is the one to take.
    await page.getByTestId('wizard-back').click();
    await page.getByTestId('wizard-back').click();
    await page.getByTestId('wizard-step-1').waitFor();
    expect(await page.getByTestId('reminder-message').inputValue()).toBe('Journey check-in');
    await expect.poll(() => new Date().getUTCSeconds(), { timeout: 15_000, interval: 250 }).toBeLessThan(50);
    const now = new Date().toISOString();
    await page.getByTestId('reminder-date').fill(now.slice(0, 10));
    await page.getByTestId('reminder-time').fill(now.slice(11, 16));
    await page.getByTestId('wizard-next').click();
    expect(await page.getByTestId('destination-item').count()).toBe(1);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-create').click();
    const dialog = page.getByTestId('secret-dialog');
    await dialog.waitFor();
    const secret = (await dialog.getByTestId('secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByTestId('secret-done').click();
    await page.waitForURL(e2e.url('/home'));
    created = true;

    // Delivered for real: the receiver got the signed body for this reminder.
    const [delivery] = await sink.waitFor(1, 10_000);
    expect(delivery!.path).toBe('/journey');
    expect(delivery!.json).toMatchObject({ type: 'reminder.due', message: 'Journey check-in', recurrence: 'DAILY' });
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('sign in -> list and calendar -> edit -> pause -> resume -> duplicate -> delete', async (ctx) => {
    // Only after the first part made the reminder (a -t filter may have left it out).
    if (!created) return ctx.skip();
    const page = await e2e.newPage();
    await page.goto(e2e.url('/login'));
    await page.fill('#signin-email', email);
    await page.fill('#signin-password', password);
    await page.getByTestId('sign-in-submit').click();
    await page.waitForURL(e2e.url('/home'));

    // In the list and, as a daily reminder, on today's calendar cell.
    const today = new Date().toISOString().slice(0, 10);
    const card = page.getByTestId('reminder-card').filter({ hasText: 'Journey check-in' });
    await card.waitFor();
    const todayCell = page.locator(`[data-testid="calendar-day"][data-date="${today}"]`);
    await todayCell.getByTestId('calendar-day-count').waitFor();
    await screenshot(page, 'journey-home');

    // Details: edit the message.
    await card.click();
    await page.getByTestId('reminder-details').waitFor();
    const detailsUrl = page.url();
    await page.getByTestId('edit-reminder').click();
    await page.getByTestId('edit-form').waitFor();
    await page.getByTestId('reminder-message').fill('Journey check-in, edited');
    await page.getByTestId('edit-save').click();
    await page.getByTestId('view-message').filter({ hasText: 'Journey check-in, edited' }).waitFor();

    // Pause, then resume.
    await page.getByTestId('toggle-pause').click();
    await page.locator('[data-testid="status-badge"][data-status="paused"]').first().waitFor();
    await page.getByTestId('toggle-pause').click();
    await page.locator('[data-testid="status-badge"][data-status="active"]').first().waitFor();

    // Duplicate: a new reminder page with the same message.
    await page.getByTestId('duplicate-reminder').click();
    // The copy's webhook has a signing secret of its own, shown once.
    await page.getByTestId('secret-dialog').getByTestId('secret-done').click();
    await page.getByTestId('secret-dialog').waitFor({ state: 'hidden' });
    await page.waitForURL((url) => url.href !== detailsUrl && url.pathname.startsWith('/reminders/'));
    await page.getByTestId('view-message').filter({ hasText: 'Journey check-in, edited' }).waitFor();

    // Delete the copy (confirmed in the styled dialog).
    await page.getByTestId('delete-reminder').click();
    await page.getByTestId('delete-reminder-confirm-button').click();
    await page.waitForURL(e2e.url('/home'));
    await expect.poll(async () => page.getByTestId('reminder-card').filter({ hasText: 'Journey check-in, edited' }).count(), { timeout: 10_000 }).toBe(1);
  });
});
