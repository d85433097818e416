/**
 * Accessibility sweep: axe-core on every screen (header and footer included), in light and dark,
 * on a desktop and a 390 px phone. Each screen is opened once, as a user reaches it (a link's
 * client-side navigation), and audited at both widths and in both themes: the phone layout is the
 * same page resized, and the dark theme the same page under the `dark` class on <html>
 * (web/src/lib/theme.ts), so neither needs the page loaded again. Any `serious` or `critical`
 * violation fails, printed as "page: rule (impact) help / target / why" lines so the failing
 * element is easy to find.
 *
 * Pages use `reducedMotion: 'reduce'` (styles.css then ends fades at once, so axe never
 * measures a half-faded colour); axe is evaluated in the page, which the app's CSP (only 'self'
 * scripts) does not stop.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.ts';
import { DESKTOP, loadAxe, MOBILE, openInApp, sessionStorageEntries, useE2E } from './helpers.ts';

const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-06-15`;

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
  html: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/**
 * Violations owned by a screen another team is still changing (the dashboard), reported as
 * warnings instead of failures. Keep each entry narrow (page + rule + element) and delete it once
 * fixed; an entry that no longer matches anything costs nothing.
 */
const KNOWN_ISSUES: { page: RegExp; rule: string; target: RegExp; why: string }[] = [];
const knownSeen = new Set<string>();

/** axe on the whole document; returns readable lines for serious/critical violations. */
async function audit(page: Page, label: string, onlyRules?: string[]): Promise<string[]> {
  // Fonts and the lazily loaded header menus settle before measuring.
  await page.waitForLoadState('load');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.getByTestId('theme-menu').waitFor();
  await loadAxe(page);
  const violations = await page.evaluate(async (runOnly) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'], ...(runOnly ? { runOnly: { type: 'rule', values: runOnly } } : {}) });
    return result.violations.map((v) => ({ ...v, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary, html: n.html })) }));
  }, onlyRules);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes
        .filter((n) => {
          const known = KNOWN_ISSUES.find((k) => k.page.test(label) && k.rule === v.id && k.target.test(n.target.join(' > ')));
          if (known) knownSeen.add(`${known.why} [${label}]`);
          return !known;
        })
        .map(
          (n) =>
            `${label}: ${v.id} (${v.impact}) ${v.help}\n    at ${n.target.join(' > ')}  ${n.html.slice(0, 140)}\n    ${(n.failureSummary ?? '').replace(/\n\s*/g, ' | ')}`,
        ),
    );
}

/**
 * The theme's classes on <html>, as web/src/lib/theme.ts sets them, with colour transitions held
 * off while they change (transition-colors would otherwise show axe colours on their way).
 */
async function showTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => {
    const still = document.createElement('style');
    still.textContent = '*, *::before, *::after { transition: none !important; }';
    document.head.append(still);
    const root = document.documentElement;
    root.classList.toggle('dark', t === 'dark');
    root.classList.toggle('light', t === 'light');
    root.style.colorScheme = t;
    // Computes the new colours now, while transitions are off.
    void getComputedStyle(document.body).color;
    for (const element of document.querySelectorAll('*')) void getComputedStyle(element).color;
    still.remove();
  }, theme);
}

/** axe's rules whose outcome depends on colours: the only ones a theme changes. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** audit() in light, then the colour rules in dark; the page is left in light. */
async function auditBothThemes(page: Page, label: string): Promise<string[]> {
  const found = await audit(page, `${label} [light]`);
  await showTheme(page, 'dark');
  found.push(...(await audit(page, `${label} [dark]`, COLOUR_RULES)));
  await showTheme(page, 'light');
  return found;
}

