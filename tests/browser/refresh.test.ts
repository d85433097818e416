/**
 * A page left open stays current: the dashboard and the details page fetch the reminders' status
 * and the delivery problems again every LIVE_REFRESH_MS (the page's clock is run forward instead
 * of waiting). Offline, what was loaded stays on screen with a word that it may be out of date, and
 * an action that cannot reach the server says so without leaving the page.
 */
import { describe, expect, it } from 'vitest';
import { refusedUrl, seedReminder } from '../helpers/webhook-sink.ts';
import { useE2E } from './helpers.ts';

/** web/src/lib/api/reminders.ts LIVE_REFRESH_MS, and a second more. */
const PAST_REFRESH_MS = 31_000;

describe('a page left open stays current (browser)', () => {
  const e2e = useE2E();

  it('the dashboard shows a pause and a failed delivery made elsewhere without a reload', async () => {
    const { page, user } = await e2e.signedInPage();
    const created = await user.api.post('/api/reminders', { date: '2031-04-01', time: '09:00', message: 'Paused elsewhere', recurrence: 'DAILY' });
    expect(created.status).toBe(201);
    await page.clock.install();
    await page.goto(e2e.url('/home'));
    const badge = page.getByTestId('reminder-card').filter({ hasText: 'Paused elsewhere' }).getByTestId('status-badge');
    expect(await badge.getAttribute('data-status')).toBe('active');

    // Paused from the bot or another tab, and a delivery that failed meanwhile.
    expect((await user.api.post(`/api/reminders/${created.body.id}/pause`)).status).toBe(200);
    e2e.server.app.scheduler.setOptions({ retryDelaysMs: [10], retryJitter: 0 });
    await seedReminder(e2e.server.app.db, { accountId: user.id, at: Date.now() - 5, message: 'Failed meanwhile', destinations: [{ url: `${await refusedUrl()}/hook` }] });
    e2e.server.app.scheduler.wake();
    await expect.poll(async () => (await user.api.get('/api/reminders/errors')).body.length, { timeout: 8000 }).toBe(1);
    expect(await page.getByTestId('delivery-problem').count()).toBe(0);

    await page.clock.runFor(PAST_REFRESH_MS);
    await page.locator('[data-testid="reminder-card"]:has-text("Paused elsewhere") [data-testid="status-badge"][data-status="paused"]').waitFor();
    await page.getByTestId('delivery-problem').filter({ hasText: 'Failed meanwhile' }).waitFor();
  });

  it('offline, the dashboard keeps the list and says it may be out of date', async () => {
    const { page, user } = await e2e.signedInPage();
    await user.api.post('/api/reminders', { date: '2031-04-01', time: '09:00', message: 'Still listed', recurrence: 'DAILY' });
    await page.goto(e2e.url('/home'));
    await page.getByTestId('reminder-card').waitFor();
    await page.context().setOffline(true);
    await page.getByTestId('dashboard-stale').filter({ hasText: 'Cannot reach the server' }).waitFor();
    expect(await page.getByTestId('reminder-card').textContent()).toContain('Still listed');
    await page.context().setOffline(false);
    await page.getByTestId('dashboard-stale').waitFor({ state: 'detached' });
  });

  it('offline, Pause on the details page says the server cannot be reached and stays on the page', async () => {
    const { page, user } = await e2e.signedInPage();
    const created = await user.api.post('/api/reminders', { date: '2031-04-01', time: '09:00', message: 'Offline pause', recurrence: 'DAILY' });
    await page.goto(e2e.url(`/reminders/${created.body.id}`));
    await page.getByTestId('reminder-details').waitFor();

    await page.context().setOffline(true);
    const toggle = page.getByTestId('toggle-pause');
    await toggle.click();
    await page.locator('[data-sonner-toast][data-type="error"]').filter({ hasText: 'Cannot reach the server. Check your connection.' }).waitFor();
    // The reload after the failure fails too: the page stays, with the reminder as it was.
    await page.waitForFunction(() => !(document.querySelector('[data-testid="toggle-pause"]') as HTMLButtonElement | null)?.disabled);
    expect(new URL(page.url()).pathname).toBe(`/reminders/${created.body.id}`);
    expect(await page.getByText('Failed to load reminder').count()).toBe(0);
    expect(await page.getByTestId('view-message').textContent()).toBe('Offline pause');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await page.context().setOffline(false);
  });
});
