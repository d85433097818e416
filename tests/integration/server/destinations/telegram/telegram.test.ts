/**
 * Telegram destinations (docs/notifications.md "Telegram") against a fake Bot API written from
 * core.telegram.org/bots/api (tests/helpers/fake-telegram.ts): the webhook Chime registers and the
 * secret it checks, connecting a chat with a one-time /start code (expired, reused), the check
 * when added (getChat), what is sent (escaped HTML, the link, the inline keyboard and its 64-byte
 * callback_data), each documented error read into a code, and the keyboard round trip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTelegram } from '../../../../../server/admin/doctor.ts';
import { sha256Hex } from '../../../../../server/lib/ids.ts';
import { type FakeTelegram, startFakeTelegram } from '../../../../helpers/fake-telegram.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { attemptsOf, dueReminder, settled } from '../push-test-kit.ts';

let server: TestServer;
let telegram: FakeTelegram;
let user: Awaited<ReturnType<typeof signUp>>;
let secret: string;
const ALICE = 4242001;
const FAMILY = -1001234567890;
let updateId = 1;

beforeAll(async () => {
  telegram = await startFakeTelegram();
  telegram.chats.set(ALICE, { id: ALICE, type: 'private', username: 'alice', first_name: 'Alice' });
  telegram.chats.set(FAMILY, { id: FAMILY, type: 'supergroup', title: 'Family <3' });
  server = await startTestServer({ env: { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_URL: `${telegram.url}/` } });
  server.app.scheduler.setOptions({ retryDelaysMs: [60, 120, 180], retryJitter: 0, shutdownTimeoutMs: 200 });
  secret = (await telegram.waitForWebhook()).secret_token!;
  user = await signUp(server.url);
  expect((await user.api.put('/api/account/language', { language: 'es' })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await telegram?.close();
});

/** Posts an update as Telegram does; `header` null sends none. */
const webhook = (body: unknown, header: string | null = secret) =>
  client(server.url).post('/telegram/webhook', body, header === null ? {} : { 'x-telegram-bot-api-secret-token': header });

/** A message update as Telegram posts it. */
const startMessage = (chat: { id: number; type: string }, text: string, languageCode = 'en') => ({
  update_id: updateId++,
  message: { message_id: updateId, date: Math.floor(Date.now() / 1000), chat: telegram.chats.get(chat.id) ?? chat, from: { id: 99, is_bot: false, first_name: 'A', language_code: languageCode }, text },
});

/** Sends `/start <code>` from the chat and waits for the bot's answer there. */
async function sendStart(chatId: number, text: string, languageCode = 'en') {
  const before = telegram.messages.length;
  const res = await webhook(startMessage(telegram.chats.get(chatId)!, text, languageCode));
  expect(res.status).toBe(200);
  const [reply] = (await telegram.waitForMessages(before + 1)).slice(before);
  expect(reply!.chat_id).toBe(chatId);
  return reply!;
}

/** A press on one button of a delivered message, as Telegram posts it. */
async function press(message: { message_id: number; chat_id: number }, data: string) {
  const before = telegram.callbackAnswers.length;
  const queryId = `q${updateId}`;
  const res = await webhook({
    update_id: updateId++,
    callback_query: { id: queryId, from: { id: 99, is_bot: false, first_name: 'A', language_code: 'en' }, chat_instance: '1', data, message: { message_id: message.message_id, date: 0, chat: { id: message.chat_id, type: 'private' } } },
  });
  expect(res.status).toBe(200);
  const [answer] = (await telegram.waitForCallbackAnswers(before + 1)).slice(before);
  expect(answer!.callback_query_id).toBe(queryId);
  return answer!.text!;
}

