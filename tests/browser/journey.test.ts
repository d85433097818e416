/**
 * The whole journey of issue 5 in one browser session, as a person would go through it: sign up,
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

  it('sign up -> wizard -> delivered -> list and calendar -> edit -> pause -> resume -> duplicate -> delete', async () => {
    const page = await e2e.newPage();
    const email = `journey-${Date.now()}@example.com`;

    // Sign up from the landing page's call to action: the new account is signed in at once.
    await page.goto(e2e.url('/'));
    await page.getByTestId('hero-cta').click();
    await page.getByTestId('sign-up-form').waitFor();
    await page.fill('#signup-email', email);
    await page.fill('#signup-username', 'Journey');
    await page.fill('#signup-password', 'Journey#2026');
    await page.fill('#signup-confirm', 'Journey#2026');
    await page.getByTestId('sign-up-submit').click();
    await page.waitForURL(e2e.url('/home'), { timeout: 15_000 });

    // The wizard: today, at the current minute (its default time), so the scheduler fires at once.
    // That holds while the minute is less than a minute old when the reminder is created
    // (PAST_GRACE_MS; later, a daily one first fires tomorrow): open the wizard early enough in a
    // minute that a slow machine still finishes it within that minute's grace.
    await expect.poll(() => new Date().getSeconds(), { timeout: 25_000, interval: 250 }).toBeLessThan(40);
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
    await page.getByTestId('wizard-create').click();
    const dialog = page.getByTestId('secret-dialog');
    await dialog.waitFor();
    const secret = (await dialog.getByTestId('secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByTestId('secret-done').click();
    await page.waitForURL(e2e.url('/home'));

    // Delivered for real: the receiver got the signed body for this reminder.
    const [delivery] = await sink.waitFor(1, 10_000);
    expect(delivery!.path).toBe('/journey');
    expect(delivery!.json).toMatchObject({ type: 'reminder.due', message: 'Journey check-in', recurrence: 'DAILY' });
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,/);

    // In the list and, as a daily reminder, on today's calendar cell.
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
