/**
 * Delivery history, resend, dismissing a delivery problem and re-enabling a destination, in a real
 * browser, over real deliveries: the scheduler posts to a webhook sink on 127.0.0.1 that answers
 * as each test tells it to.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedReminder, startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.ts';
import { axeViolations, chooseTheme, horizontalOverflow, loseFirstAnswer, MOBILE, openInApp, screenshot, useE2E } from './helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('delivery history and problems (browser)', () => {
  const e2e = useE2E();
  let sink: WebhookSink;

  beforeAll(async () => {
    sink = await startWebhookSink();
    // Retries within milliseconds, so "failed, then delivered" happens during the test.
    e2e.server.app.scheduler.setOptions({ retryDelaysMs: [30, 30, 30], retryJitter: 0 });
  });
  afterAll(async () => {
    await sink?.close();
  });
  afterEach(() => {
    sink.requests.length = 0;
    sink.reply({ status: 200 });
  });

  /** A one-time reminder due now with one webhook to the sink; the scheduler sends it at once. */
  async function fire(accountId: string, message: string) {
    const seeded = await seedReminder(e2e.server.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: `${sink.url}/hook` }], message });
    e2e.server.app.scheduler.wake();
    return seeded;
  }

  /** Waits until every delivery of the reminder is delivered or failed. */
  async function settle(reminderId: string) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = await e2e.server.app.db.selectFrom('deliveries').select('status').where('reminder_id', '=', reminderId).execute();
      if (rows.length > 0 && rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return;
      if (Date.now() > deadline) throw new Error(`deliveries not settled: ${JSON.stringify(rows)}`);
      await sleep(20);
    }
  }

  async function openHistory(page: Page, reminderId: string) {
    await page.goto(e2e.url(`/reminders/${reminderId}`));
    await page.getByTestId('delivery-history').getByTestId('delivery').first().waitFor();
  }

  it('Resend pressed again after its answer was lost sends once, not twice', async () => {
    const user = await e2e.signUp();
    const { id } = await fire(user.id, 'Call the dentist');
    await sink.waitFor(1);
    await settle(id);
    const { page } = await e2e.signedInPage({ user });
    // The first resend reaches the server and is queued; the page only sees the connection reset.
    const keys = await loseFirstAnswer(page, (url) => url.pathname.endsWith('/resend'), 202);
    await openHistory(page, id);
    const delivery = page.getByTestId('delivery-history').getByTestId('delivery');
    await delivery.getByTestId('delivery-resend').click();
    await page.locator('[data-sonner-toast][data-type="error"]').waitFor();
    await sink.waitFor(2);
    await settle(id);

    const replay = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/resend'));
    await delivery.getByTestId('delivery-resend').click();
    expect((await replay).headers()['idempotent-replayed']).toBe('true');
    await page.getByText('Resend queued.').waitFor();
    // A queued send would have turned the delivery back to pending before the answer (or, sent
    // already, reached the sink): delivered with two requests means nothing more will go out.
    const row = await e2e.server.app.db.selectFrom('deliveries').select(['status', 'attempts']).where('reminder_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'delivered', attempts: 2 });
    expect(sink.requests).toHaveLength(2);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('shows every attempt of a delivery that failed then arrived, and Resend sends the same webhook-id again', async () => {
    const user = await e2e.signUp();
    sink.reply((_req, i) => (i === 0 ? { status: 500 } : { status: 204 }));
    const { id } = await fire(user.id, 'Water the plants');
    await sink.waitFor(2);
    await settle(id);

    const { page } = await e2e.signedInPage({ user });
    await openHistory(page, id);
    const history = page.getByTestId('delivery-history');
    expect(await history.getByRole('heading', { level: 2 }).textContent()).toBe('Delivery history');
    const delivery = history.getByTestId('delivery');
    expect(await delivery.count()).toBe(1);
    expect(await delivery.getAttribute('data-status')).toBe('delivered');
    expect(await delivery.getByTestId('delivery-status').textContent()).toBe('Delivered');
    // Built on the client from the destination, not the server's English label.
    expect(await delivery.getByTestId('delivery-destination').textContent()).toBe(`Generic webhook · 127.0.0.1:${sink.port}/hook`);
    expect(await delivery.getByTestId('delivery-delivered-at').count()).toBe(1);
    const attempts = delivery.getByTestId('delivery-attempt');
    expect(await attempts.evaluateAll((els) => els.map((el) => el.getAttribute('data-outcome')))).toEqual(['error', 'ok']);
    expect(await attempts.nth(0).getByTestId('attempt-error').textContent()).toBe('The receiver had a server error (HTTP 500).');
    expect(await attempts.nth(0).getByTestId('attempt-http-status').textContent()).toContain('HTTP 500');
    expect(await attempts.nth(1).getByTestId('attempt-http-status').textContent()).toContain('HTTP 204');
    expect(await attempts.nth(1).textContent()).toMatch(/\d+ ms/);

    // Resend: one more attempt with the same idempotency key, and the history shows it.
    await delivery.getByTestId('delivery-resend').click();
    await page.getByText('Resend queued.').waitFor();
    const received = await sink.waitFor(3);
    expect(received[2]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="delivery-attempt"]').length === 3);
    expect(await delivery.getAttribute('data-status')).toBe('delivered');

    await screenshot(page, 'delivery-history-light');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows the attempts in dark (no axe violations), at 390 px (no overflow) and in French', async () => {
    const user = await e2e.signUp();
    sink.reply((_req, i) => (i === 0 ? { status: 500 } : { status: 204 }));
    const { id } = await fire(user.id, 'Water the plants');
    await sink.waitFor(2);
    await settle(id);

    const dark = await e2e.signedInPage({ user, storage: { 'vite-ui-theme': 'dark' } });
    await openHistory(dark.page, id);
    await screenshot(dark.page, 'delivery-history-dark');
    expect(await axeViolations(dark.page)).toEqual([]);
    // The same page in light on a phone (the layout follows the width in CSS alone).
    await chooseTheme(dark.page, 'light');
    await dark.page.setViewportSize(MOBILE);
    expect(await horizontalOverflow(dark.page)).toBeLessThanOrEqual(0);
    await screenshot(dark.page, 'delivery-history-mobile');

    // The error and the destination's kind in the user's language.
    const fr = await e2e.signedInPage({ user, storage: { language: 'fr' } });
    await openHistory(fr.page, id);
    const frDelivery = fr.page.getByTestId('delivery');
    expect(await frDelivery.getByTestId('attempt-error').first().textContent()).toBe('Le destinataire a eu une erreur serveur (HTTP 500).');
    expect(await frDelivery.getByTestId('delivery-destination').textContent()).toBe(`Webhook générique · 127.0.0.1:${sink.port}/hook`);
  });

  it('says why a resend is refused, in words', async () => {
    const user = await e2e.signUp();
    const { id, destinations } = await fire(user.id, 'Stretch');
    await settle(id);
    const { page } = await e2e.signedInPage({ user });
    await openHistory(page, id);
    // The destination is stopped meanwhile (e.g. by another tab): the server refuses with DESTINATION_DISABLED.
    await e2e.server.app.db.updateTable('destinations').set({ disabled_at: new Date().toISOString(), disabled_reason: 'stopped' }).where('id', '=', destinations[0]!.id).execute();
    await page.getByTestId('delivery-resend').click();
    await page.getByText('This destination is disabled. Re-enable it first.').waitFor();
  });

  it('lists a failed delivery once, in words, links to its history, and Dismiss removes it for good', async () => {
    const user = await e2e.signUp();
    sink.reply({ status: 400 });
    const { id } = await fire(user.id, 'Pay the rent');
    await settle(id);

    const { page } = await e2e.signedInPage({ user });
    await page.goto(e2e.url('/home'));
    const card = page.getByTestId('delivery-problems');
    await card.waitFor();
    const rows = card.getByTestId('delivery-problem');
    expect(await rows.count()).toBe(1);
    expect(await rows.getByTestId('delivery-problem-message').textContent()).toBe('Pay the rent');
    expect(await rows.getByTestId('delivery-problem-destination').textContent()).toBe(`Generic webhook · 127.0.0.1:${sink.port}/hook`);
    expect(await rows.getByTestId('delivery-problem-error').textContent()).toBe('The receiver refused the request (HTTP 400).');
    await screenshot(page, 'delivery-problems-light');
    expect(await axeViolations(page)).toEqual([]);

    // The link opens the reminder scrolled to its history.
    await rows.getByTestId('delivery-problem-link').click();
    await page.waitForURL(e2e.url(`/reminders/${id}#delivery-history`));
    await page.getByTestId('delivery').first().waitFor();
    await page.waitForFunction(() => {
      const box = document.getElementById('delivery-history')?.getBoundingClientRect();
      return !!box && box.top >= 0 && box.top < window.innerHeight / 2;
    });

    await openInApp(page, '/home');
    await card.waitFor();
    // The card goes at once (optimistic); the test waits for the server's answer before asking it.
    const dismissed = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/dismiss') && r.request().method() === 'POST');
    await rows.getByTestId('delivery-problem-dismiss').click();
    await card.waitFor({ state: 'detached' });
    expect((await dismissed).status()).toBe(200);
    expect((await user.api.get('/api/reminders/errors')).body).toEqual([]);
    const problemsLoaded = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/reminders/errors');
    await page.reload();
    await problemsLoaded;
    await page.getByTestId('dashboard').waitFor();
    // The frame after the answer has it rendered.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.getByTestId('delivery-problems').count()).toBe(0);
    // The history keeps it.
    const history = await user.api.get(`/api/reminders/${id}/deliveries`);
    expect(history.body.deliveries[0].status).toBe('failed');
  });

  it('shows a failed delivery in dark (no axe violations), at 390 px (no overflow) and in Spanish', async () => {
    const user = await e2e.signUp();
    sink.reply({ status: 400 });
    const { id } = await fire(user.id, 'Pay the rent');
    await settle(id);

    const dark = await e2e.signedInPage({ user, storage: { 'vite-ui-theme': 'dark' } });
    await dark.page.goto(e2e.url('/home'));
    await dark.page.getByTestId('delivery-problems').waitFor();
    await screenshot(dark.page, 'delivery-problems-dark');
    expect(await axeViolations(dark.page)).toEqual([]);
    // The same page in light on a phone (the layout follows the width in CSS alone).
    await chooseTheme(dark.page, 'light');
    await dark.page.setViewportSize(MOBILE);
    expect(await horizontalOverflow(dark.page)).toBeLessThanOrEqual(0);
    await screenshot(dark.page, 'delivery-problems-mobile');
    const es = await e2e.signedInPage({ user, storage: { language: 'es' } });
    await es.page.goto(e2e.url('/home'));
    const esRow = es.page.getByTestId('delivery-problem');
    await esRow.waitFor();
    expect(await esRow.getByTestId('delivery-problem-error').textContent()).toBe('El receptor rechazó la solicitud (HTTP 400).');
    expect(await esRow.getByTestId('delivery-problem-destination').textContent()).toBe(`Webhook genérico · 127.0.0.1:${sink.port}/hook`);
  });

  it('pages the history with Load more, newest occurrence first, and marks late deliveries', async () => {
    const user = await e2e.signUp();
    const { id, destinations } = await seedReminder(e2e.server.app.db, {
      accountId: user.id,
      at: Date.now() + 86_400_000,
      recurrence: 'DAILY',
      destinations: [{ url: `${sink.url}/hook` }],
    });
    // 55 past daily occurrences: one more than the first page (50) holds.
    const day = 86_400_000;
    const base = Date.parse('2026-01-01T09:00:00.000Z');
    const rows = Array.from({ length: 55 }, (_, i) => {
      const occurrence = new Date(base + i * day).toISOString();
      return {
        id: randomUUID(),
        reminder_id: id,
        destination_id: destinations[0]!.id,
        account_id: user.id,
        occurrence_utc: occurrence,
        idempotency_key: `msg_${randomUUID()}`,
        status: 'delivered' as const,
        attempts: 1,
        next_attempt_at: null,
        late: i === 0 ? 1 : 0,
        last_error: null,
        last_error_code: null,
        created_at: occurrence,
        updated_at: occurrence,
        delivered_at: occurrence,
      };
    });
    await e2e.server.app.db.insertInto('deliveries').values(rows).execute();

    const { page } = await e2e.signedInPage({ user });
    await openHistory(page, id);
    const occurrences = page.getByTestId('delivery-occurrence');
    expect(await occurrences.count()).toBe(50);
    expect(await occurrences.first().getAttribute('data-occurrence')).toBe(rows[54]!.occurrence_utc);
    expect(await page.getByTestId('delivery-late').count()).toBe(0);
    await page.getByTestId('delivery-history-more').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="delivery-occurrence"]').length === 55);
    expect(await occurrences.last().getAttribute('data-occurrence')).toBe(rows[0]!.occurrence_utc);
    // The oldest was sent late (after a restart, say): marked as such.
    expect(await occurrences.last().getByTestId('delivery-late').textContent()).toBe('Late');
    expect(await page.getByTestId('delivery-history-more').count()).toBe(0);
  });

  it('shows why a destination was disabled, in words, and Re-enable turns it back on', async () => {
    const user = await e2e.signUp();
    sink.reply({ status: 410 });
    const { id } = await fire(user.id, 'Feed the cat');
    await settle(id);

    const { page } = await e2e.signedInPage({ user });
    await page.goto(e2e.url(`/reminders/${id}`));
    const notice = page.getByTestId('destination-disabled');
    await notice.waitFor();
    expect(await notice.getAttribute('data-code')).toBe('WEBHOOK_GONE');
    expect(await notice.textContent()).toContain('The webhook no longer exists: the receiver says it was deleted.');
    await notice.getByTestId('destination-reenable').click();
    await page.getByText('Destination re-enabled.').waitFor();
    await notice.waitFor({ state: 'detached' });
    const reminder = await user.api.get(`/api/reminders/${id}`);
    expect(reminder.body.destinations[0]).toMatchObject({ disabled_reason: null, disabled_code: null });
  });
});
