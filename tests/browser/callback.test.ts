import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { type FakeDiscord, startFakeDiscord } from '../helpers/fake-discord/index.ts';
import { client, signUp } from '../helpers/server.ts';
import { axeViolations, chooseTheme, CONTEXT_DEFAULTS, DESKTOP, horizontalOverflow, launchBrowser, linkDiscordAccount, MOBILE, openWizardDestinations, screenshot, sessionStorageEntries } from './helpers.ts';


/**
 * Discord sign-in through the browser (docs/dashboard.md "Screens and routes", the Discord callback): the fake
 * Discord's authorize page redirects straight back to Chime's callback route, so the server must
 * listen on the port its PUBLIC_URL names. That is why this file starts its own server on a port
 * chosen up front instead of using useE2E().
 */

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

let fake: FakeDiscord;
let app: FastifyInstance;
let baseUrl: string;
let dir: string;
let browser: Browser;
const contexts: BrowserContext[] = [];
const consoleErrors: string[] = [];
let seq = 0;

const url = (pathname: string) => baseUrl + pathname;

async function newPage(opts: { viewport?: { width: number; height: number }; storage?: Record<string, string> } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: opts.viewport ?? DESKTOP, ...CONTEXT_DEFAULTS });
  contexts.push(context);
  if (opts.storage) {
    await context.addInitScript((entries: Record<string, string>) => {
      if (sessionStorage.getItem('__e2e_seeded')) return;
      sessionStorage.setItem('__e2e_seeded', '1');
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
    }, opts.storage);
  }
  const page = await context.newPage();
  // Below the test timeout, so a step that never happens fails with its own locator and call log.
  page.setDefaultTimeout(30_000);
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => consoleErrors.push(String(err)));
  return page;
}

/** A Discord user of the fake who will be the one clicking "Authorize". */
function discordUser(name: string, email: string | null = `${name}@discord.example`): string {
  seq += 1;
  const id = `8${String(Date.now()).slice(-9)}${String(seq).padStart(8, '0')}`;
  fake.addUser({ id, username: name, email });
  fake.setAuthorizingUser(id);
  return id;
}

/** Login page -> "Continue with Discord" -> fake authorize -> back on the callback route. */
async function continueWithDiscord(page: Page) {
  await page.goto(url('/login'));
  const button = page.getByTestId('discord-login');
  await page.waitForFunction(() => !(document.querySelector('[data-testid="discord-login"]') as HTMLButtonElement | null)?.disabled);
  await button.click();
}

