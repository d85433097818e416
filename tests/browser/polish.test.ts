import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseLanguage, chooseTheme, DESKTOP, loadAxe, MOBILE, openInApp, screenshot, useE2E } from './helpers.ts';

/**
 * Issue 14, "what a new user trips over": one time-zone wording, one date/time format per
 * language, a title per page, the password rule on phones, saved-field toasts, heading order on
 * /home, real support/community links and installation steps, and no wait on /welcome.
 */

const SUPPORT = 'https://support.example.org/chime/issues';
const COMMUNITY = 'https://forum.example.org/c/chime';
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

/** The looks a public page is checked in: one page, the theme from the header menu, the phone by resizing. */
const LOOKS = [
  ['desktop-light', DESKTOP, 'light'],
  ['desktop-dark', DESKTOP, 'dark'],
  ['390-light', MOBILE, 'light'],
] as const;

/** The page at this size and in this theme (chosen in the header's menu when it changes). */
async function lookAs(page: Page, viewport: { width: number; height: number }, theme: 'light' | 'dark'): Promise<Page> {
  await page.setViewportSize(viewport);
  if (!(await page.evaluate((name) => document.documentElement.classList.contains(name), theme))) await chooseTheme(page, theme);
  return page;
}

/** Visible text of <main>. */
const mainText = (page: Page) => page.locator('main').innerText();

/** Waits for a sonner toast holding `text` (started before the action so a short toast is not missed). */
const toastWith = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();