describe('Telegram: the webhook and connecting a chat', () => {
  it('registers its webhook at start with a secret token and only message and callback_query updates; /api/config says configured, without the token', async () => {
    expect(telegram.webhook).toMatchObject({ url: `${server.config.publicUrl.replace(/\/$/, '')}/telegram/webhook`, allowed_updates: ['message', 'callback_query'] });
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    const config = await user.api.get('/api/config');
    expect(config.body.telegram).toEqual({ configured: true, missing: [] });
    expect(JSON.stringify(config.body)).not.toContain(telegram.token);
  });

  it('refuses an update without the secret header, or with a wrong one, and does nothing with it', async () => {
    const code = await user.api.post('/api/telegram/link-codes');
    for (const header of [null, '', 'wrong', `${secret}x`]) {
      const res = await webhook(startMessage({ id: ALICE, type: 'private' }, code.body.start_command), header);
      expect(res.status, String(header)).toBe(401);
      expect(res.body).toMatchObject({ code: 'TELEGRAM_WEBHOOK_REFUSED' });
    }
    expect((await user.api.get('/api/telegram/chats')).body.chats).toEqual([]);
  });

  it('a code connects the private chat that sends /start with it, once; the reply is in the account language; the code is stored hashed', async () => {
    const code = await user.api.post('/api/telegram/link-codes');
    expect(code.status).toBe(201);
    expect(code.body).toMatchObject({ start_command: `/start ${code.body.code}`, url: `https://t.me/chime_test_bot?start=${code.body.code}`, bot_username: 'chime_test_bot' });
    expect(code.body.code).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    const stored = await server.app.db.selectFrom('short_lived_records').selectAll().where('kind', '=', 'telegram_link_code').execute();
    expect(stored.map((r) => r.key_hash)).toContain(sha256Hex(code.body.code));
    expect(JSON.stringify(stored)).not.toContain(code.body.code);

    const reply = await sendStart(ALICE, `/start ${code.body.code}`);
    expect(reply.text).toContain('Conectado');
    expect(reply.text).toContain('<b>@alice</b>');
    const chats = (await user.api.get('/api/telegram/chats')).body.chats;
    expect(chats).toMatchObject([{ chat_id: String(ALICE), chat_type: 'private', label: '@alice' }]);

    // Reused: refused, in the sender's language, and nothing more is connected.
    telegram.chats.set(777, { id: 777, type: 'private', first_name: 'Mallory' });
    const reused = await sendStart(777, `/start ${code.body.code}`, 'fr');
    expect(reused.text).toContain("n'est pas valide");
    expect((await user.api.get('/api/telegram/chats')).body.chats).toHaveLength(1);
  });

  it('an account asks for at most 10 codes per code lifetime (each is a stored row); another account is not held', async () => {
    const asker = await signUp(server.url);
    for (let i = 0; i < 10; i++) expect((await asker.api.post('/api/telegram/link-codes')).status).toBe(201);
    const refused = await asker.api.post('/api/telegram/link-codes');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await (await signUp(server.url)).api.post('/api/telegram/link-codes')).status).toBe(201);
  });

  it('an expired code connects nothing; a group connects with /start@bot <code> under its title; another account sees none of them', async () => {
    const code = await user.api.post('/api/telegram/link-codes');
    await server.app.db.updateTable('short_lived_records').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('key_hash', '=', sha256Hex(code.body.code)).execute();
    const expired = await sendStart(FAMILY, `/start@chime_test_bot ${code.body.code}`);
    expect(expired.text).toContain('not valid');
    expect((await user.api.get('/api/telegram/chats')).body.chats.map((c: { chat_id: string }) => c.chat_id)).not.toContain(String(FAMILY));

    const fresh = await user.api.post('/api/telegram/link-codes');
    const joined = await sendStart(FAMILY, `/start@chime_test_bot ${fresh.body.code}`);
    // The group's title is escaped for the HTML parse mode (the fake refuses a bare '<').
    expect(joined.text).toContain('<b>Family &lt;3</b>');
    const chats = (await user.api.get('/api/telegram/chats')).body.chats;
    expect(chats).toContainEqual(expect.objectContaining({ chat_id: String(FAMILY), chat_type: 'supergroup', label: 'Family <3' }));

    const other = await signUp(server.url);
    expect((await other.api.get('/api/telegram/chats')).body.chats).toEqual([]);
    const refused = await other.api.post('/api/destinations/check', { type: 'telegram', metadata: { chat_id: String(ALICE) } });
    expect(refused.body).toMatchObject({ ok: false, code: 'TELEGRAM_CHAT_NOT_CONNECTED' });
    expect((await other.api.delete(`/api/telegram/chats/${chats[0].id}`)).status).toBe(404);
  });
});

