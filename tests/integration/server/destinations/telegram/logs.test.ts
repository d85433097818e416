/**
 * Telegram as the production logger sees it: the webhook answers at once while the Bot API is
 * slow (the work goes on after the answer), and no log line ever holds the bot token or the
 * webhook's secret, whether the webhook is registered, refused, used, or a delivery is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, LOG_REDACT } from '../../../../../server/app.ts';
import { loadConfig } from '../../../../../server/config.ts';
import { type FakeTelegram, startFakeTelegram } from '../../../../helpers/fake-telegram.ts';
import { client, signUp } from '../../../../helpers/server.ts';
import { releaseTestDatabase, testDatabaseUrl } from '../../../../helpers/test-database.ts';
import { dueReminder, settled } from '../push-test-kit.ts';

let telegram: FakeTelegram;
let dir: string;
let app: Awaited<ReturnType<typeof buildApp>>;
let url: string;
let secret: string;
const logs: string[] = [];
const CHAT = 5150;

beforeAll(async () => {
  telegram = await startFakeTelegram();
  telegram.chats.set(CHAT, { id: CHAT, type: 'private', username: 'logan' });
  dir = mkdtempSync(path.join(tmpdir(), 'chime-telegram-logs-'));
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config = loadConfig(
    { PORT: '0', LOG_LEVEL: 'trace', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_URL: telegram.url, DATABASE_URL: await testDatabaseUrl(dir) },
    { serveWeb: false, schedulerMode: 'inline' },
  );
  app = await buildApp({ config, logger: { level: 'trace', stream, redact: { paths: LOG_REDACT, censor: '[redacted]' } } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  secret = (await telegram.waitForWebhook()).secret_token!;
});
afterAll(async () => {
  await app?.close();
  await releaseTestDatabase(dir);
  rmSync(dir, { recursive: true, force: true });
  await telegram?.close();
});

describe('Telegram and the logs', () => {
  it('answers the webhook before a slow Bot API does, and logs neither the token nor the secret', async () => {
    await expect.poll(() => logs.some((l) => l.includes('Telegram webhook registered'))).toBe(true);
    const user = await signUp(url);
    const code = await user.api.post('/api/telegram/link-codes');
    expect(code.status).toBe(201);

    expect((await client(url).post('/telegram/webhook', { update_id: 1 }, { 'x-telegram-bot-api-secret-token': 'not-it' })).status).toBe(401);

    telegram.delayMs = 1_500;
    const before = telegram.messages.length;
    const started = Date.now();
    const res = await client(url).post(
      '/telegram/webhook',
      { update_id: 2, message: { message_id: 1, date: 0, chat: { id: CHAT, type: 'private', username: 'logan' }, from: { id: 1, language_code: 'en' }, text: code.body.start_command } },
      { 'x-telegram-bot-api-secret-token': secret },
    );
    const answeredIn = Date.now() - started;
    expect(res.status).toBe(200);
    expect(answeredIn).toBeLessThan(1_000);
    await telegram.waitForMessages(before + 1);
    telegram.delayMs = 0;
    expect((await user.api.get('/api/telegram/chats')).body.chats).toHaveLength(1);

    telegram.script('sendMessage', { status: 401, description: 'Unauthorized' });
    // The push kit's helpers take a test server: this app is one, with its own logger.
    const server = { app, url, dir, config: app.config, close: async () => {} };
    const r = await dueReminder(server, user, 'telegram', { chat_id: String(CHAT) });
    expect(await settled(server, r.id)).toMatchObject({ status: 'failed', last_error_code: 'TELEGRAM_UNAUTHORIZED' });
    await expect.poll(() => logs.some((l) => l.includes('Telegram refused TELEGRAM_BOT_TOKEN'))).toBe(true);

    const all = logs.join('\n');
    expect(all).not.toContain(telegram.token);
    expect(all).not.toContain(telegram.token.split(':')[1]);
    expect(all).not.toContain(secret);
  });
});
