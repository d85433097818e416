/**
 * Browser end-to-end helpers: a real Chime server serving the built dashboard, and a headless
 * Chromium (playwright-core, Debian's chromium-headless-shell, else its chromium) shared by the
 * files of one test worker. A test's first page is the file's reusable page, emptied between tests
 * (see ReusablePage); any other page gets a fresh context.
 *
 *   const e2e = useE2E();                      // in a describe(); starts server + browser in beforeAll
 *   it('...', async () => {
 *     const page = await e2e.newPage();        // empty storage, 1280x800
 *     await page.goto(e2e.url('/login'));
 *     await screenshot(page, 'login-light');
 *   });
 *
 * Files run their tests serially (vitest's default inside a file); keep `describe.sequential` off
 * unless you add concurrency yourself.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, type CDPSession, chromium, type Locator, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Config } from '../../server/config.ts';
import type { FakeDiscord } from '../helpers/fake-discord/index.ts';
import { signUp, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Debian's headless shell (package chromium-headless-shell, which .ci/run installs) is the same
 * Blink without the browser's window and tab-strip UI: each page costs one renderer, not two, and
 * the browser tests run about twice as fast. The full chromium is the fallback.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // V8's optimizing compilers (Maglev, TurboFan) pay off in pages that run for minutes; a test's
  // pages live seconds, and compiling their hot code took a sixth of Chromium's CPU time in the
  // browser tests (dashboard and deliveries files: 62 -> 52 CPU-s). The interpreter and Sparkplug
  // run the same JavaScript with the same results.
  '--js-flags=--no-maglev --no-opt',
];
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-artifacts/screenshots');

/**
 * Clicks an option of an open Radix Select. On a loaded machine Radix can register its "ignore the
 * pointerup of the opening click" listener after that pointerup has passed; it then swallows the
 * next pointerup, the option's, and the list stays open with nothing chosen (seen in CI, and
 * reproduced under CPU load). A person clicks again; so does this, once, when the list is still
 * open a moment later.
 */
export async function chooseOption(page: Page, option: Locator): Promise<void> {
  await option.click();
  const listbox = page.getByRole('listbox');
  try {
    await listbox.waitFor({ state: 'hidden', timeout: 2000 });
  } catch {
    await option.click({ timeout: 5000 }).catch(async (err: unknown) => {
      if (await listbox.isVisible()) throw err;
    });
  }
}

/**
 * Opens a dashboard route the way a click on one of its links does: a client-side navigation (the
 * router follows history.pushState), not a page load. For a test that visits several routes on one
 * page, this checks what a user sees while sparing a full load of the app for each route.
 */
export async function openInApp(page: Page, pathname: string): Promise<void> {
  await page.evaluate((to) => history.pushState(null, '', to), pathname);
}

/** Chooses a theme in the header's menu, as a user does, and waits until the page shows it. */
export async function chooseTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.getByTestId('theme-menu').click();
  await page.getByTestId(`theme-${theme}`).click();
  await page.waitForFunction((name) => document.documentElement.classList.contains(name), theme);
}

/** Chooses a language in the header's menu, as a user does, and waits until the page speaks it. */
export async function chooseLanguage(page: Page, language: 'en' | 'fr' | 'es'): Promise<void> {
  await page.getByTestId('language-menu').click();
  await page.getByTestId(`language-${language}`).click();
  await page.waitForFunction((lng) => document.documentElement.lang === lng, language);
}

/** How far the page is wider than the screen, in CSS pixels (0 or less: it fits). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

export const DESKTOP = { width: 1280, height: 800 } as const;
/**
 * What every test context starts from. Reduced motion: styles.css then ends fades and slides at
 * once, so what a test reads, measures or photographs is the settled page, never a frame of a
 * transition.
 */
export const CONTEXT_DEFAULTS = { colorScheme: 'light', locale: 'en-US', timezoneId: 'UTC', reducedMotion: 'reduce' } as const;
export const MOBILE = { width: 390, height: 844 } as const;

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

let sharedBrowser: Promise<Browser> | null = null;

