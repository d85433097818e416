/** The pure parts of the Telegram destination: reading the Bot API's errors, the message and its keyboard, chat ids and labels. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../../server/config.ts';
import { telegramResult } from '../../../../../server/destinations/telegram/answers.ts';
import { webhookReachable } from '../../../../../server/destinations/telegram/bot.ts';
import { chatLabel } from '../../../../../server/destinations/telegram/check.ts';
import { parseChatId } from '../../../../../server/destinations/telegram/chat-id.ts';
import { escapeTelegramHtml, MAX_TELEGRAM_TEXT, telegramMessage } from '../../../../../server/destinations/telegram/message.ts';
import { signActionToken } from '../../../../../server/lib/action-token.ts';

const answer = (status: number, body: unknown, retryAfter?: string) => ({ status, text: JSON.stringify(body), retryAfter });
const error = (status: number, description: string, parameters?: unknown) => answer(status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });

describe('Telegram answers', () => {
  it('reads each documented error into a retried or final code', () => {
    expect(telegramResult(answer(200, { ok: true, result: {} }), 'x')).toEqual({ ok: true, httpStatus: 200 });
    expect(telegramResult(error(401, 'Unauthorized'), 'x')).toMatchObject({ ok: false, code: 'TELEGRAM_UNAUTHORIZED', retryable: false });
    expect(telegramResult(error(400, 'Bad Request: chat not found'), 'x')).toMatchObject({ code: 'TELEGRAM_CHAT_NOT_FOUND', retryable: false });
    expect(telegramResult(error(403, 'Forbidden: bot was blocked by the user'), 'x')).toMatchObject({ code: 'TELEGRAM_BLOCKED', retryable: false });
    expect(telegramResult(error(403, 'Forbidden: bot was kicked from the group chat'), 'x')).toMatchObject({ code: 'TELEGRAM_FORBIDDEN', retryable: false });
    expect(telegramResult(error(400, "Bad Request: can't parse entities"), 'x')).toMatchObject({ code: 'TELEGRAM_REJECTED', retryable: false });
    expect(telegramResult(error(400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: -1001 }), 'x')).toMatchObject({ code: 'TELEGRAM_REJECTED', error: expect.stringContaining('supergroup') });
    expect(telegramResult(error(502, 'Bad Gateway'), 'x')).toMatchObject({ code: 'TELEGRAM_HTTP_5XX', retryable: true });
    expect(telegramResult(answer(500, 'not json'), 'x')).toMatchObject({ code: 'TELEGRAM_HTTP_5XX', retryable: true });
  });

  it('waits parameters.retry_after seconds after a 429, else Retry-After', () => {
    expect(telegramResult(error(429, 'Too Many Requests: retry after 7', { retry_after: 7 }), 'x')).toMatchObject({ code: 'TELEGRAM_RATE_LIMITED', retryable: true, retryAfterMs: 7000 });
    expect(telegramResult(error(429, 'Too Many Requests'), 'x')).toMatchObject({ code: 'TELEGRAM_RATE_LIMITED', retryable: true });
    expect(telegramResult({ ...error(429, 'Too Many Requests'), retryAfter: '3' }, 'x')).toMatchObject({ retryAfterMs: 3000 });
  });
});

describe('Telegram message', () => {
  const content = { language: 'fr' as const, title: '⏰ Rappel', message: 'a < b & "c"', click: 'https://chime.example/reminders/r?x=1&y="2"' };

  it('escapes the text for the HTML parse mode and links the reminder', () => {
    expect(escapeTelegramHtml('<b>&"')).toBe('&lt;b&gt;&amp;&quot;');
    const body = telegramMessage(content, {});
    expect(body).toEqual({
      text: '<b>⏰ Rappel</b>\na &lt; b &amp; &quot;c&quot;\n\n<a href="https://chime.example/reminders/r?x=1&amp;y=&quot;2&quot;">Ouvrir dans Chime</a>',
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
  });

  it('cuts a long text and adds the three buttons, each callback_data within 64 bytes', () => {
    const sign = (action: 'snooze10' | 'tomorrow' | 'done') =>
      signActionToken('k', { deliveryId: '4d7c3f7e-1b8a-4f0e-9a55-0f6f1d2c3b4a', reminderId: '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d', occurrenceMs: 1, action });
    const body = telegramMessage({ ...content, message: 'é'.repeat(10_000), click: null }, { snooze10: sign('snooze10'), tomorrow: sign('tomorrow'), done: sign('done') }) as {
      text: string;
      reply_markup: { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> };
    };
    expect(body.text.length).toBeLessThanOrEqual(MAX_TELEGRAM_TEXT + 50);
    expect(body.reply_markup.inline_keyboard).toHaveLength(1);
    expect(body.reply_markup.inline_keyboard[0]!.map((b) => b.text)).toEqual(['Reporter 10 min', 'Demain', 'Terminé']);
    for (const b of body.reply_markup.inline_keyboard[0]!) expect(Buffer.byteLength(b.callback_data)).toBeLessThanOrEqual(64);
  });
});

describe('Telegram chats', () => {
  it('keeps chat ids as decimal text, groups negative', () => {
    expect(parseChatId(4242)).toBe('4242');
    expect(parseChatId(' -1001234567890 ')).toBe('-1001234567890');
    for (const bad of ['', '0', '01', '1.5', 'abc', 1.5, null, undefined, '1'.repeat(21), Number.MAX_SAFE_INTEGER + 2]) expect(parseChatId(bad), String(bad)).toBeNull();
  });

  it('names a group by its title, a private chat by @username, else by its name', () => {
    expect(chatLabel({ title: ' Family ', username: 'fam' })).toBe('Family');
    expect(chatLabel({ username: 'alice', first_name: 'Alice' })).toBe('@alice');
    expect(chatLabel({ first_name: 'Alice', last_name: 'Liddell' })).toBe('Alice Liddell');
    expect(chatLabel({})).toBeNull();
  });
});

describe('Telegram settings', () => {
  const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

  it('TELEGRAM_BOT_TOKEN alone turns Telegram on, at api.telegram.org; a malformed token stops the start without quoting it', () => {
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN }).telegram).toEqual({ botToken: TOKEN, apiUrl: 'https://api.telegram.org' });
    expect(loadConfig({}).telegramMissing).toEqual(['TELEGRAM_BOT_TOKEN']);
    const bad = 'not a token';
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: bad })).toThrow(ConfigError);
    const thrown = (() => {
      try {
        loadConfig({ TELEGRAM_BOT_TOKEN: `${TOKEN}!` });
        return null;
      } catch (err) {
        return err as Error;
      }
    })();
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown!.message).toContain('TELEGRAM_BOT_TOKEN');
    expect(thrown!.message).not.toContain(TOKEN);
  });

  it('TELEGRAM_API_URL on a loopback address needs WEBHOOK_ALLOW_PRIVATE_TARGETS; the webhook is registered only where Telegram can post to', () => {
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: 'http://127.0.0.1:8081' })).toThrow(/SSRF/);
    const local = loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: 'http://127.0.0.1:8081/', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    expect(local.telegram!.apiUrl).toBe('http://127.0.0.1:8081');
    expect(webhookReachable(local)).toBe(true);
    expect(webhookReachable(loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN, PUBLIC_URL: 'http://chime.example' }))).toBe(false);
    expect(webhookReachable(loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN, PUBLIC_URL: 'https://chime.example' }))).toBe(true);
  });
});
