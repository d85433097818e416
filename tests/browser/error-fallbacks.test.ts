/**
 * Errors without a usable message (issue 10): an empty-body 500, an HTML error page from a reverse
 * proxy, a dropped connection. The dashboard shows the action's own text ("Failed to create
 * reminder. Please try again.", docs/dashboard.md "Errors") in the user's language, never a status
 * text like "Internal Server Error" or the browser's "Failed to fetch".
 *
 * The browser talks to a real reverse proxy on 127.0.0.1 in front of a real Chime server, as a
 * self-hoster's nginx would be; the proxy is told to fail the next matching call in one of those
 * ways and forwards everything else untouched.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chooseOption, openWizardReview, screenshot, sessionStorageEntries, useE2E } from './helpers.ts';

type Failure = 'empty-500' | 'html-502' | 'drop';

interface Proxy {
  url: string;
  /** The next `method path` request fails this way (once per call). */
  failNext(method: string, pathname: string, failure: Failure): void;
  /** Forgets the failures not used yet. */
  reset(): void;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  const upstream = new URL(target);
  const pending: { method: string; pathname: string; failure: Failure }[] = [];
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://proxy').pathname;
    const index = pending.findIndex((p) => p.method === req.method && p.pathname === pathname);
    if (index >= 0) {
      const { failure } = pending.splice(index, 1)[0]!;
      req.resume();
      if (failure === 'empty-500') res.writeHead(500, { 'content-length': '0' }).end();
      else if (failure === 'html-502') res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>');
      else req.socket.destroy();
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failNext: (method, pathname, failure) => pending.push({ method, pathname, failure }),
    reset: () => void pending.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-06-15`;

describe('error fallbacks behind a reverse proxy (browser)', () => {
  const e2e = useE2E();
  let proxy: Proxy;

  beforeAll(async () => {
    proxy = await startProxy(e2e.server.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  // A failure an earlier test queued and did not use must not hit this test's requests.
  beforeEach(() => proxy.reset());

  async function wizardAtReview(storage: Record<string, string>, locale = 'en-US'): Promise<Page> {
    const page = await e2e.newPage({ storage, locale });
    await openWizardReview(page, proxy.url, FUTURE_DATE);
    return page;
  }

  /**
   * Create fails through the proxy this way: the page error and the toast both say `expected`.
   * (Create is pressed with the keyboard: the toasts of earlier attempts may cover the button.)
   */
  async function createFailsWith(page: Page, failure: Failure, expected: string) {
    // Chromium sends a request again when a connection drops under it: drop every retry too.
    for (let i = 0; i < (failure === 'drop' ? 10 : 1); i++) proxy.failNext('POST', '/api/reminders', failure);
    const isCreate = (r: { url(): string; method(): string }) => new URL(r.url()).pathname === '/api/reminders' && r.method() === 'POST';
    const answered =
      failure === 'drop' ? page.waitForEvent('requestfailed', { predicate: isCreate }) : page.waitForResponse((r) => isCreate(r.request()));
    await page.getByTestId('wizard-create').press('Enter');
    await answered;
    const error = page.getByTestId('create-error');
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="create-error"]')?.textContent === text,
      expected,
      { timeout: 15_000 },
    );
    proxy.reset();
    expect(await error.textContent()).toBe(expected);
    await page.locator('[data-sonner-toast]').filter({ hasText: expected }).first().waitFor();
    const body = (await page.locator('body').textContent()) ?? '';
    for (const raw of ['Internal Server Error', 'Bad Gateway', 'Failed to fetch', 'HTTP 500', 'An error occurred']) expect(body).not.toContain(raw);
    expect(new URL(page.url()).pathname).toBe('/reminders/create');
  }

  it('create: an empty-body 500, an HTML 502 and a dropped connection all show the action\'s own text', async () => {
    const user = await e2e.signUp();
    const page = await wizardAtReview(sessionStorageEntries(user));
    await createFailsWith(page, 'empty-500', 'Failed to create reminder. Please try again.');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'issue10-create-empty-500');
    await createFailsWith(page, 'html-502', 'Failed to create reminder. Please try again.');
    await createFailsWith(page, 'drop', 'Failed to create reminder. Please try again.');
    expect((await user.api.get('/api/reminders')).body).toHaveLength(0);

    // Through the proxy, untouched, Create works.
    await page.getByTestId('wizard-create').press('Enter');
    await page.waitForURL(`${proxy.url}/home`);
    expect((await user.api.get('/api/reminders')).body).toHaveLength(1);
  });

  it('in French and Spanish the fallback is translated', async () => {
    const user = await e2e.signUp();
    const fr = await wizardAtReview({ ...sessionStorageEntries(user), language: 'fr' }, 'fr-FR');
    await createFailsWith(fr, 'empty-500', 'Échec de la création du rappel. Veuillez réessayer.');
    await fr.evaluate(() => window.scrollTo(0, 0));
    await screenshot(fr, 'issue10-create-empty-500-fr');
    const es = await wizardAtReview({ ...sessionStorageEntries(user), language: 'es' }, 'es-ES');
    await createFailsWith(es, 'html-502', 'No se pudo crear el recordatorio. Inténtalo de nuevo.');
  });

  it('other actions: the account time zone and the dashboard load fall back to their own texts', async () => {
    const user = await e2e.signUp();
    const page = await e2e.newPage({ storage: sessionStorageEntries(user) });

    // Dashboard load: "Failed to fetch data" in the red card (shown at the first failure).
    proxy.failNext('GET', '/api/reminders', 'empty-500');
    // Not waiting for the load event: the element matters, not every request of the page.
    await page.goto(`${proxy.url}/home`, { waitUntil: 'domcontentloaded' });
    // Read in the page the moment it shows: swr's retry replaces the card a few seconds later, and a
    // busy test process must not look only after that.
    const dashboardError = await page.waitForFunction(() => document.querySelector('[data-testid="dashboard-error-message"]')?.textContent);
    expect(await dashboardError.jsonValue()).toBe('Failed to fetch data');

    // A toast with a title: the title is the action's text and no description is made up.
    await page.goto(`${proxy.url}/account`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('account-page').waitFor();
    proxy.failNext('PUT', '/api/account/timezone', 'html-502');
    await page.getByTestId('timezone-combobox').click();
    await page.getByTestId('timezone-search').fill('tokyo');
    // The toast closes by itself after 4 s: watch for it from before the click and read its title and
    // description in the page, in one go, so a slow moment in the test process cannot miss it.
    const toastSeen = page.waitForFunction(() => {
      const toast = [...document.querySelectorAll('[data-sonner-toast]')].find((t) => t.textContent?.includes('Failed to update timezone'));
      return toast && { title: toast.querySelector('[data-title]')?.textContent, descriptions: toast.querySelectorAll('[data-description]').length };
    });
    await chooseOption(page, page.getByRole('option', { name: 'Tokyo (UTC+09:00)' }));
    // The title alone: no "Bad Gateway", no invented description.
    expect(await (await toastSeen).jsonValue()).toEqual({ title: 'Failed to update timezone', descriptions: 0 });
    expect((await user.api.get('/api/account')).body.timezone).toBe('UTC');
  });
});