/**
 * One Chromium for every file a test worker runs (vitest.config.ts keeps a worker's modules from
 * one file to the next): starting one costs about a CPU-second. Each test still gets its own
 * context, so nothing of one test's storage reaches another; the browser ends with the worker.
 */
function workerBrowser(): Promise<Browser> {
  const current = sharedBrowser;
  if (current) {
    return current.then(
      (browser) => (browser.isConnected() ? browser : ((sharedBrowser = null), workerBrowser())),
      () => ((sharedBrowser = null), workerBrowser()),
    );
  }
  sharedBrowser = launchBrowser();
  return sharedBrowser;
}

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  /** Applied before any page script runs: localStorage entries (e.g. theme, language, session). */
  storage?: Record<string, string>;
  /** Emulated device colour scheme (what "System" follows). */
  colorScheme?: 'light' | 'dark';
  locale?: string;
  timezoneId?: string;
  /** 'reduce' unless a test looks at motion itself (CONTEXT_DEFAULTS). */
  reducedMotion?: 'reduce' | 'no-preference';
}

export interface E2E {
  server: TestServer;
  browser: Browser;
  url(pathname?: string): string;
  /** A page with empty storage (the file's reusable page emptied, or a new context). Closed or emptied when the test ends. */
  newPage(options?: NewPageOptions): Promise<Page>;
  /** Registers + signs in through the API; returns credentials and a token-bound API client. */
  signUp: (overrides?: Parameters<typeof signUp>[1]) => ReturnType<typeof signUp>;
  /** A page already signed in as a fresh user (session injected into localStorage). */
  signedInPage(options?: NewPageOptions & { user?: Awaited<ReturnType<typeof signUp>> }): Promise<{ page: Page; user: Awaited<ReturnType<typeof signUp>> }>;
  /** Console errors and page errors seen so far (CSP violations show up here). */
  consoleErrors: string[];
}

/** Local storage entries for a session, exactly as the dashboard stores them after login. */
export function sessionStorageEntries(login: { token: string; id: string; email: string; username: string; expires_at?: string }): Record<string, string> {
  const expiresAt = login.expires_at ?? new Date(Date.now() + 24 * 3600 * 1000).toISOString();
  return {
    auth_token: login.token,
    token_expires_at: expiresAt,
    user_data: JSON.stringify({ user_id: login.id, email: login.email, username: login.username, expires_at: expiresAt }),
  };
}

/**
 * The page a file's tests take turns on. A page load in a fresh context costs Chromium about two
 * CPU-seconds on this machine (a new renderer process, no compiled code cached), one in a page
 * that already showed the dashboard about 0.8 s. So the first page a test asks for with the default
 * locale and time zone is this one, emptied first: the server origin's cookies, storage, caches
 * and service worker cleared (DevTools' Storage.clearDataForOrigin), its session storage too; the
 * test's storage is then seeded by the first document of whichever origin it opens, as a new
 * context's init script does. A test that changes what cannot be undone (an init script, an
 * exposed function, the clock, a DevTools session, permissions, extra headers, a second page, a
 * visit to another origin) spoils it: the context is closed when the test ends and the next test
 * gets a new one.
 */
interface ReusablePage {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  inUse: boolean;
  /** Changed in a way emptying it does not undo. */
  spoiled: boolean;
  /** The DevTools id of the script seeding the current test's storage. */
  seedScript: string | null;
  /** The listeners before the test: Playwright's own and the console watch, which stay. */
  pageListeners: Listeners;
  contextListeners: Listeners;
}

type Listeners = Map<string | symbol, Set<unknown>>;

/** Runs in the page: local storage entries written once per tab and origin, so a test can still change them and reload. */
function seedStorageOnce(entries: Record<string, string>): void {
  if (sessionStorage.getItem('__e2e_seeded')) return;
  sessionStorage.setItem('__e2e_seeded', '1');
  for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
}

