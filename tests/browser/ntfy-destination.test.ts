/**
 * Adding an ntfy destination in the wizard (docs/notifications.md): "Check and add" asks the
 * server's check first, so a token ntfy refuses is not added and its reason shows under the form;
 * the right token is added and shown only by its last four characters. The same form adds a Matrix
 * room (the server here has a Matrix bot account, on a fake homeserver).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMatrix, startFakeMatrix } from '../helpers/fake-matrix.ts';
import { type FakeNtfy, startFakeNtfy } from '../helpers/fake-ntfy.ts';
import { openWizardDestinations, useE2E } from './helpers.ts';

const TOKEN = 'tk_e2e0123456789abcdefghijwxyz';
const MATRIX_BOT = '@chime:chime.test';

describe('ntfy in the wizard (browser)', () => {
  // The server's Matrix settings name the fake homeserver: it starts first (hooks run in order).
  const matrixEnv: Record<string, string> = {};
  let matrix: FakeMatrix;
  beforeAll(async () => {
    matrix = await startFakeMatrix();
    matrix.tokens.set('syt_e2e_bot_token', MATRIX_BOT);
    matrix.addRoom('!fam:chime.test', { aliases: ['#family:chime.test'], invite: [MATRIX_BOT] });
    matrix.addRoom('!priv:chime.test', { aliases: ['#private:chime.test'] });
    Object.assign(matrixEnv, { MATRIX_HOMESERVER_URL: matrix.url, MATRIX_ACCESS_TOKEN: 'syt_e2e_bot_token' });
  });
  afterAll(async () => {
    await matrix?.close();
  });
  const e2e = useE2E({ env: matrixEnv });
  let ntfy: FakeNtfy;
  beforeAll(async () => {
    ntfy = await startFakeNtfy();
    ntfy.tokens.set(TOKEN, new Set(['chime-e2e']));
  });
  afterAll(async () => {
    await ntfy?.close();
  });

  it('a refused token is not added, with its reason; the right one is added, masked (and a Matrix room likewise)', async () => {
    const { page } = await e2e.signedInPage();
    await openWizardDestinations(page, e2e.server.url, '2031-05-05');
    await page.getByTestId('toggle-ntfy').click();
    await page.getByTestId('ntfy-server').fill(ntfy.url);
    await page.getByTestId('ntfy-topic').fill('chime-e2e');
    await page.getByTestId('ntfy-access_token').fill('tk_wrong');
    await page.getByTestId('ntfy-add').click();
    await page.getByTestId('ntfy-error').waitFor();
    expect(await page.getByTestId('ntfy-error').textContent()).toContain('ntfy refused the token');
    expect(await page.getByTestId('destination-count').textContent()).toBe('0');

    await page.getByTestId('ntfy-access_token').fill(TOKEN);
    await page.getByTestId('ntfy-add').click();
    await page.getByTestId('destination-item').waitFor();
    expect(await page.getByTestId('destination-count').textContent()).toBe('1');
    const item = await page.getByTestId('destination-item').textContent();
    expect(item).toContain('/chime-e2e');
    expect(item).toContain('…wxyz');
    expect(item).not.toContain(TOKEN);
    expect(ntfy.requests.some((r) => r.path === '/v1/account' && r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);

    // Matrix, on the same page: a room that did not invite the bot is refused with its reason; by
    // alias, once the bot could join it, the room is added.
    await page.getByTestId('toggle-matrix').click();
    await page.getByTestId('matrix-room').fill('#private:chime.test');
    await page.getByTestId('matrix-add').click();
    await page.getByTestId('matrix-error').waitFor();
    expect(await page.getByTestId('matrix-error').textContent()).toContain('invite it to the room');
    expect(await page.getByTestId('destination-count').textContent()).toBe('1');
    await page.getByTestId('matrix-room').fill('#family:chime.test');
    await page.getByTestId('matrix-add').click();
    const room = page.locator('[data-testid="destination-item"][data-type="matrix"]');
    await room.waitFor();
    expect(await room.textContent()).toContain('#family:chime.test');
    expect(await page.getByTestId('destination-count').textContent()).toBe('2');
    expect(matrix.rooms.get('!fam:chime.test')!.joined.has(MATRIX_BOT)).toBe(true);
  });

  it('the dashboard is an installable app with a service worker; "This browser" says when notifications are refused', async () => {
    const manifest = await fetch(e2e.url('/manifest.webmanifest'));
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(await manifest.json()).toMatchObject({ name: 'Chime', start_url: '/', display: 'standalone' });
    const { page } = await e2e.signedInPage();
    await openWizardDestinations(page, e2e.server.url, '2031-05-06');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(e2e.url('/sw.js'));
    expect(await page.evaluate(() => document.querySelector('link[rel="manifest"]')?.getAttribute('href'))).toBe('/manifest.webmanifest');
    // Headless Chromium refuses the permission prompt, as a person clicking Block does.
    await page.getByTestId('toggle-webPush').click();
    await page.getByTestId('web-push-add').click();
    await page.getByTestId('web-push-error').waitFor();
    expect(await page.getByTestId('web-push-error').textContent()).toContain('Notifications are blocked for Chime');
    expect(await page.getByTestId('destination-count').textContent()).toBe('0');
  });

  it("the reminder's page names a saved ntfy destination by server and topic, and Send test publishes to it", async () => {
    const { page, user } = await e2e.signedInPage();
    const created = await user.api.post('/api/reminders', {
      date: '2031-05-05',
      time: '08:00',
      message: 'Take the bins out',
      destinations: [{ type: 'ntfy', metadata: { server: ntfy.url, topic: 'chime-e2e', access_token: TOKEN } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.goto(e2e.url(`/reminders/${created.body.id}`));
    const item = page.locator('[data-testid="destination-item"][data-type="ntfy"]');
    await item.waitFor();
    // It was shown as a Discord direct message.
    expect(await item.textContent()).toContain(`ntfy${new URL(ntfy.url).host}/chime-e2e`);
    const before = ntfy.messages.length;
    await item.getByTestId('destination-test').click();
    await page.locator('[data-sonner-toast]', { hasText: 'Test delivered' }).waitFor();
    const [message] = (await ntfy.waitForMessages(before + 1)).slice(before);
    expect(JSON.stringify(message)).toContain('Test from Chime: Take the bins out');
  });

  it('a saved ntfy destination is edited on its page: its fields come back without the token, and a new topic is checked with the stored token and saved', async () => {
    const { page, user } = await e2e.signedInPage({ viewport: { width: 390, height: 844 } });
    ntfy.tokens.set(TOKEN, new Set(['chime-e2e', 'chime-home']));
    const created = await user.api.post('/api/reminders', {
      date: '2031-05-05',
      time: '08:00',
      message: 'Water the plants',
      destinations: [{ type: 'ntfy', metadata: { server: ntfy.url, topic: 'chime-e2e', access_token: TOKEN, priority: 4 } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.goto(e2e.url(`/reminders/${created.body.id}`));
    await page.getByTestId('edit-reminder').click();
    const item = page.locator('[data-testid="destination-item"][data-type="ntfy"]');
    await item.getByTestId('destination-edit').click();
    expect(await item.getByTestId('ntfy-topic').inputValue()).toBe('chime-e2e');
    expect(await item.getByTestId('ntfy-priority').inputValue()).toBe('4');
    expect(await item.getByTestId('ntfy-access_token').inputValue()).toBe('');
    expect(await item.getByTestId('ntfy-access_token').getAttribute('placeholder')).toContain('…wxyz');
    await item.getByTestId('ntfy-topic').fill('chime-home');
    const checksBefore = ntfy.requests.filter((r) => r.path === '/v1/account').length;
    await item.getByTestId('ntfy-save').click();
    await item.getByTestId('destination-edit-panel').waitFor({ state: 'detached' });
    expect(await item.getByTestId('destination-title').textContent()).toContain('/chime-home');
    // "Check and save" ran the check an add runs, with the token Chime keeps (the page never had it).
    const checks = ntfy.requests.filter((r) => r.path === '/v1/account');
    expect(checks.length).toBe(checksBefore + 1);
    expect(checks.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);

    await page.getByTestId('edit-save').click();
    await page.getByTestId('edit-form').waitFor({ state: 'detached' });
    const saved = await user.api.get(`/api/reminders/${created.body.id}`);
    expect(saved.body.destinations).toEqual([expect.objectContaining({ id: created.body.destinations[0].id, type: 'ntfy', metadata: { server: ntfy.url, topic: 'chime-home', priority: 4, token_hint: '…wxyz' } })]);
  });
});
