/** A server without TELEGRAM_BOT_TOKEN: Telegram is "not configured" in /api/config, and every Telegram route and check says so with a code. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';

let server: TestServer;
let user: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  server = await startTestServer();
  user = await signUp(server.url);
});
afterAll(async () => {
  await server?.close();
});

describe('Telegram without the administrator\'s bot', () => {
  it('is not configured, and a destination, a code and the webhook are refused with TELEGRAM_NOT_CONFIGURED', async () => {
    expect((await user.api.get('/api/config')).body.telegram).toEqual({ configured: false, missing: ['TELEGRAM_BOT_TOKEN'] });
    const check = await user.api.post('/api/destinations/check', { type: 'telegram', metadata: { chat_id: '4242' } });
    expect(check.body).toMatchObject({ ok: false, code: 'TELEGRAM_NOT_CONFIGURED' });
    const code = await user.api.post('/api/telegram/link-codes');
    expect(code.status).toBe(400);
    expect(code.body).toMatchObject({ code: 'TELEGRAM_NOT_CONFIGURED' });
    const hook = await client(server.url).post('/telegram/webhook', { update_id: 1 }, { 'x-telegram-bot-api-secret-token': 'x' });
    expect(hook.status).toBe(400);
    expect(hook.body).toMatchObject({ code: 'TELEGRAM_NOT_CONFIGURED' });
    expect((await user.api.get('/api/telegram/chats')).body).toEqual({ chats: [] });
  });
});