/** Playwright's pages and contexts are Node-style event emitters; its types leave these out. */
interface Emitter {
  eventNames(): (string | symbol)[];
  listeners(name: string | symbol): unknown[];
  removeListener(name: string | symbol, listener: unknown): void;
}

function listenersOf(target: Page | BrowserContext): Listeners {
  const emitter = target as unknown as Emitter;
  return new Map(emitter.eventNames().map((name) => [name, new Set(emitter.listeners(name))]));
}

/** Removes the listeners a test added, leaving Playwright's own (closing a context waits on one). */
function removeListenersSince(target: Page | BrowserContext, before: Listeners): void {
  const emitter = target as unknown as Emitter;
  for (const name of emitter.eventNames()) {
    for (const listener of emitter.listeners(name)) {
      if (!before.get(name)?.has(listener)) emitter.removeListener(name, listener);
    }
  }
}

/** What a test can change on a page or a context that resetting it does not undo. */
const SPOILING_PAGE_CALLS = ['addInitScript', 'exposeFunction', 'exposeBinding', 'setExtraHTTPHeaders', 'routeWebSocket', 'routeFromHAR'] as const;
const SPOILING_CONTEXT_CALLS = [...SPOILING_PAGE_CALLS, 'newCDPSession', 'grantPermissions', 'setGeolocation', 'setHTTPCredentials', 'newPage'] as const;
const CLOCK_CALLS = ['install', 'setFixedTime', 'setSystemTime', 'pauseAt', 'fastForward', 'runFor', 'resume'] as const;

