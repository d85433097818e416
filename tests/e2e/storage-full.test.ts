/**
 * The disk under the database is full (README "Data and backups"): pressing Create in the wizard
 * shows why nothing was saved, in the user's language, rather than "Failed to create reminder".
 * The real server runs out of pages (SQLite's max_page_count, the real SQLITE_FULL).
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openWizardReview, screenshot, useE2E } from './helpers.ts';

const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-06-15`;
const NO_LIMIT = 1_073_741_823;

describe('a full disk (browser)', () => {
  const e2e = useE2E();
  const setMaxPages = (pages: number) => sql`pragma max_page_count = ${sql.raw(String(pages))}`.execute(e2e.server.app.db);
  afterEach(async () => {
    await setMaxPages(NO_LIMIT);
  });

  /**
   * Uses up the pages left: creates through the API until the server answers 507, with smaller and
   * smaller messages, so not even a short reminder still fits in a page.
   */
  async function fillTheDisk(api: Awaited<ReturnType<typeof e2e.signUp>>['api']) {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(e2e.server.app.db);
    await setMaxPages(rows[0]!.page_count);
    let n = 0;
    for (const size of [1500, 300, 40, 1]) {
      for (let full = false; !full; n++) {
        if (n > 2000) throw new Error('the disk did not fill');
        const res = await api.post('/api/reminders', { date: FUTURE_DATE, time: '08:00', message: `f${n} ${'x'.repeat(size)}`, destinations: [] });
        expect([201, 507]).toContain(res.status);
        full = res.status === 507;
      }
    }
  }

  for (const [language, locale, expected] of [
    ['en', 'en-US', 'The server has run out of storage space, so nothing was saved. Please tell its administrator.'],
    ['fr', 'fr-FR', 'Le serveur n’a plus d’espace de stockage : rien n’a été enregistré. Prévenez son administrateur.'],
  ] as const) {
    it(`create says the server is out of storage (${language})`, async () => {
      const { page, user } = await e2e.signedInPage({ locale, storage: { language } });
      await openWizardReview(page, e2e.server.url, FUTURE_DATE);

      await fillTheDisk(user.api);
      const before = (await user.api.get('/api/reminders')).body.length;
      await page.getByTestId('wizard-create').press('Enter');
      await page.waitForFunction((text) => document.querySelector('[data-testid="create-error"]')?.textContent === text, expected, { timeout: 15_000 });
      await page.locator('[data-sonner-toast]').filter({ hasText: expected }).first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/reminders/create');
      expect((await user.api.get('/api/reminders')).body.length).toBe(before);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `storage-full-create-${language}`);

      // Room again: the same Create goes through.
      await setMaxPages(NO_LIMIT);
      await page.getByTestId('wizard-create').press('Enter');
      await page.waitForURL(e2e.url('/home'));
    });
  }
});