describe('Telegram: the destination', () => {
  it('is checked with getChat when added, its label from Telegram; a chat the bot no longer sees is refused with its code', async () => {
    const check = await user.api.post('/api/destinations/check', { type: 'telegram', metadata: { chat_id: String(ALICE) } });
    expect(check.body).toEqual({ ok: true });
    expect(telegram.requests.filter((r) => r.method === 'getChat').at(-1)!.body).toEqual({ chat_id: String(ALICE) });
    const created = await user.api.post('/api/reminders', {
      date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      time: '09:00',
      message: 'x',
      destinations: [{ type: 'telegram', metadata: { chat_id: ALICE, label: 'spoofed' } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.destinations[0].metadata).toEqual({ chat_id: String(ALICE), label: '@alice' });
    expect(JSON.stringify(created.body)).not.toContain(telegram.token);

    telegram.chats.get(FAMILY)!.kicked = true;
    try {
      const gone = await user.api.post('/api/destinations/check', { type: 'telegram', metadata: { chat_id: String(FAMILY) } });
      expect(gone.body).toMatchObject({ ok: false, code: 'TELEGRAM_CHAT_NOT_FOUND' });
    } finally {
      telegram.chats.get(FAMILY)!.kicked = false;
    }
    for (const bad of ['abc', '1.5', '', '0']) {
      expect((await user.api.post('/api/destinations/check', { type: 'telegram', metadata: { chat_id: bad } })).body, bad).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    }
  });

  it('sends escaped HTML in the account language with a link and Snooze / Tomorrow / Done buttons whose callback_data fit in 64 bytes', async () => {
    const before = telegram.messages.length;
    const r = await dueReminder(server, user, 'telegram', { chat_id: String(ALICE) }, 'Call <b>Tom</b> & "Ana"\nat 5');
    const [message] = (await telegram.waitForMessages(before + 1)).slice(before);
    const d = await settled(server, r.id);
    expect(d.status).toBe('delivered');
    const page = `${server.config.publicUrl.replace(/\/$/, '')}/reminders/${r.id}`;
    expect(message!.chat_id).toBe(ALICE);
    expect(message!.parse_mode).toBe('HTML');
    expect(message!.text).toBe(`<b>⏰ Recordatorio</b>\nCall &lt;b&gt;Tom&lt;/b&gt; &amp; &quot;Ana&quot;\nat 5\n\n<a href="${page}">Abrir en Chime</a>`);
    const buttons = message!.reply_markup.inline_keyboard[0];
    expect(buttons.map((b: { text: string }) => b.text)).toEqual(['Posponer 10 min', 'Mañana', 'Hecho']);
    for (const b of buttons) expect(Buffer.byteLength(b.callback_data)).toBeLessThanOrEqual(64);
    const send = telegram.requests.filter((q) => q.method === 'sendMessage').at(-1)!;
    expect(send.headers['content-type']).toBe('application/json');
    const history = await user.api.get(`/api/reminders/${r.id}/deliveries`);
    expect(history.body.deliveries[0]).toMatchObject({ status: 'delivered', destination_type: 'telegram', destination_label: 'Telegram @alice' });
  });

  it('a press on Snooze moves the reminder, answers in the account language and takes the keyboard away; a second press is refused; a reference to another delivery is refused', async () => {
    const before = telegram.messages.length;
    const r = await dueReminder(server, user, 'telegram', { chat_id: String(ALICE) }, 'Snooze me');
    const [message] = (await telegram.waitForMessages(before + 1)).slice(before);
    await settled(server, r.id);
    const [snooze, , done] = message!.reply_markup.inline_keyboard[0].map((b: { callback_data: string }) => b.callback_data);

    const pressedAt = Date.now();
    const answer = await press(message!, snooze);
    expect(answer).toMatch(/^Pospuesto/);
    const row = await server.app.db.selectFrom('reminders').select(['next_fire_utc', 'snoozed_at_utc']).where('id', '=', r.id).executeTakeFirstOrThrow();
    const movedBy = Date.parse(row.snoozed_at_utc!) - pressedAt;
    expect(movedBy).toBeGreaterThan(9 * 60_000);
    expect(movedBy).toBeLessThan(11 * 60_000);
    await expect.poll(() => telegram.messages.find((m) => m.message_id === message!.message_id)!.reply_markup).toBeUndefined();
    const edit = telegram.requests.filter((q) => q.method === 'editMessageReplyMarkup').at(-1)!;
    expect(edit.body).toEqual({ chat_id: ALICE, message_id: message!.message_id, reply_markup: { inline_keyboard: [] } });

    expect(await press(message!, snooze)).toMatch(/ya se usó/);
    expect((await server.app.db.selectFrom('reminders').select('snoozed_at_utc').where('id', '=', r.id).executeTakeFirstOrThrow()).snoozed_at_utc).toBe(row.snoozed_at_utc);

    // Another reminder's delivery under this MAC: the rebuilt token's signature fails.
    const other = await dueReminder(server, user, 'telegram', { chat_id: String(ALICE) }, 'Not yours');
    const o = await settled(server, other.id);
    const otherId = Buffer.from(o.id.replaceAll('-', ''), 'hex').toString('base64url');
    const forged = `${done.slice(0, 2)}${otherId}${done.slice(24)}`;
    expect(forged).toHaveLength(done.length);
    expect(await press(message!, forged)).toMatch(/not valid/);
    expect(await press(message!, 'garbage')).toMatch(/not valid/);
    const untouched = await server.app.db.selectFrom('reminders').select('snoozed_at_utc').where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(untouched.snoozed_at_utc).toBeNull();
  });

  it('a press after the next occurrence has come is refused as expired, and the keyboard is taken away', async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const created = await user.api.post('/api/reminders', { date: yesterday, time: '00:00', timezone: 'UTC', recurrence: 'HOURLY', message: 'Hourly', destinations: [{ type: 'telegram', metadata: { chat_id: String(ALICE) } }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // A snooze firing now that stands for an occurrence three hours ago: the next one (two hours ago) has passed.
    const past = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000).toISOString();
    const now = new Date(Date.now() - 5).toISOString();
    await server.app.db.updateTable('reminders').set({ snoozed_at_utc: now, next_fire_utc: now, next_occurrence_utc: past }).where('id', '=', created.body.id).execute();
    const before = telegram.messages.length;
    server.app.scheduler.wake();
    const [message] = (await telegram.waitForMessages(before + 1)).slice(before);
    const d = await settled(server, created.body.id);
    expect(d.occurrence_utc).toBe(past);
    const fireBefore = (await server.app.db.selectFrom('reminders').select('next_fire_utc').where('id', '=', created.body.id).executeTakeFirstOrThrow()).next_fire_utc;
    expect(await press(message!, message!.reply_markup.inline_keyboard[0][0].callback_data)).toMatch(/ha caducado/);
    await expect.poll(() => telegram.messages.find((m) => m.message_id === message!.message_id)!.reply_markup).toBeUndefined();
    expect((await server.app.db.selectFrom('reminders').select('next_fire_utc').where('id', '=', created.body.id).executeTakeFirstOrThrow()).next_fire_utc).toBe(fireBefore);
    await user.api.delete(`/api/reminders/${created.body.id}`);
  });

  it('reads Telegram errors: 401 and 400 chat not found and 403 blocked are final, 429 waits retry_after, 5xx is retried', async () => {
    const unauthorized = await dueReminder(server, user, 'telegram', { chat_id: String(ALICE) });
    telegram.script('sendMessage', { status: 401, description: 'Unauthorized' });
    expect(await settled(server, unauthorized.id)).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'TELEGRAM_UNAUTHORIZED' });
    const history = await user.api.get(`/api/reminders/${unauthorized.id}/deliveries`);
    expect(history.body.deliveries[0].attempts[0]).toMatchObject({ outcome: 'error', http_status: 401, code: 'TELEGRAM_UNAUTHORIZED' });
    expect(JSON.stringify(history.body)).not.toContain(telegram.token);

    const notFound = await dueReminder(server, user, 'telegram', { chat_id: String(ALICE) });
    telegram.script('sendMessage', { status: 400, description: 'Bad Request: chat not found' });
    expect(await settled(server, notFound.id)).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'TELEGRAM_CHAT_NOT_FOUND' });

    const blocked = await dueReminder(server, user, 'telegram', { chat_id: String(ALICE) });
    telegram.chats.get(ALICE)!.blocked = true;
    try {
      expect(await settled(server, blocked.id)).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'TELEGRAM_BLOCKED' });
    } finally {
      telegram.chats.get(ALICE)!.blocked = false;
    }

    const limited = await dueReminder(server, user, 'telegram', { chat_id: String(ALICE) });
    telegram.script('sendMessage', { status: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    const l = await settled(server, limited.id);
    expect(l).toMatchObject({ status: 'delivered', attempts: 2 });
    const attempts = await attemptsOf(server, l.id);
    expect(attempts.map((a) => a.error_code)).toEqual(['TELEGRAM_RATE_LIMITED', null]);
    expect(Date.parse(attempts[1]!.created_at) - Date.parse(attempts[0]!.created_at)).toBeGreaterThanOrEqual(950);

    const flaky = await dueReminder(server, user, 'telegram', { chat_id: String(ALICE) });
    telegram.script('sendMessage', { status: 502, description: 'Bad Gateway' });
    const f = await settled(server, flaky.id);
    expect(f).toMatchObject({ status: 'delivered', attempts: 2 });
    expect((await attemptsOf(server, f.id)).map((a) => a.error_code)).toEqual(['TELEGRAM_HTTP_5XX', null]);
  });

  it('test send posts a message without buttons nor link', async () => {
    const created = await user.api.post('/api/reminders', {
      date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      time: '09:00',
      message: 'Probar',
      destinations: [{ type: 'telegram', metadata: { chat_id: String(FAMILY) } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const before = telegram.messages.length;
    const res = await user.api.post(`/api/reminders/${created.body.id}/destinations/${created.body.destinations[0].id}/test`, {});
    expect(res.body).toMatchObject({ ok: true });
    const [message] = (await telegram.waitForMessages(before + 1)).slice(before);
    expect(message!.chat_id).toBe(FAMILY);
    expect(message!.reply_markup).toBeUndefined();
    expect(message!.text).not.toContain('<a ');
  });
});

describe('Telegram for the administrator: doctor', () => {
  it('checks the token with getMe and where Telegram posts updates, and says what to fix, never quoting the token', async () => {
    expect(await checkTelegram(server.config)).toMatchObject({ name: 'telegram', status: 'ok', detail: expect.stringContaining('@chime_test_bot') });
    telegram.webhookError = 'Wrong response from the webhook: 502 Bad Gateway';
    try {
      expect(await checkTelegram(server.config)).toMatchObject({ status: 'warn', detail: expect.stringContaining('502 Bad Gateway') });
    } finally {
      telegram.webhookError = null;
    }
    expect(await checkTelegram({ ...server.config, publicUrl: 'https://elsewhere.example' })).toMatchObject({ status: 'warn', fix: expect.stringContaining('PUBLIC_URL') });
    telegram.script('getMe', { status: 401, description: 'Unauthorized' });
    const refused = await checkTelegram(server.config);
    expect(refused).toMatchObject({ status: 'fail', detail: expect.stringContaining('TELEGRAM_UNAUTHORIZED'), fix: expect.stringContaining('TELEGRAM_BOT_TOKEN') });
    expect(JSON.stringify(refused)).not.toContain(telegram.token);
    expect(await checkTelegram({ ...server.config, telegram: null, telegramMissing: ['TELEGRAM_BOT_TOKEN'] })).toMatchObject({ status: 'skipped' });
  });
});
