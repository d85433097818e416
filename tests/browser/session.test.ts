/**
 * The browser session (docs/dashboard.md "Session"): the stored token and its expiry, the scheduled
 * end 5 minutes before expiry, the timer ceiling, 401 handling, cross-tab and auth-updated
 * re-checks, the logout redirect, and the header's signed-out links. A session that ends by itself
 * (issue 10) says so on /login, shows no toast of the action that failed, and signing in again
 * returns to the page; a sign-out says nothing.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_DEFAULTS, DESKTOP, MOBILE, screenshot, sessionStorageEntries, useE2E } from './helpers.ts';

const SESSION_END_MARGIN_MS = 5 * 60 * 1000;
const EXPIRED_TEXT = 'Your session has expired. Please sign in again.';
const AUTH_LINKS = ['Home', 'New reminder', 'Servers', 'Account'];
const PUBLIC_LINKS = ['Installation', 'Contact'];

describe('session (browser)', () => {
  const e2e = useE2E();
  const contexts: BrowserContext[] = [];

  // A test's pages close when it ends, as in useE2E (tests/browser/helpers.ts).
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {});
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
  });

  /**
   * A context whose localStorage is seeded once (a localStorage flag, so a second tab of the same
   * context does not seed again and undo a logout).
   */
  async function newContext(storage: Record<string, string> = {}, viewport: { width: number; height: number } = DESKTOP) {
    const context = await e2e.browser.newContext({ viewport, ...CONTEXT_DEFAULTS });
    contexts.push(context);
    await context.addInitScript((entries: Record<string, string>) => {
      if (localStorage.getItem('__e2e_seeded')) return;
      localStorage.setItem('__e2e_seeded', '1');
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
    }, storage);
    return context;
  }

  const token = (page: Page) => page.evaluate(() => localStorage.getItem('auth_token'));
  const storedSession = (page: Page) =>
    page.evaluate(() => ['auth_token', 'token_expires_at', 'user_data'].map((k) => localStorage.getItem(k)));
  const pathname = (page: Page) => new URL(page.url()).pathname;
  const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

  /** On /login, told the session expired, with `next` as the way back (null: none). */
  async function expectExpiredLogin(page: Page, next: string | null) {
    await page.waitForURL((u) => u.pathname === '/login');
    const url = new URL(page.url());
    expect(url.searchParams.get('reason')).toBe('expired');
    expect(url.searchParams.get('next')).toBe(next);
    expect(await page.getByTestId('session-expired').textContent()).toBe(EXPIRED_TEXT);
  }

  async function signInThroughForm(page: Page, user: { email: string; password: string }) {
    await page.fill('#signin-email', user.email);
    await page.fill('#signin-password', user.password);
    await page.getByTestId('sign-in-submit').click();
  }

  it('ends the session 5 minutes before expiry: cleared and sent to /login', async () => {
    const user = await e2e.signUp();
    const context = await newContext(sessionStorageEntries(user));
    const page = await context.newPage();
    await page.goto(e2e.url('/home'));
    await page.getByTestId('logout-button').waitFor();
    expect(pathname(page)).toBe('/home');
    expect(await token(page)).toBe(user.token);
    // Once the page is up (however long a loaded machine took), the session is renewed to expire
    // 5 min + 3 s from now: the end is due ~3 s later, by the timer the app re-arms on auth-updated.
    const started = Date.now();
    const entries = sessionStorageEntries({ ...user, expires_at: new Date(started + SESSION_END_MARGIN_MS + 3000).toISOString() });
    await page.evaluate((e) => {
      for (const [k, v] of Object.entries(e)) localStorage.setItem(k, v);
      window.dispatchEvent(new Event('auth-updated'));
    }, entries);

    await page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 });
    // It was the timer, not an immediate end.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(await storedSession(page)).toEqual([null, null, null]);
    await page.getByTestId('sign-in-form').waitFor();
    await page.getByTestId('start-now').waitFor();
    await expectExpiredLogin(page, '/home');
  });

  it('sets no timer beyond 2147483647 ms: a 30-day session is not ended at once', async () => {
    const user = await e2e.signUp();
    // 30 days (> 24.8 days): a timer with this delay would overflow and fire immediately.
    const expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
    const context = await newContext(sessionStorageEntries({ ...user, expires_at: expiresAt }));
    const page = await context.newPage();
    await page.goto(e2e.url('/home'));
    await page.getByTestId('logout-button').waitFor();
    await page.waitForTimeout(1000);
    expect(pathname(page)).toBe('/home');
    expect(await token(page)).toBe(user.token);
  });

  it('removes an expired stored token: a protected page goes to /login saying why, the landing page stays', async () => {
    const user = await e2e.signUp();
    const expiresAt = new Date(Date.now() - 60_000).toISOString();
    const context = await newContext(sessionStorageEntries({ ...user, expires_at: expiresAt }));
    const page = await context.newPage();
    await page.goto(e2e.url('/home'));
    await expectExpiredLogin(page, '/home');
    expect(await storedSession(page)).toEqual([null, null, null]);
    await page.getByTestId('start-now').waitFor();
    expect(await page.getByTestId('logout-button').count()).toBe(0);
    for (const name of AUTH_LINKS) expect(await mainNav(page).getByRole('link', { name, exact: true }).count()).toBe(0);

    // On a public page the token is removed without sending anyone anywhere.
    const landing = await (await newContext(sessionStorageEntries({ ...user, expires_at: expiresAt }))).newPage();
    await landing.goto(e2e.url('/'));
    await landing.getByTestId('hero-title').waitFor();
    await landing.waitForFunction(() => localStorage.getItem('auth_token') === null);
    expect(await storedSession(landing)).toEqual([null, null, null]);
    expect(pathname(landing)).toBe('/');
    // No token at all: the same.
    const anon = await (await newContext()).newPage();
    await anon.goto(e2e.url('/account'));
    await anon.waitForURL(e2e.url('/'));
  });

  it('on a 401 from the API clears the session, says it expired on /login, and signing in returns to the page', async () => {
    const user = await e2e.signUp();
    const context = await newContext(sessionStorageEntries(user));
    const page = await context.newPage();
    await page.goto(e2e.url('/home'));
    await page.getByTestId('dashboard').waitFor();

    // Revoke the session server-side, outside the browser.
    const out = await user.api.post('/api/auth/logout', {});
    expect(out.status).toBe(200);
    expect((await user.api.get('/api/account')).status).toBe(401);

    // The next call the page makes (the account page's) answers 401.
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/account') && r.status() === 401);
    await mainNav(page).getByRole('link', { name: 'Account', exact: true }).click();
    await answered;
    await expectExpiredLogin(page, '/account');
    expect(await storedSession(page)).toEqual([null, null, null]);
    await page.getByTestId('sign-in-form').waitFor();

    // Signing in again goes back to the account page, not to /welcome.
    await signInThroughForm(page, user);
    await page.waitForURL(e2e.url('/account'));
    await page.getByTestId('account-page').waitFor();
    expect(await token(page)).not.toBeNull();
    expect(await token(page)).not.toBe(user.token);
    expect(await page.getByTestId('welcome').count()).toBe(0);
  });

  it('a 401 during an action: no toast of the failed action on /login, and back to the page with its query after signing in', async () => {
    const user = await e2e.signUp();
    const context = await newContext(sessionStorageEntries(user));
    const page = await context.newPage();
    const date = `${new Date().getUTCFullYear() + 1}-03-14`;
    const wizard = `/reminders/create?date=${date}`;
    await page.goto(e2e.url(wizard));
    await page.getByTestId('wizard-step-1').waitFor();
    await page.getByTestId('reminder-message').fill('Pi day');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('review-occurrences').waitFor();

    // The session ends on the server while the user reads the review step.
    expect((await user.api.post('/api/auth/logout', {})).status).toBe(200);
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/reminders' && r.request().method() === 'POST');
    await page.getByTestId('wizard-create').click();
    expect((await refused).status()).toBe(401);
    await expectExpiredLogin(page, wizard);
    // The create's "Failed to create reminder" toast and page error are not carried to /login.
    await page.waitForTimeout(500);
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect(await page.getByText('Failed to create reminder').count()).toBe(0);
    await screenshot(page, 'issue10-session-expired-login');

    // A wrong password keeps the reason and the way back.
    await signInThroughForm(page, { email: user.email, password: 'not the password' });
    await page.getByTestId('auth-error').waitFor();
    await expectExpiredLogin(page, wizard);

    await signInThroughForm(page, user);
    await page.waitForURL(e2e.url(wizard));
    await page.getByTestId('wizard-step-1').waitFor();
    expect(await page.getByTestId('reminder-date').inputValue()).toBe(date);
    // Toasts work again once the user has left the login page.
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect(await page.getByTestId('session-expired').count()).toBe(0);
  });

  it('a sign-out on purpose says nothing about an expiry, and the next sign-in goes to /welcome', async () => {
    const user = await e2e.signUp();
    const context = await newContext(sessionStorageEntries(user));
    const page = await context.newPage();
    await page.goto(e2e.url('/account'));
    await page.getByTestId('account-page').waitFor();
    await page.getByTestId('logout-button').click();
    await page.waitForURL(e2e.url('/login'));
    await page.getByTestId('sign-in-form').waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByTestId('session-expired').count()).toBe(0);
    expect(await page.getByText('session has expired').count()).toBe(0);

    await signInThroughForm(page, user);
    await page.waitForURL(e2e.url('/home'));
    await page.getByTestId('welcome').waitFor();
  });

  // Every form of another origin is in tests/unit/web/lib/return-to.test.ts; here two go through a real sign-in.
  it('never returns to another origin: next=//host and next=/login go to /welcome', async () => {
    const user = await e2e.signUp();
    for (const next of ['//evil.example/x', '/login?next=/account']) {
      const page = await (await newContext()).newPage();
      await page.goto(e2e.url(`/login?reason=expired&next=${encodeURIComponent(next)}`));
      await page.getByTestId('session-expired').waitFor();
      await signInThroughForm(page, user);
      await page.waitForURL(e2e.url('/home'));
      await page.getByTestId('welcome').waitFor();
    }
  });

  it('re-checks when another tab signs out or changes the user data', async () => {
    const user = await e2e.signUp({ username: 'Grace' });
    const context = await newContext(sessionStorageEntries(user));
    const first = await context.newPage();
    const second = await context.newPage();
    await first.goto(e2e.url('/home'));
    await first.getByTestId('dashboard').waitFor();
    await second.goto(e2e.url('/account'));
    await second.getByTestId('logout-button').waitFor();
    await second.locator('header').getByText('Grace', { exact: true }).waitFor();

    // User data changed in the first tab: the second one shows it.
    await first.evaluate(() => {
      const data = JSON.parse(localStorage.getItem('user_data') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('user_data', JSON.stringify({ ...data, username: 'Grace H.' }));
    });
    await second.locator('header').getByText('Grace H.', { exact: true }).waitFor();

    // Logout in the first tab: the second leaves its protected page.
    await first.getByTestId('logout-button').click();
    await first.waitForURL(e2e.url('/login'));
    await second.waitForURL((url) => url.pathname === '/login' || url.pathname === '/');
    await second.getByTestId('start-now').waitFor();
    expect(await second.getByTestId('logout-button').count()).toBe(0);
  });

  it('re-checks on the auth-updated event (same tab)', async () => {
    const user = await e2e.signUp();
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(e2e.url('/'));
    await page.getByTestId('start-now').waitFor();

    // A session written without telling the app changes nothing...
    const entries = sessionStorageEntries(user);
    await page.evaluate((e) => {
      for (const [k, v] of Object.entries(e)) localStorage.setItem(k, v);
    }, entries);
    await page.waitForTimeout(300);
    expect(await page.getByTestId('logout-button').count()).toBe(0);
    // ...until auth-updated fires.
    await page.evaluate(() => window.dispatchEvent(new Event('auth-updated')));
    await page.getByTestId('logout-button').waitFor();
    await mainNav(page).getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByTestId('dashboard').waitFor();

    // Removing the token + auth-updated: the signed-in-earlier flag sends the page to /login.
    await page.evaluate(() => {
      localStorage.removeItem('auth_token');
      window.dispatchEvent(new Event('auth-updated'));
    });
    await page.waitForURL(e2e.url('/login'));
    expect(await page.evaluate(() => sessionStorage.getItem('was_authenticated'))).toBeNull();
  });

  it('logout waits 100 ms, then replaces the history entry with /login', async () => {
    const user = await e2e.signUp();
    const context = await newContext(sessionStorageEntries(user));
    const page = await context.newPage();
    await page.goto(e2e.url('/'));
    await page.getByTestId('logout-button').waitFor();
    await mainNav(page).getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByTestId('dashboard').waitFor();
    const lengthBefore = await page.evaluate(() => history.length);

    // Record history calls and the moment the token leaves storage.
    await page.evaluate(() => {
      const log: { what: string; url?: string; at: number }[] = [];
      (window as unknown as { __log: typeof log }).__log = log;
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history);
        history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
          log.push({ what: method, url: url ? String(url) : undefined, at: performance.now() });
          original(data, unused, url);
        };
      }
      const remove = Storage.prototype.removeItem;
      Storage.prototype.removeItem = function (key: string) {
        if (key === 'auth_token') log.push({ what: 'cleared', at: performance.now() });
        remove.call(this, key);
      };
    });
    await page.getByTestId('logout-button').click();
    await page.waitForURL(e2e.url('/login'));
    const log = await page.evaluate(() => (window as unknown as { __log: { what: string; url?: string; at: number }[] }).__log);

    const cleared = log.find((e) => e.what === 'cleared');
    const toLogin = log.filter((e) => e.url === '/login');
    expect(cleared).toBeDefined();
    expect(toLogin.map((e) => e.what)).toEqual(['replaceState']);
    expect(toLogin[0]!.at - cleared!.at).toBeGreaterThanOrEqual(95);
    expect(await page.evaluate(() => history.length)).toBe(lengthBefore);
    expect(await storedSession(page)).toEqual([null, null, null]);
    // Back goes to the page before /home (the landing page), not to the dashboard.
    await page.goBack();
    await page.waitForURL(e2e.url('/'));
  });

  it('the header shows authenticated links only when signed in (desktop and phone menu)', async () => {
    const anon = await (await newContext()).newPage();
    await anon.goto(e2e.url('/'));
    await anon.getByTestId('start-now').waitFor();
    for (const name of PUBLIC_LINKS) await mainNav(anon).getByRole('link', { name, exact: true }).waitFor();
    for (const name of AUTH_LINKS) expect(await mainNav(anon).getByRole('link', { name, exact: true }).count()).toBe(0);
    expect(await anon.getByTestId('logout-button').count()).toBe(0);

    const user = await e2e.signUp({ username: 'Linus' });
    const signedIn = await (await newContext(sessionStorageEntries(user))).newPage();
    await signedIn.goto(e2e.url('/'));
    await signedIn.getByTestId('logout-button').waitFor();
    for (const name of [...AUTH_LINKS, ...PUBLIC_LINKS]) await mainNav(signedIn).getByRole('link', { name, exact: true }).waitFor();
    expect(await signedIn.getByTestId('start-now').count()).toBe(0);
    await signedIn.locator('header').getByText('Linus', { exact: true }).waitFor();

    // Phone (the same pages at 390 px): the same rule inside the hamburger menu.
    const phoneAnon = anon;
    await phoneAnon.setViewportSize(MOBILE);
    await phoneAnon.getByTestId('mobile-menu-button').click();
    const menu = phoneAnon.getByTestId('mobile-menu');
    await menu.getByRole('link', { name: 'Installation', exact: true }).waitFor();
    for (const name of AUTH_LINKS) expect(await menu.getByRole('link', { name, exact: true }).count()).toBe(0);
    await menu.getByRole('link', { name: 'Start now' }).waitFor();

    const phone = signedIn;
    await phone.setViewportSize(MOBILE);
    await phone.getByTestId('mobile-menu-button').click();
    const signedInMenu = phone.getByTestId('mobile-menu');
    for (const name of AUTH_LINKS) await signedInMenu.getByRole('link', { name, exact: true }).waitFor();
    await signedInMenu.getByRole('button', { name: 'Logout' }).click();
    await phone.waitForURL(e2e.url('/login'));
    expect(await token(phone)).toBeNull();
  });
});