beforeAll(async () => {
  fake = await startFakeDiscord();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  dir = mkdtempSync(path.join(tmpdir(), 'chime-e2e-callback-'));
  const config = loadConfig(
    {
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATABASE_URL: path.join(dir, 'chime.db'),
      DISCORD_TOKEN: fake.botToken,
      DISCORD_CLIENT_ID: fake.clientId,
      DISCORD_CLIENT_SECRET: fake.clientSecret,
      DISCORD_API_URL: fake.apiUrl,
    },
    { serveWeb: true },
  );
  app = await buildApp({ config, logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
});

// A test's pages close when it ends, as in useE2E (tests/browser/helpers.ts).
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => {});
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close().catch(() => {});
  await app?.close();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Discord callback page (browser)', () => {
  it('signs up with Discord: profile completion with validation, then /welcome', async () => {
    discordUser('ada', 'ada@discord.example');
    const page = await newPage();
    await continueWithDiscord(page);
    await page.waitForURL((u) => u.pathname === '/auth/callback/discord' && u.searchParams.has('code'));
    await page.getByTestId('setup-form').waitFor();

    // Prefilled from Discord; the tip explains the two sign-in methods.
    expect(await page.inputValue('#setup-email')).toBe('ada@discord.example');
    expect(await page.inputValue('#setup-username')).toBe('ada');
    expect(await page.getByTestId('setup-tip').textContent()).toContain('either with your email and password or with Discord');
    await screenshot(page, 'callback-setup-light');
    expect(await axeViolations(page)).toEqual([]);

    await page.fill('#setup-email', '');
    await page.fill('#setup-username', '  ');
    await page.getByTestId('setup-submit').click();
    expect(await page.getByTestId('setup-email-error').textContent()).toBe('Email is required');
    expect(await page.getByTestId('setup-username-error').textContent()).toBe('Username is required');
    expect(await page.getByTestId('setup-password-error').textContent()).toBe('Password is required');
    await page.fill('#setup-email', 'ada@example.com');
    await page.fill('#setup-username', 'Ada L');
    await page.fill('#setup-password', 'short');
    await page.getByTestId('setup-submit').click();
    // "Password is required" is still shown until the form has checked the new value.
    await expect.poll(() => page.getByTestId('setup-password-error').textContent(), { timeout: 10_000 }).toBe('Password must be at least 8 characters');
    expect(await page.getByTestId('setup-email-error').count()).toBe(0);

    await page.fill('#setup-password', 'Sup3r-secret!');
    expect(await page.getByTestId('password-strength').getAttribute('data-score')).toBe('100');
    await page.getByTestId('timezone-combobox').click();
    await page.getByTestId('timezone-search').fill('paris');
    await page.getByRole('option', { name: /^Paris \(UTC/ }).click();
    await page.getByTestId('setup-submit').click();

    // /welcome forwards to the dashboard at once and greets there.
    await page.waitForURL(url('/home'));
    await page.getByTestId('welcome').getByText('Welcome, Ada L!').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    expect(token).toBeTruthy();
    const user = JSON.parse((await page.evaluate(() => localStorage.getItem('user_data'))) ?? '{}');
    expect(user).toMatchObject({ email: 'ada@example.com', username: 'Ada L' });
    // No expiry in a Discord answer means 30 days; the server sends one, so it is whatever it said.
    expect(Date.parse(user.expires_at)).toBeGreaterThan(Date.now() + 24 * 3600 * 1000);

    const account = (await client(baseUrl, token!).get('/api/account')).body;
    expect(account).toMatchObject({ email: 'ada@example.com', username: 'Ada L', timezone: 'Europe/Paris' });
    expect(account.identities.map((i: { provider: string }) => i.provider).sort()).toEqual(['app', 'discord']);
    // The password now works too.
    expect((await client(baseUrl).post('/api/auth/login', { email: 'ada@example.com', password: 'Sup3r-secret!', remember_me: false })).status).toBe(200);

    // The next Discord sign-in skips the form.
    const again = await newPage();
    await continueWithDiscord(again);
    await again.waitForURL(url('/home'));
    expect(await again.getByTestId('setup-form').count()).toBe(0);
  });

  it('connects Discord from the account page and comes back to /account', async () => {
    const user = await signUp(baseUrl);
    const page = await newPage({ storage: sessionStorageEntries(user) });
    await page.goto(url('/account'));
    await page.getByTestId('account-page').waitFor();
    expect(await page.getByTestId('identity-discord').textContent()).toContain('Not connected');
    discordUser('linker', 'linker@discord.example');
    await page.getByTestId('discord-connect').click();
    await page.waitForURL(url('/account'));
    await page.getByText('Discord account connected').waitFor();
    await page.getByTestId('identity-discord').getByText('Connected as linker').waitFor();
    const account = (await user.api.get('/api/account')).body;
    expect(account.identities.map((i: { provider: string }) => i.provider).sort()).toEqual(['app', 'discord']);
  });

  it('connects Discord from the wizard and comes back to the same draft, where a DM can now be added (issue 27 #11)', async () => {
    const user = await signUp(baseUrl);
    const page = await newPage({ storage: sessionStorageEntries(user) });
    await openWizardDestinations(page, baseUrl, '2031-05-05');
    await page.getByTestId('toggle-webhook').click();
    await page.getByTestId('webhook-url').fill('https://hooks.example.com/services/kept');
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('destination-item').waitFor();
    expect(await page.getByTestId('dm-hint').getAttribute('data-reason')).toBe('noIdentity');

    discordUser('drafter', 'drafter@discord.example');
    // No "leave without creating?" on the way out: the draft is kept.
    await page.getByTestId('connect-discord').first().click();
    await page.waitForURL((u) => u.pathname === '/reminders/create');
    await page.getByText('Discord account connected').waitFor();
    await page.getByTestId('wizard-step-2').waitFor();
    expect(await page.getByTestId('destination-item').count()).toBe(1);
    await page.waitForFunction(() => !(document.querySelector('[data-testid="add-dm"]') as HTMLButtonElement | null)?.disabled);
    await page.getByTestId('add-dm').click();
    await page.getByTestId('wizard-next').click();
    expect(await page.getByTestId('review-message').textContent()).toBe('Team sync');
    expect(await page.getByTestId('review-destination').count()).toBe(2);
    // Taken once: a later visit to the wizard starts afresh.
    await page.goto(url('/reminders/create'));
    await page.getByTestId('wizard-step-1').waitFor();
    expect(await page.inputValue('#wizard-message')).toBe('');
  });

  describe('says a Discord account linked to another Chime account is the problem, and leads back to the account (issue 14)', () => {
    let taken: string;
    beforeAll(async () => {
      // Someone already has this Discord account connected to their Chime account.
      taken = discordUser('taken', 'taken@discord.example');
      await linkDiscordAccount(baseUrl, fake, await signUp(baseUrl), taken);
    });

    // Another signed-in user tries to connect the same Discord account.
    it('in light and dark, on a desktop and at 390 px', async () => {
      fake.setAuthorizingUser(taken);
      const user = await signUp(baseUrl);
      const page = await newPage({ storage: sessionStorageEntries(user) });
      await page.goto(url('/account'));
      await page.getByTestId('account-page').waitFor();
      await page.getByTestId('discord-connect').click();
      await page.getByTestId('callback-error').waitFor();
      expect(await page.getByTestId('callback-error-title').textContent()).toBe('This Discord account is already linked');
      expect(await page.getByTestId('callback-error-message').textContent()).toContain('already linked to another Chime account');
      expect(await page.getByText('Discord sign-in failed').count()).toBe(0);
      expect(await page.getByTestId('back-to-login').count()).toBe(0);
      expect(await page.getByTestId('back-to-account').textContent()).toBe('Back to account');
      // The same screen in each look: the theme from the header menu, the phone by resizing.
      for (const [name, viewport, theme] of [
        ['light', DESKTOP, 'light'],
        ['dark', DESKTOP, 'dark'],
        ['390', MOBILE, 'light'],
      ] as const) {
        await page.setViewportSize(viewport);
        if (!(await page.evaluate((t) => document.documentElement.classList.contains(t), theme))) await chooseTheme(page, theme);
        await screenshot(page, `callback-link-conflict-${name}`);
        expect(await axeViolations(page), name).toEqual([]);
      }
      await page.getByTestId('back-to-account').click();
      await page.waitForURL(url('/account'));
      expect(await page.getByTestId('identity-discord').textContent()).toContain('Not connected');
    });
  });

  it('shows the error screen for ?error=, a missing code, a refused authorization and a bad state', async () => {
    const page = await newPage();
    await page.goto(url('/auth/callback/discord?error=access_denied'));
    expect(await page.getByTestId('callback-error-message').textContent()).toBe('Discord authentication failed: access_denied');
    await screenshot(page, 'callback-error');
    await page.getByTestId('back-to-login').click();
    await page.waitForURL(url('/login'));

    await page.goto(url('/auth/callback/discord'));
    expect(await page.getByTestId('callback-error-message').textContent()).toBe('No authorization code received from Discord');

    // The user clicks Cancel on Discord's page.
    fake.setAuthorizingUser(null);
    await continueWithDiscord(page);
    await page.getByTestId('callback-error').waitFor();
    expect(await page.getByTestId('callback-error-message').textContent()).toBe('Discord authentication failed: access_denied');

    // A code without the matching state cookie: the server's (translated) error.
    await page.goto(url('/auth/callback/discord?code=abc&state=forged'));
    await page.getByTestId('callback-error').waitFor();
    expect(await page.getByTestId('callback-error-message').textContent()).toContain('expired or was started elsewhere');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });

  it('takes dark and 390 px screenshots of the profile-completion form', async () => {
    discordUser('grace', null);
    const page = await newPage({ storage: { 'vite-ui-theme': 'dark' } });
    await continueWithDiscord(page);
    await page.getByTestId('setup-form').waitFor();
    // Discord gave no email: the field starts empty.
    expect(await page.inputValue('#setup-email')).toBe('');
    await page.fill('#setup-password', 'abc');
    await screenshot(page, 'callback-setup-dark');
    expect(await axeViolations(page)).toEqual([]);

    // The same form in light on a phone (the layout follows the width in CSS alone).
    await chooseTheme(page, 'light');
    await page.setViewportSize(MOBILE);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'callback-setup-mobile');
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(url('/auth/callback/discord?error=access_denied'));
    await page.getByTestId('callback-error').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('after a session expiry, a Discord sign-in returns to the page it interrupted, query included (issue 10)', async () => {
    discordUser('returner', 'returner@discord.example');
    const page = await newPage();
    await continueWithDiscord(page);
    await page.getByTestId('setup-form').waitFor();
    await page.fill('#setup-email', `returner-${Date.now()}@example.com`);
    await page.fill('#setup-username', 'Returner');
    await page.fill('#setup-password', 'Sup3r-secret!');
    await page.getByTestId('setup-submit').click();
    await page.waitForURL(url('/home'));

    // The stored session expired while the tab was away; the user opens a page with a query.
    await page.evaluate(() => localStorage.setItem('token_expires_at', new Date(Date.now() - 1000).toISOString()));
    const target = '/reminders/create?date=2031-05-04';
    await page.goto(url(target));
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('reason') === 'expired' && u.searchParams.get('next') === target);
    expect(await page.getByTestId('session-expired').textContent()).toBe('Your session has expired. Please sign in again.');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

    await page.waitForFunction(() => !(document.querySelector('[data-testid="discord-login"]') as HTMLButtonElement | null)?.disabled);
    await page.getByTestId('discord-login').click();
    await page.waitForURL(url(target));
    await page.getByTestId('wizard-step-1').waitFor();
    expect(await page.getByTestId('reminder-date').inputValue()).toBe('2031-05-04');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeTruthy();
    // Used once: the next Discord sign-in from a plain /login goes to /welcome again.
    expect(await page.evaluate(() => sessionStorage.getItem('chime_return_to'))).toBeNull();
    await page.evaluate(() => localStorage.clear());
    await continueWithDiscord(page);
    await page.waitForURL(url('/home'));
  });

  it('ran without console errors', () => {
    // The forged state answers 400 and the link conflict 409: expected network error lines.
    const unexpected = consoleErrors.filter((line) => !/400|Bad Request|409|Conflict|Discord authentication failed/i.test(line));
    expect(unexpected).toEqual([]);
  });
});