describe('issue 14 polish (browser)', () => {
  const e2e = useE2E({ env: { SUPPORT_URL: SUPPORT, COMMUNITY_URL: COMMUNITY } });

  it('shows every time zone as "City (UTC±hh:mm)" with the IANA id as its tooltip', async () => {
    const user = await e2e.signUp({ timezone: 'Asia/Tokyo' });
    const created = await user.api.post('/api/reminders', { date: `${NEXT_YEAR}-03-10`, time: '09:00', message: 'Zone check', recurrence: 'ONCE', destinations: [] });
    expect(created.status).toBe(201);
    const { page } = await e2e.signedInPage({ user });

    // Dashboard.
    await page.goto(e2e.url('/home'));
    await page.getByTestId('dashboard').waitFor();
    const stat = page.getByTestId('stat-timezone-value').locator('[title]');
    expect(await stat.textContent()).toBe('Tokyo (UTC+09:00)');
    expect(await stat.getAttribute('title')).toBe('Asia/Tokyo');

    // Reminder details: the overview line, the info card and the edit form's picker.
    await openInApp(page, `/reminders/${created.body.id}`);
    await page.getByTestId('reminder-details').waitFor();
    expect(await page.getByTestId('view-zone').textContent()).toBe('Times are shown in your account time zone: Tokyo (UTC+09:00).');
    expect(await page.getByTestId('view-zone').getAttribute('title')).toBe('Asia/Tokyo');
    expect(await page.getByTestId('info-timezone').textContent()).toBe('Tokyo (UTC+09:00)');
    expect(await page.getByTestId('info-timezone').getAttribute('title')).toBe('Asia/Tokyo');
    await page.getByTestId('edit-reminder').click();
    const picker = page.getByTestId('timezone-combobox');
    expect(await picker.textContent()).toContain('Tokyo (UTC+09:00)');
    expect(await picker.locator('[title="Asia/Tokyo"]').count()).toBe(1);
    await picker.click();
    await page.getByTestId('timezone-search').fill('kolkata');
    const option = page.getByRole('option', { name: 'Kolkata (UTC+05:30)' });
    expect(await option.locator('[title]').getAttribute('title')).toBe('Asia/Kolkata');
    await page.keyboard.press('Escape');
    // The IANA spellings are gone from what the page says (they live in tooltips only).
    expect(await mainText(page)).not.toMatch(/Asia ?\/ ?Tokyo/);

    // Wizard: the hint under the time and the review step.
    await openInApp(page, '/reminders/create');
    await page.getByTestId('wizard-step-1').waitFor();
    expect(await page.getByTestId('reminder-timezone').textContent()).toContain('Tokyo (UTC+09:00)');
    expect(await mainText(page)).not.toMatch(/Asia ?\/ ?Tokyo/);

    // Account: the select, its options and the toast.
    await openInApp(page, '/account');
    await page.getByTestId('account-page').waitFor();
    expect(await page.getByTestId('timezone-combobox').textContent()).toBe('Tokyo (UTC+09:00)');
    await page.getByTestId('timezone-combobox').click();
    await page.getByTestId('timezone-search').fill('paris');
    const paris = page.getByRole('option', { name: /^Paris / });
    expect(await paris.textContent()).toMatch(/^Paris \(UTC\+0[12]:00\)$/);
    expect(await paris.locator('[title]').getAttribute('title')).toBe('Europe/Paris');
    const toast = toastWith(page, 'Time zone changed to Paris (UTC+0');
    await paris.click();
    await toast;
    expect((await user.api.get('/api/account')).body.timezone).toBe('Europe/Paris');
    await screenshot(page, 'issue14-account-zone-toast');

    // Sign-up picker (signed out).
    const anon = await e2e.newPage();
    await anon.goto(e2e.url('/login'));
    await anon.getByTestId('tab-signup').click();
    await anon.getByTestId('timezone-combobox').click();
    await anon.getByTestId('timezone-search').fill('new york');
    expect(await anon.getByRole('option').first().textContent()).toMatch(/^New York \(UTC-0[45]:00\)$/);
    await anon.getByTestId('timezone-search').fill('UTC+09');
    const nine = await anon.getByRole('option').allTextContents();
    expect(nine).toEqual(expect.arrayContaining(['Seoul (UTC+09:00)', 'Tokyo (UTC+09:00)']));
    expect(nine.every((o) => o.includes('(UTC+09:'))).toBe(true);
  });

  it('formats times one way per language: 24-hour in Spanish and French, 12-hour with two digits in English', async () => {
    const user = await e2e.signUp({ timezone: 'UTC' });
    const date = `${NEXT_YEAR}-11-23`;
    const created = await user.api.post('/api/reminders', { date, time: '01:15', message: 'Horario', recurrence: 'DAILY', destinations: [] });
    expect(created.status).toBe(201);
    // A snooze shows a full date and time beside the plain time: the two used to disagree in Spanish.
    const until = new Date(Date.now() + 2 * 86400_000);
    until.setUTCHours(2, 5, 0, 0);
    expect((await user.api.post(`/api/reminders/${created.body.id}/snooze`, { until: until.toISOString() })).status).toBe(200);

    const expected = { es: { time: /^0[12]:[01]5$/, snooze: /, 02:05\.?$/ }, fr: { time: /^0[12]:[01]5$/, snooze: /, 02:05\.?$/ }, en: { time: /^0[12]:[01]5 AM$/, snooze: /, 02:05 AM\.?$/ } } as const;
    const { page } = await e2e.signedInPage({ user });
    await page.goto(e2e.url(`/reminders/${created.body.id}`));
    await page.getByTestId('reminder-details').waitFor();
    for (const [language, want] of Object.entries(expected) as [keyof typeof expected, (typeof expected)[keyof typeof expected]][]) {
      await chooseLanguage(page, language);
      await page.getByTestId('occurrence').first().waitFor();
      expect(await page.getByTestId('view-time').textContent()).toMatch(want.time);
      const snoozed = (await page.getByTestId('snoozed-hint').textContent()) ?? '';
      expect(snoozed).toMatch(want.snooze);
      // No time anywhere on the page with a one-digit hour ("1:15") beside two-digit ones.
      expect(await mainText(page)).not.toMatch(/(?<![\d:])\d:\d\d(?!\d)/);
      if (language === 'es') await screenshot(page, 'issue14-details-es');
    }
  });

  it('gives every page its own translated title', async () => {
    const user = await e2e.signUp();
    const created = await user.api.post('/api/reminders', {
      date: `${NEXT_YEAR}-05-01`,
      time: '08:00',
      message: 'Renew the passport before the summer holidays start',
      recurrence: 'ONCE',
      destinations: [],
    });
    const anon = await e2e.newPage();
    // Each route is reached as a link reaches it (the title must follow a client-side navigation).
    const titleOf = async (page: Page, pathname: string, ready: string) => {
      await openInApp(page, pathname);
      await page.getByTestId(ready).first().waitFor();
      await page.waitForFunction(() => document.title !== 'Chime');
      return page.title();
    };
    await anon.goto(e2e.url('/'));
    expect(await titleOf(anon, '/', 'hero-title')).toBe('Self-hosted reminders - Chime');
    expect(await titleOf(anon, '/login', 'sign-in-form')).toBe('Sign in - Chime');
    await anon.getByTestId('tab-signup').click();
    await anon.waitForFunction(() => document.title === 'Sign up - Chime');
    expect(await titleOf(anon, '/contact', 'contact-sections')).toBe('Contact - Chime');
    expect(await titleOf(anon, '/installation', 'installation-discord')).toBe('Installation - Chime');
    expect(await titleOf(anon, '/auth/callback/discord?error=access_denied', 'callback-error')).toBe('Discord sign-in - Chime');

    const { page } = await e2e.signedInPage({ user });
    await page.goto(e2e.url('/home'));
    expect(await titleOf(page, '/home', 'dashboard')).toBe('Dashboard - Chime');
    expect(await titleOf(page, '/reminders/create', 'wizard-step-1')).toBe('New reminder - Chime');
    expect(await titleOf(page, `/reminders/${created.body.id}`, 'view-message')).toBe('Renew the passport before the summer ho… - Chime');
    expect(await titleOf(page, '/account', 'account-page')).toBe('Account - Chime');

    // In French too, as soon as it is chosen.
    await chooseLanguage(page, 'fr');
    await page.waitForFunction(() => document.title === 'Compte - Chime');
    expect(await titleOf(page, '/home', 'dashboard')).toBe('Tableau de bord - Chime');
    expect(await titleOf(page, '/reminders/create', 'wizard-step-1')).toBe('Nouveau rappel - Chime');
  });

  it('tells phone users the password rule under the field and checks it before sending anything', async () => {
    const page = await e2e.newPage({ viewport: MOBILE });
    const registers: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/register')) registers.push(request.method());
    });
    await page.goto(e2e.url('/login'));
    await page.getByTestId('tab-signup').click();
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') await chooseTheme(page, 'dark');
      // The strength panel is desktop-only; the rule is not.
      expect(await page.getByTestId('password-strength-panel').isVisible()).toBe(false);
      const hint = page.getByTestId('signup-password-hint');
      expect(await hint.isVisible()).toBe(true);
      expect(await hint.textContent()).toBe('At least 8 characters.');
      await page.fill('#signup-email', `short-${theme}-${Date.now()}@example.com`);
      await page.fill('#signup-username', 'Shorty');
      await page.fill('#signup-password', 'abc123');
      await page.fill('#signup-confirm', 'abc123');
      await page.getByTestId('sign-up-submit').click();
      const error = page.getByTestId('signup-password-error');
      await error.waitFor();
      expect(await error.textContent()).toBe('Your password is too short: use at least 8 characters.');
      expect(await page.locator('#signup-password').getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('signup-password');
      await screenshot(page, `issue14-signup-short-password-390-${theme}`);
      expect(registers).toEqual([]);
      // A long enough password clears the error and the hint shows it is met.
      await page.fill('#signup-password', 'abc12345');
      expect(await error.count()).toBe(0);
      expect(await hint.getAttribute('data-met')).toBe('true');
    }
  });

  it('confirms a saved username and a saved email with a toast, like the time zone', async () => {
    const { page, user } = await e2e.signedInPage();
    await page.goto(e2e.url('/account'));
    await page.getByTestId('account-page').waitFor();
    await page.getByTestId('username-edit').click();
    await page.getByTestId('username-input').fill('Grace Hopper');
    const usernameToast = toastWith(page, 'Username changed to Grace Hopper');
    await page.getByTestId('username-input').press('Enter');
    await usernameToast;
    const fresh = `grace-${Date.now()}@example.com`;
    await page.getByTestId('email-edit').click();
    await page.getByTestId('email-input').fill(fresh);
    const emailToast = toastWith(page, `Email changed to ${fresh}`);
    await page.getByTestId('email-save').click();
    await emailToast;
    expect((await user.api.get('/api/account')).body).toMatchObject({ username: 'Grace Hopper', email: fresh });
    await screenshot(page, 'issue14-account-email-toast');
  });

  it('has headings in order on /home (axe heading-order), desktop and 390 px', async () => {
    const user = await e2e.signUp();
    await user.api.post('/api/reminders', { date: `${NEXT_YEAR}-02-02`, time: '10:00', message: 'Heading check', recurrence: 'WEEKLY', destinations: [] });
    const { page } = await e2e.signedInPage({ user });
    await page.goto(e2e.url('/home'));
    await page.getByTestId('dashboard').waitFor();
    await page.getByText('Heading check').first().waitFor();
    await loadAxe(page);
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') await chooseTheme(page, 'dark');
      for (const viewport of [DESKTOP, MOBILE]) {
        await page.setViewportSize(viewport);
        const found = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { nodes: { target: string[] }[] }[] }> } }).axe;
          const result = await axe.run(document, { runOnly: ['heading-order'] });
          return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
        });
        expect(found).toEqual([]);
        await screenshot(page, `issue14-home-${viewport === MOBILE ? '390' : 'desktop'}-${theme}`);
      }
    }
  });

  it('links "Report an issue", "Discussions" and "Contribute" to SUPPORT_URL and COMMUNITY_URL, and hides them without', async () => {
    const config = await (await fetch(e2e.url('/api/config'))).json();
    expect(config.links).toEqual({ support: SUPPORT, community: COMMUNITY });

    const contact = await e2e.newPage();
    await contact.goto(e2e.url('/contact'));
    await contact.getByTestId('contact-issues-link').waitFor();
    for (const [name, viewport, theme] of LOOKS) {
      const page = await lookAs(contact, viewport, theme);
      expect(await page.getByTestId('contact-issues-link').getAttribute('href')).toBe(SUPPORT);
      expect(await page.getByTestId('contact-community-link').getAttribute('href')).toBe(COMMUNITY);
      expect(await page.getByTestId('contact-contribute-link').getAttribute('href')).toBe(COMMUNITY);
      expect(await page.getByTestId('footer-report-issue').getAttribute('href')).toBe(SUPPORT);
      expect(await page.getByTestId('footer-discussions').getAttribute('href')).toBe(COMMUNITY);
      expect(await page.getByTestId('footer-contribute').getAttribute('href')).toBe(COMMUNITY);
      // Nothing leads back to the contact page itself except "Contact".
      expect(await page.locator('a[href^="/contact#"]').count()).toBe(0);
      await screenshot(page, `issue14-contact-${name}`);
    }

    // A server without the settings (or set empty): the links are not shown.
    const page = await e2e.newPage();
    await page.route('**/api/config', async (route) => {
      const answer = await route.fetch();
      const body = await answer.json();
      await route.fulfill({ response: answer, json: { ...body, links: { support: null, community: null } } });
    });
    await page.goto(e2e.url('/contact'));
    await page.getByTestId('contact-no-links').waitFor();
    expect(await page.locator('[data-testid^="contact-"][data-testid$="-link"]').count()).toBe(0);
    expect(await page.locator('[data-testid^="footer-"]').count()).toBe(0);
    expect(await page.getByText('Report an issue').count()).toBe(0);
    expect(await page.getByText('Discussions').count()).toBe(0);
  });

  it('fills the installation page with the real setup steps', async () => {
    const installation = await e2e.newPage();
    await installation.goto(e2e.url('/installation'));
    await installation.getByTestId('installation-discord').waitFor();
    for (const [name, viewport, theme] of LOOKS) {
      const page = await lookAs(installation, viewport, theme);
      const text = await mainText(page);
      for (const needed of ['npm install && npm start', '.env.example', 'PUBLIC_URL', 'DATABASE_URL', 'SUPPORT_URL', 'COMMUNITY_URL', 'DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DISCORD_TOKEN', '/auth/callback/discord', 'TRUST_PROXY=true', 'reverse_proxy 127.0.0.1:3000', 'User Install']) {
        expect(text, needed).toContain(needed);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `issue14-installation-${name}`);
    }
  });

  it('goes from sign-in to the dashboard without holding on /welcome, and greets there', async () => {
    const user = await e2e.signUp({ username: 'Ada' });
    const page = await e2e.newPage();
    // The page's timers run on a clock the test moves: only the 100 ms after sign-in may pass.
    // /welcome used to hold for 1.2 s on a timer; with the clock stopped it would never move on.
    await page.clock.install();
    await page.goto(e2e.url('/login'));
    await page.fill('#signin-email', user.email);
    await page.fill('#signin-password', user.password);
    const signedIn = page.waitForResponse((r) => r.url().endsWith('/api/auth/login') && r.status() === 200);
    await page.getByTestId('sign-in-submit').click();
    await signedIn;
    await page.clock.runFor(150);
    await page.waitForURL(e2e.url('/home'));
    await page.getByTestId('dashboard-empty').or(page.getByTestId('dashboard')).first().waitFor();
    await page.getByTestId('welcome').getByText('Welcome, Ada!').waitFor();
    await page.waitForFunction(() => document.title === 'Dashboard - Chime');
    await screenshot(page, 'issue14-welcome-toast');
  });

  it('ran without console errors', () => {
    expect(e2e.consoleErrors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
  });
});
