/**
 * The disk under the database is full (docs/operations.md "Data and backups"): pressing Create in the wizard
 * shows why nothing was saved, in the user's language, rather than "Failed to create reminder".
 * The real server runs out of pages (SQLite's max_page_count, the real SQLITE_FULL).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fillTheDisk, makeRoom } from '../helpers/full-disk.ts';
import { openWizardReview, screenshot, useE2E } from './helpers.ts';

const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-06-15`;

describe('a full disk (browser)', () => {
  const e2e = useE2E();
  afterEach(async () => {
    await makeRoom(e2e.server.app.db);
  });

  for (const [language, locale, expected] of [
    ['en', 'en-US', 'The server has run out of storage space, so nothing was saved. Please tell its administrator.'],
    ['fr', 'fr-FR', 'Le serveur n’a plus d’espace de stockage : rien n’a été enregistré. Prévenez son administrateur.'],
  ] as const) {
    it(`create says the server is out of storage (${language})`, async () => {
      const { page, user } = await e2e.signedInPage({ locale, storage: { language } });
      await openWizardReview(page, e2e.server.url, FUTURE_DATE);

      await fillTheDisk(e2e.server.app.db, user.api, FUTURE_DATE);
      const before = (await user.api.get('/api/reminders')).body.length;
      await page.getByTestId('wizard-create').press('Enter');
      await page.waitForFunction((text) => document.querySelector('[data-testid="create-error"]')?.textContent === text, expected, { timeout: 15_000 });
      await page.locator('[data-sonner-toast]').filter({ hasText: expected }).first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/reminders/create');
      expect((await user.api.get('/api/reminders')).body.length).toBe(before);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `storage-full-create-${language}`);

      // Room again: the same Create goes through.
      await makeRoom(e2e.server.app.db);
      await page.getByTestId('wizard-create').press('Enter');
      await page.waitForURL(e2e.url('/home'));
    });
  }
});