describe('accessibility (axe-core, browser)', () => {
  const e2e = useE2E();
  let sink: WebhookSink;

  beforeAll(async () => {
    sink = await startWebhookSink();
  });
  afterAll(async () => {
    await sink?.close();
    if (knownSeen.size) console.warn(`Known accessibility issues (not failing):\n  ${[...knownSeen].join('\n  ')}`);
  });

  /** A page opened in the light theme (auditBothThemes shows it in dark too). */
  function newPage(opts: { viewport: { readonly width: number; readonly height: number }; storage?: Record<string, string> }): Promise<Page> {
    return e2e.newPage({ viewport: opts.viewport, storage: { 'vite-ui-theme': 'light', ...opts.storage } });
  }

  /** A user with a few reminders: active with a webhook, paused, daily. */
  async function userWithReminders() {
    const user = await e2e.signUp({ timezone: 'Europe/Paris' });
    const post = (body: object) => user.api.post('/api/reminders', body);
    const first = await post({
      date: FUTURE_DATE,
      time: '09:30',
      message: 'Water the plants',
      recurrence: 'WEEKLY',
      destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hooks/a11y`, platform: 'slack', username: 'Chime' } }],
    });
    expect(first.status).toBe(201);
    const paused = await post({ date: FUTURE_DATE, time: '18:00', message: 'Call the bank about the mortgage renewal', recurrence: 'ONCE', destinations: [] });
    expect(paused.status).toBe(201);
    await user.api.post(`/api/reminders/${(paused.body as { id: string }).id}/pause`, {});
    await post({ date: FUTURE_DATE, time: '07:00', message: 'Stand-up', recurrence: 'DAILY', destinations: [] });
    // This month's calendar holds chips: a dense custom series (one chip a day) and a one-off today.
    const today = new Date().toISOString().slice(0, 10);
    const series = await post({ date: today, time: '00:00', message: 'Stretch', recurrence: 'CUSTOM', rrule: 'FREQ=HOURLY;COUNT=72', destinations: [] });
    expect(series.status).toBe(201);
    await post({ date: today, time: '23:59', message: 'Lock the door', recurrence: 'ONCE', destinations: [] });
    return { user, reminderId: (first.body as { id: string }).id, today };
  }

  /**
   * The page as it is, audited on a desktop and then on a 390 px phone, each in light and dark: the
   * layout follows the width in CSS alone, so resizing the page shows the phone layout without
   * loading it again. The page is left at the desktop size.
   */
  async function auditEverySize(page: Page, label: string): Promise<string[]> {
    const found: string[] = [];
    for (const [device, viewport] of [
      ['desktop', DESKTOP],
      ['390px', MOBILE],
    ] as const) {
      await page.setViewportSize(viewport);
      found.push(...(await auditBothThemes(page, `${label}, ${device}`)));
    }
    await page.setViewportSize(DESKTOP);
    return found;
  }

  const report = (found: string[]) => expect(found.length, `axe found serious/critical violations:\n${found.join('\n')}\n`).toBe(0);

  it('has no serious or critical violations on the landing page, its menus open too (light and dark, desktop and 390 px)', async () => {
    const found: string[] = [];
    const anon = await newPage({ viewport: DESKTOP });
    await anon.goto(e2e.url('/'));
    await anon.getByTestId('hero-title').waitFor();
    found.push(...(await auditEverySize(anon, 'landing')));
    await anon.getByTestId('language-menu').click();
    await anon.getByTestId('language-fr').waitFor();
    found.push(...(await auditBothThemes(anon, 'landing, language menu open, desktop')));
    await anon.keyboard.press('Escape');
    await anon.setViewportSize(MOBILE);
    await anon.getByTestId('mobile-menu-button').click();
    await anon.getByTestId('mobile-menu').waitFor();
    found.push(...(await auditBothThemes(anon, 'landing, phone menu open, 390px')));
    await anon.keyboard.press('Escape');
    await anon.getByTestId('mobile-menu').waitFor({ state: 'detached' });
    report(found);
  });

  /** A page on the landing page, from where the other public pages are a click away. */
  async function onLanding() {
    const anon = await newPage({ viewport: DESKTOP });
    await anon.goto(e2e.url('/'));
    await anon.getByTestId('hero-title').waitFor();
    return anon;
  }

  it('has no serious or critical violations on the installation and contact pages (light and dark, desktop and 390 px)', async () => {
    const found: string[] = [];
    const anon = await onLanding();
    for (const route of ['/installation', '/contact']) {
      await openInApp(anon, route);
      await anon.waitForURL(e2e.url(route));
      await anon.locator('main h1').first().waitFor();
      found.push(...(await auditEverySize(anon, route)));
    }
    report(found);
  });

  it('has no serious or critical violations on sign-in, sign-up and a failed sign-in (light and dark, desktop and 390 px)', async () => {
    const found: string[] = [];
    const anon = await onLanding();
    await openInApp(anon, '/login');
    await anon.getByTestId('sign-in-form').waitFor();
    found.push(...(await auditEverySize(anon, 'login, sign in')));
    await anon.getByTestId('tab-signup').click();
    await anon.fill('#signup-password', 'abc');
    found.push(...(await auditEverySize(anon, 'login, sign up')));
    await openInApp(anon, '/auth/callback/discord?error=access_denied');
    await anon.getByTestId('callback-error').waitFor();
    found.push(...(await auditEverySize(anon, 'callback error')));
    report(found);
  });

  // The signed-in pages one or two views a test, each well inside its time limit on a loaded machine.
  it('has no serious or critical violations on the home of a new account (light and dark, desktop and 390 px)', async () => {
    const empty = await e2e.signUp();
    const fresh = await newPage({ viewport: DESKTOP, storage: sessionStorageEntries(empty) });
    // /welcome shows nothing of its own: it forwards to /home at once.
    await fresh.goto(e2e.url('/welcome'));
    await fresh.waitForURL(e2e.url('/home'));
    await fresh.getByTestId('dashboard-empty').waitFor();
    report(await auditEverySize(fresh, 'home, empty'));
  });

  /** A signed-in page on the home of an account with reminders, today's calendar day shown with its count. */
  async function homeWithReminders() {
    const { user, today } = await userWithReminders();
    const page = await newPage({ viewport: DESKTOP, storage: sessionStorageEntries(user) });
    await page.goto(e2e.url('/home'));
    await page.getByTestId('dashboard').waitFor();
    await page.getByText('Water the plants').first().waitFor();
    // The calendar with its chips (grid on a desktop, busy days listed on a phone).
    const todayCell = page.locator(`[data-testid="calendar-day"][data-date="${today}"]`);
    await todayCell.getByTestId('calendar-day-count').waitFor();
    return { page, todayCell };
  }

  it('has no serious or critical violations on the home with reminders (light and dark, desktop and 390 px)', async () => {
    const { page } = await homeWithReminders();
    report(await auditEverySize(page, 'home, with reminders'));
  });

  it('has no serious or critical violations in a day\'s dialog (light and dark, desktop and 390 px)', async () => {
    const { page, todayCell } = await homeWithReminders();
    await todayCell.click();
    await page.getByTestId('day-dialog').waitFor();
    await page.getByTestId('day-series-toggle').click();
    await page.getByTestId('day-occurrence').first().waitFor();
    report(await auditEverySize(page, 'home, day dialog'));
  });

  /** A signed-in page on the wizard's first step, filled in and ready to go on. */
  async function filledWizard() {
    const user = await e2e.signUp();
    const page = await newPage({ viewport: DESKTOP, storage: sessionStorageEntries(user) });
    await page.goto(e2e.url('/reminders/create'));
    await page.getByTestId('wizard-step-1').waitFor();
    await page.getByTestId('reminder-date').fill(FUTURE_DATE);
    await page.getByTestId('reminder-time').fill('09:30');
    await page.getByTestId('reminder-message').fill('Renew the passport');
    // Next turns enabled with a fade: audit the finished state, not a frame of the transition.
    await page.waitForFunction(() => {
      const next = document.querySelector<HTMLButtonElement>('[data-testid="wizard-next"]');
      return !!next && !next.disabled && getComputedStyle(next).opacity === '1';
    });
    return page;
  }

  /** From the first step to the second, the webhook form open. */
  async function toWizardDestinations(page: Page) {
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-2').waitFor();
    await page.getByTestId('toggle-webhook').click();
    await page.getByTestId('webhook-url').waitFor();
  }

  it('has no serious or critical violations in the wizard\'s first two steps (light and dark, desktop and 390 px)', async () => {
    const page = await filledWizard();
    const found = await auditEverySize(page, 'wizard step 1');
    await toWizardDestinations(page);
    found.push(...(await auditEverySize(page, 'wizard step 2')));
    report(found);
  });

  it('has no serious or critical violations on the wizard\'s review step (light and dark, desktop and 390 px)', async () => {
    const page = await filledWizard();
    await toWizardDestinations(page);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('review-step').waitFor();
    await page.getByTestId('review-occurrence').first().waitFor();
    report(await auditEverySize(page, 'wizard step 3'));
  });

  it('has no serious or critical violations on a reminder\'s page and the account page (light and dark, desktop and 390 px)', async () => {
    const found: string[] = [];
    const { user, reminderId } = await userWithReminders();
    const page = await newPage({ viewport: DESKTOP, storage: sessionStorageEntries(user) });
    await page.goto(e2e.url(`/reminders/${reminderId}`));
    await page.getByTestId('reminder-details').waitFor();
    await page.getByTestId('occurrence').first().waitFor();
    found.push(...(await auditEverySize(page, 'reminder details')));

    await openInApp(page, '/account');
    await page.getByTestId('account-page').or(page.locator('main h1')).first().waitFor();
    await page.getByText(user.email).first().waitFor();
    found.push(...(await auditEverySize(page, 'account')));
    report(found);
  });
});
