/**
 * Pressing Create (or Duplicate) again after the answer was lost (README "Retrying a create
 * safely"): the first request reaches the real server and is saved, but the browser only sees the
 * connection drop. The retry carries the same Idempotency-Key, so the server answers the reminder it
 * already made and the account holds one, not two. A new Create of the same draft is a new reminder.
 */
import { describe, expect, it } from 'vitest';
import { holdWriteLock } from '../helpers/sqlite-lock.ts';
import { loseFirstAnswer, openWizardReview, useE2E } from './helpers.ts';

const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-06-15`;

describe('a create whose answer was lost (browser)', () => {
  const e2e = useE2E();

  it('Create pressed again answers the reminder already made; a new Create makes another', async () => {
    const { page, user } = await e2e.signedInPage({});
    const count = async () => ((await user.api.get('/api/reminders')).body as Array<{ message: string }>).filter((r) => r.message === 'Renew the passport').length;
    await openWizardReview(page, e2e.server.url, FUTURE_DATE);
    const keys = await loseFirstAnswer(page, (url) => url.pathname === '/api/reminders', 201);

    await page.getByTestId('wizard-create').click();
    await page.getByTestId('create-error').waitFor();
    expect(new URL(page.url()).pathname).toBe('/reminders/create');
    // It was saved, although the page could not know.
    expect(await count()).toBe(1);

    const replay = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/reminders' && r.request().method() === 'POST');
    await page.getByTestId('wizard-create').click();
    expect((await replay).headers()['idempotent-replayed']).toBe('true');
    await page.waitForURL(e2e.url('/home'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await count()).toBe(1);

    // The same draft created again on purpose is a second reminder, under a new key.
    await openWizardReview(page, e2e.server.url, FUTURE_DATE);
    await page.getByTestId('wizard-create').click();
    await page.waitForURL(e2e.url('/home'));
    expect(keys).toHaveLength(3);
    expect(keys[2]).not.toBe(keys[0]);
    expect(await count()).toBe(2);
  });

  it('Duplicate pressed again opens the copy already made, and makes no second one', async () => {
    const { page, user } = await e2e.signedInPage({});
    const source = await user.api.post('/api/reminders', { date: FUTURE_DATE, time: '07:15', message: 'Water the garden', destinations: [] });
    expect(source.status).toBe(201);
    const keys = await loseFirstAnswer(page, (url) => url.pathname.endsWith('/duplicate'), 201);
    await page.goto(e2e.url(`/reminders/${source.body.id}`));

    await page.getByTestId('duplicate-reminder').click();
    await page.locator('[data-sonner-toast]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/reminders/${source.body.id}`);
    await page.getByTestId('duplicate-reminder').click();
    await page.waitForURL((url) => url.pathname.startsWith('/reminders/') && !url.pathname.endsWith(source.body.id));

    const list = (await user.api.get('/api/reminders')).body as Array<{ id: string; message: string }>;
    const copies = list.filter((r) => r.message === 'Water the garden' && r.id !== source.body.id);
    expect(copies).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe(`/reminders/${copies[0]!.id}`);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('Create while a backup holds the database goes through by itself after the busy answer', async () => {
    const { page, user } = await e2e.signedInPage({});
    await openWizardReview(page, e2e.server.url, FUTURE_DATE);
    const answers: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/api/reminders' && r.request().method() === 'POST') answers.push(r.status());
    });
    // Another connection holds SQLite's write lock for 4 s: the first attempt waits 3 s and is told
    // to come back in 2 (503 DATABASE_BUSY, Retry-After), by which time the lock is gone.
    const released = holdWriteLock(e2e.server.config.databaseUrl, 4000);
    await page.getByTestId('wizard-create').click();
    await page.waitForURL(e2e.url('/home'), { timeout: 15_000 });
    await released;
    expect(answers).toEqual([503, 201]);
    expect(await page.locator('[data-sonner-toast][data-type="error"]').count()).toBe(0);
    expect(((await user.api.get('/api/reminders')).body as Array<{ message: string }>).filter((r) => r.message === 'Renew the passport')).toHaveLength(1);
  });
});