function onCalls(target: object, names: readonly string[], call: () => void): void {
  const methods = target as Record<string, unknown>;
  for (const name of names) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    methods[name] = function (this: unknown, ...args: unknown[]) {
      call();
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}

/** Starts the server and the browser for the whole file; stops both afterwards. */
export function useE2E(options: { overrides?: Partial<Config>; env?: Record<string, string> } = {}): E2E {
  const contexts: BrowserContext[] = [];
  const state = { consoleErrors: [] as string[] } as E2E;
  let reusable: ReusablePage | null = null;

  beforeAll(async () => {
    state.server = await startTestServer({ env: options.env, overrides: { serveWeb: true, ...options.overrides } });
    state.browser = await workerBrowser();
  });

  // A test's own contexts close when it ends: left open, each keeps rendering and polling (the
  // dashboard revalidates every 30 s) and slows every later test of the file.
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {});
    await releaseReusable();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await reusable?.context.close().catch(() => {});
    reusable = null;
    await state.server?.close();
  });

  state.url = (pathname = '/') => state.server.url + pathname;

  function watchConsole(page: Page): void {
    page.on('console', (msg) => {
      if (msg.type() === 'error') state.consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => state.consoleErrors.push(String(err)));
  }

  /** Below the browser project's 60 s test timeout, so a step that never happens fails with its own locator and call log instead of vitest's anonymous "Test timed out". */
  function setStepTimeouts(page: Page): void {
    page.setDefaultTimeout(30_000);
    page.setDefaultNavigationTimeout(30_000);
  }

  function preparePage(page: Page): void {
    setStepTimeouts(page);
    watchConsole(page);
  }

  async function releaseReusable(): Promise<void> {
    const current = reusable;
    if (!current?.inUse) return;
    current.inUse = false;
    const { context, page } = current;
    if (current.spoiled || page.isClosed() || context.pages().length !== 1) {
      reusable = null;
      await context.close().catch(() => {});
      return;
    }
    try {
      if (current.seedScript) await current.cdp.send('Page.removeScriptToEvaluateOnNewDocument', { identifier: current.seedScript });
      current.seedScript = null;
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      await context.setOffline(false);
      await context.clearCookies();
      removeListenersSince(page, current.pageListeners);
      removeListenersSince(context, current.contextListeners);
      setStepTimeouts(page);
    } catch {
      reusable = null;
      await context.close().catch(() => {});
    }
  }

  async function takeReusable(opts: NewPageOptions): Promise<Page | null> {
    if ((opts.locale ?? CONTEXT_DEFAULTS.locale) !== CONTEXT_DEFAULTS.locale || (opts.timezoneId ?? CONTEXT_DEFAULTS.timezoneId) !== CONTEXT_DEFAULTS.timezoneId) return null;
    if (reusable?.inUse) return null;
    if (!reusable) {
      const context = await state.browser.newContext({ viewport: DESKTOP, ...CONTEXT_DEFAULTS });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Page.enable');
      const fresh: ReusablePage = { context, page, cdp, inUse: false, spoiled: false, seedScript: null, pageListeners: new Map(), contextListeners: new Map() };
      preparePage(page);
      // Only the server's origin is emptied between tests: a page that went elsewhere (a proxy, localhost) is not reused.
      const serverOrigin = new URL(state.server.url).origin;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame() && /^https?:/.test(frame.url()) && new URL(frame.url()).origin !== serverOrigin) fresh.spoiled = true;
      });
      // Taken once ours are on: they stay from one test to the next.
      fresh.pageListeners = listenersOf(page);
      fresh.contextListeners = listenersOf(context);
      const spoil = () => (fresh.spoiled = true);
      onCalls(page, SPOILING_PAGE_CALLS, spoil);
      onCalls(context, SPOILING_CONTEXT_CALLS, spoil);
      onCalls(context.clock, CLOCK_CALLS, spoil);
      reusable = fresh;
    }
    const current = reusable;
    const { page, cdp } = current;
    current.inUse = true;
    await page.setViewportSize(opts.viewport ?? DESKTOP);
    await page.emulateMedia({ colorScheme: opts.colorScheme ?? CONTEXT_DEFAULTS.colorScheme, reducedMotion: opts.reducedMotion ?? CONTEXT_DEFAULTS.reducedMotion });
    // A document of the server's origin that runs no dashboard code, where its storage is emptied.
    await page.goto(state.url('/healthz'));
    await cdp.send('Storage.clearDataForOrigin', { origin: state.server.url, storageTypes: 'all' });
    await page.evaluate(() => {
      sessionStorage.clear();
      localStorage.clear();
    });
    // Seeded like a new context's (newPage below): by the first document of whichever origin the test opens.
    if (opts.storage) {
      const { identifier } = await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: `(${seedStorageOnce.toString()})(${JSON.stringify(opts.storage)})` });
      current.seedScript = identifier;
    }
    return page;
  }

  state.newPage = async (opts: NewPageOptions = {}) => {
    const reused = await takeReusable(opts);
    if (reused) return reused;
    const context = await state.browser.newContext({
      viewport: opts.viewport ?? DESKTOP,
      colorScheme: opts.colorScheme ?? CONTEXT_DEFAULTS.colorScheme,
      locale: opts.locale ?? CONTEXT_DEFAULTS.locale,
      timezoneId: opts.timezoneId ?? CONTEXT_DEFAULTS.timezoneId,
      reducedMotion: opts.reducedMotion ?? CONTEXT_DEFAULTS.reducedMotion,
    });
    contexts.push(context);
    if (opts.storage) await context.addInitScript(seedStorageOnce, opts.storage);
    const page = await context.newPage();
    preparePage(page);
    return page;
  };

  state.signUp = (overrides) => signUp(state.server.url, overrides);

  state.signedInPage = async (opts = {}) => {
    const user = opts.user ?? (await state.signUp());
    const page = await state.newPage({
      ...opts,
      storage: { ...sessionStorageEntries({ token: user.token, id: user.id, email: user.email, username: user.username }), ...opts.storage },
    });
    return { page, user };
  };

  return state;
}

/** Whether screenshot() saves anything: only when asked (docs/architecture.md "Tests"), as nothing checks the images. */
export const SAVE_SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** With SCREENSHOTS=1, a full-page PNG in test-artifacts/screenshots/<name>.png; returns the file path. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  if (!SAVE_SCREENSHOTS) return file;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // animations: 'disabled' finishes transitions and animations first, so the shot is deterministic.
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true, animations: 'disabled' });
  return file;
}

