/**
 * Adding an ntfy destination in the wizard (docs/notifications.md): "Check and add" asks the
 * server's check first, so a token ntfy refuses is not added and its reason shows under the form;
 * the right token is added and shown only by its last four characters. The same form adds a Matrix
 * room (the server here has a Matrix bot account, on a fake homeserver).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMatrix, startFakeMatrix } from '../helpers/fake-matrix.ts';
import { type FakeNtfy, startFakeNtfy } from '../helpers/fake-ntfy.ts';
import { type FakeTelegram, startFakeTelegram } from '../helpers/fake-telegram.ts';
import { openWizardDestinations, screenshot, useE2E } from './helpers.ts';

const TOKEN = 'tk_e2e0123456789abcdefghijwxyz';
const MATRIX_BOT = '@chime:chime.test';
const TELEGRAM_CHAT = 4242001;

describe('ntfy in the wizard (browser)', () => {
  // The server's Matrix settings name the fake homeserver: it starts first (hooks run in order).
  const matrixEnv: Record<string, string> = {};
  let matrix: FakeMatrix;
  let telegram: FakeTelegram;
  beforeAll(async () => {
    matrix = await startFakeMatrix();
    matrix.tokens.set('syt_e2e_bot_token', MATRIX_BOT);
    matrix.addRoom('!fam:chime.test', { aliases: ['#family:chime.test'], invite: [MATRIX_BOT] });
    matrix.addRoom('!priv:chime.test', { aliases: ['#private:chime.test'] });
    Object.assign(matrixEnv, { MATRIX_HOMESERVER_URL: matrix.url, MATRIX_ACCESS_TOKEN: 'syt_e2e_bot_token' });
    // And its Telegram bot, on a fake Bot API.
    telegram = await startFakeTelegram();
    telegram.chats.set(TELEGRAM_CHAT, { id: TELEGRAM_CHAT, type: 'private', username: 'alice', first_name: 'Alice' });
    Object.assign(matrixEnv, { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_URL: `${telegram.url}/` });
  });
  afterAll(async () => {
    await matrix?.close();
    await telegram?.close();
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

  it('connects a Telegram chat with the code the row shows, then adds it', async () => {
    const { page } = await e2e.signedInPage();
    await openWizardDestinations(page, e2e.server.url, '2031-05-07');
    await page.getByTestId('toggle-telegram').click();
    await page.getByTestId('telegram-connect').click();
    const command = (await page.getByTestId('telegram-start-command').textContent())!.trim();
    expect(command).toMatch(/^\/start [A-Za-z0-9_-]{16,64}$/);
    expect(await page.getByTestId('telegram-open-bot').getAttribute('href')).toBe(`https://t.me/${telegram.username}?start=${command.slice(7)}`);
    await screenshot(page, 'telegram-connect-code', { fullPage: false });
    // The person sends the command to the bot: Telegram posts it to Chime's webhook.
    const { secret_token: secret } = await telegram.waitForWebhook();
    const posted = await fetch(e2e.url('/telegram/webhook'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret! },
      body: JSON.stringify({ update_id: 1, message: { message_id: 1, date: 0, chat: telegram.chats.get(TELEGRAM_CHAT), from: { id: 99, is_bot: false, first_name: 'A' }, text: command } }),
    });
    expect(posted.status).toBe(200);
    // The row is watching for the chat: it shows up without a reload, and is added after the check.
    await page.getByTestId(`telegram-add-${TELEGRAM_CHAT}`).click();
    const added = page.locator('[data-testid="destination-item"][data-type="telegram"]');
    await added.waitFor();
    expect(await added.textContent()).toContain('@alice');
    // The row no longer offers it, and says why rather than "no chat connected".
    expect(await page.getByTestId('telegram-no-chats').textContent()).toBe('Every connected chat is on this reminder. Connect another one to add it.');
    await screenshot(page, 'telegram-added', { fullPage: false });
  });

  it('the dashboard is an installable app with a service worker; "This browser" says when notifications are refused', async () => {
    const manifest = await fetch(e2e.url('/manifest.webmanifest'));
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    const app = (await manifest.json()) as { icons: { src: string; sizes: string; type: string; purpose: string }[] };
    expect(app).toMatchObject({ name: 'Chime', start_url: '/', display: 'standalone' });
    // What Chrome asks of an installable app: 192 and 512 px raster icons, and one a mask may crop.
    expect(app.icons.filter((i) => i.type === 'image/png').map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of app.icons) {
      const res = await fetch(e2e.url(icon.src));
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get('content-type'), icon.src).toContain(icon.type);
    }
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