/**
 * Waits until no finite animation or transition runs: a fade-in, or the colour transitions a theme
 * change starts, would make colours look paler than they end up, and axe's contrast check would
 * read the colours of the middle of the change (seen on a loaded run, where a 150 ms transition
 * takes longer than the test's next step).
 */
export async function waitForSettledColours(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
}

const AXE_SOURCE = readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * Makes axe-core available in the page as `window.axe`. Evaluated, not added as a script tag: the
 * page's CSP allows only its own scripts. Loaded once per page load: a second evaluation would
 * parse its half-megabyte again.
 */
export async function loadAxe(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
}

/**
 * axe-core violations inside <main> (the header belongs to the layout and has its own sweep in
 * a11y.test.ts), as "rule: target" lines. Colour contrast is checked in both themes.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await waitForSettledColours(page);
  await loadAxe(page);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: string, opts: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run('#main', { resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  });
}

/** Links the fake's Discord user `discordId` to the account through the real OAuth link flow: authorize URL, the fake's consent redirect, the callback. */
export async function linkDiscordAccount(serverUrl: string, fake: FakeDiscord, user: { token: string }, discordId: string): Promise<void> {
  const headers = { authorization: `Bearer ${user.token}`, origin: serverUrl };
  const start = await fetch(`${serverUrl}/api/auth/discord/authorize-url?mode=link`, { headers });
  expect(start.status).toBe(200);
  const stateCookie = start.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { url } = (await start.json()) as { url: string };
  fake.setAuthorizingUser(discordId);
  const redirect = await fetch(url, { redirect: 'manual' });
  const target = new URL(redirect.headers.get('location')!);
  const res = await fetch(`${serverUrl}/api/auth/discord/callback`, {
    method: 'POST',
    headers: { ...headers, cookie: stateCookie, 'content-type': 'application/json' },
    body: JSON.stringify({ code: target.searchParams.get('code'), state: target.searchParams.get('state') }),
  });
  expect(res.status).toBe(200);
}

/** Opens the wizard and fills its first step, then moves on to the destinations. */
async function fillWizardDetails(page: Page, baseUrl: string, details: { date: string; time: string; message: string }): Promise<void> {
  await page.goto(`${baseUrl}/reminders/create`);
  await page.getByTestId('wizard-step-1').waitFor();
  await page.getByTestId('reminder-date').fill(details.date);
  await page.getByTestId('reminder-time').fill(details.time);
  await page.getByTestId('reminder-message').fill(details.message);
  await page.getByTestId('wizard-next').click();
}

/** Opens the wizard, fills its first step (`date` at 08:00, "Team sync") and moves on to the destinations. */
export async function openWizardDestinations(page: Page, serverUrl: string, date: string): Promise<void> {
  await fillWizardDetails(page, serverUrl, { date, time: '08:00', message: 'Team sync' });
  await page.getByTestId('destinations-editor').waitFor();
}

/** Opens the wizard, fills its first step (`date` at 09:30, "Renew the passport"), adds no destination and stops at the review. */
export async function openWizardReview(page: Page, baseUrl: string, date: string): Promise<void> {
  await fillWizardDetails(page, baseUrl, { date, time: '09:30', message: 'Renew the passport' });
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('review-occurrences').waitFor();
}

/**
 * Lets the first POST that `matches` reach the server, which must answer `status`, then drops its
 * answer: the page sees a reset connection, as after a timeout or a mobile network that went away.
 * Later ones pass. Answers the Idempotency-Key of every such POST, in order.
 */
export async function loseFirstAnswer(page: Page, matches: (url: URL, request: Request) => boolean, status: number): Promise<string[]> {
  const keys: string[] = [];
  let lost = false;
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route, request) => {
      if (request.method() !== 'POST' || !matches(new URL(request.url()), request)) return route.continue();
      keys.push((await request.allHeaders())['idempotency-key'] ?? '');
      if (lost) return route.continue();
      lost = true;
      const answer = await route.fetch();
      expect(answer.status()).toBe(status);
      await route.abort('connectionreset');
    },
  );
  return keys;
}
