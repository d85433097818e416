/**
 * A fake Telegram Bot API on 127.0.0.1, written from core.telegram.org/bots/api: only what Chime's
 * bot uses.
 *
 * - "Making requests": `POST /bot<token>/<method>` with a JSON body; every answer is
 *   `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`. An unknown
 *   token is 401 "Unauthorized"; an unknown method 404 "Not Found".
 * - `getMe`: the bot's User (`is_bot`, `username`).
 * - `setWebhook` (`url`, `secret_token`, `allowed_updates`): kept in `webhook`; `secret_token` must
 *   be 1-256 of A-Z a-z 0-9 _ - (400 otherwise). `getWebhookInfo`: its `url`, and
 *   `last_error_message` / `pending_update_count` when a test sets `webhookError`.
 * - `getChat` (`chat_id`): the ChatFullInfo of a known chat, 400 "Bad Request: chat not found"
 *   otherwise (and for a chat the bot was removed from: it no longer sees it).
 * - `sendMessage` (`chat_id`, `text`, `parse_mode`, `reply_markup`): 400 "chat not found", 403
 *   "Forbidden: bot was blocked by the user" for a private chat that blocked the bot, 403
 *   "Forbidden: bot was kicked from the group chat"; `text` 1-4096 characters after entity parsing
 *   ("message is too long"); with `parse_mode: "HTML"` only the supported tags, and `&` only as
 *   &lt; &gt; &amp; &quot; or a numeric entity ("can't parse entities"); an InlineKeyboardButton's
 *   `callback_data` is 1-64 bytes ("BUTTON_DATA_INVALID"). Answers the Message.
 * - `answerCallbackQuery` (`callback_query_id`, `text` 0-200 characters).
 * - `editMessageReplyMarkup` (`chat_id`, `message_id`, `reply_markup`): an empty or missing
 *   keyboard removes it; 400 "message to edit not found".
 * - 429 "Too Many Requests: retry after N" with `parameters.retry_after` (ResponseParameters), via
 *   `script()`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { countWaiter, listenOnLoopback } from './loopback-fake.ts';

export interface TelegramRequest {
  method: string;
  token: string;
  /** The path with the token replaced by `<token>`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface FakeChat {
  id: number;
  type: 'private' | 'group' | 'supergroup';
  title?: string;
  username?: string;
  first_name?: string;
  /** A private chat whose user blocked the bot. */
  blocked?: boolean;
  /** A group the bot was removed from. */
  kicked?: boolean;
}

export interface SentMessage {
  message_id: number;
  chat_id: number;
  text: string;
  parse_mode?: string;
  reply_markup?: any;
}

export interface TelegramScripted {
  status: number;
  description: string;
  retryAfter?: number;
}

export interface FakeTelegram {
  url: string;
  token: string;
  username: string;
  chats: Map<number, FakeChat>;
  requests: TelegramRequest[];
  messages: SentMessage[];
  callbackAnswers: Array<{ callback_query_id: string; text?: string }>;
  webhook: { url: string; secret_token?: string; allowed_updates?: string[] } | null;
  /** Every answer waits this long first (a slow Bot API). */
  delayMs: number;
  /** What getWebhookInfo reports as the last failed post to the webhook, when set. */
  webhookError: string | null;
  /** Answers the next calls of `method` with these errors, in order. */
  script(method: string, ...answers: TelegramScripted[]): void;
  waitForMessages(count: number, timeoutMs?: number): Promise<SentMessage[]>;
  waitForCallbackAnswers(count: number, timeoutMs?: number): Promise<Array<{ callback_query_id: string; text?: string }>>;
  waitForWebhook(timeoutMs?: number): Promise<NonNullable<FakeTelegram['webhook']>>;
  close(): Promise<void>;
}

const HTML_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'span', 'tg-spoiler', 'tg-emoji', 'blockquote']);

/** Telegram's HTML parse mode: what it refuses, and the text's length after entity parsing. */
function parseHtml(text: string): { ok: true; length: number } | { ok: false } {
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '<') {
      const tag = /^<\/?([a-z-]+)(\s[^<>]*)?>/.exec(text.slice(i));
      if (!tag || !HTML_TAGS.has(tag[1]!)) return { ok: false };
      i += tag[0].length - 1;
    } else if (c === '&') {
      const entity = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.exec(text.slice(i));
      if (!entity) return { ok: false };
      plain += 'x';
      i += entity[0].length - 1;
    } else if (c === '>') {
      return { ok: false };
    } else {
      plain += c;
    }
  }
  return { ok: true, length: Array.from(plain).length };
}

export async function startFakeTelegram(options: { token?: string; username?: string } = {}): Promise<FakeTelegram> {
  const token = options.token ?? '123456789:AAFakeTelegramBotTokenForChimeTests_x';
  const username = options.username ?? 'chime_test_bot';
  const chats = new Map<number, FakeChat>();
  const requests: TelegramRequest[] = [];
  const messages: SentMessage[] = [];
  const callbackAnswers: FakeTelegram['callbackAnswers'] = [];
  const scripted = new Map<string, TelegramScripted[]>();
  const messageWaiter = countWaiter(messages, 'Telegram messages');
  const answerWaiter = countWaiter(callbackAnswers, 'Telegram callback answers');
  const webhooks: Array<NonNullable<FakeTelegram['webhook']>> = [];
  const webhookWaiter = countWaiter(webhooks, 'Telegram setWebhook');
  let nextMessageId = 100;

  const fake = {} as FakeTelegram;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        const write = () => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (fake.delayMs > 0) setTimeout(write, fake.delayMs);
        else write();
      };
      const ok = (result: unknown) => answer(200, { ok: true, result });
      const error = (status: number, description: string, parameters?: Record<string, unknown>) =>
        answer(status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });

      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec((req.url ?? '').split('?')[0]!);
      let body: any = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return error(400, 'Bad Request: invalid JSON');
      }
      if (!match) return error(404, 'Not Found');
      const [, given, method] = match as unknown as [string, string, string];
      requests.push({ method, token: given, path: `/bot<token>/${method}`, headers: req.headers, body });
      if (given !== token) return error(401, 'Unauthorized');
      const next = scripted.get(method)?.shift();
      if (next) return error(next.status, next.description, next.retryAfter !== undefined ? { retry_after: next.retryAfter } : undefined);

      const chatOf = (id: unknown) => chats.get(Number(id));
      switch (method) {
        case 'getMe':
          return ok({ id: Number(token.split(':')[0]), is_bot: true, first_name: 'Chime', username, can_join_groups: true });
        case 'setWebhook': {
          if (typeof body.url !== 'string') return error(400, 'Bad Request: bad webhook: URL is required');
          if (body.secret_token !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(body.secret_token)) return error(400, 'Bad Request: secret token contains unallowed characters');
          const webhook = { url: body.url, secret_token: body.secret_token, allowed_updates: body.allowed_updates };
          fake.webhook = webhook;
          webhooks.push(webhook);
          webhookWaiter.arrived();
          return ok(true);
        }
        case 'getWebhookInfo':
          return ok({ url: fake.webhook?.url ?? '', has_custom_certificate: false, pending_update_count: fake.webhookError ? 3 : 0, ...(fake.webhookError ? { last_error_date: Math.floor(Date.now() / 1000), last_error_message: fake.webhookError } : {}) });
        case 'getChat': {
          const chat = chatOf(body.chat_id);
          if (!chat || chat.kicked) return error(400, 'Bad Request: chat not found');
          const { blocked: _b, kicked: _k, ...info } = chat;
          return ok({ ...info, accent_color_id: 0, max_reaction_count: 11 });
        }
        case 'sendMessage': {
          const chat = chatOf(body.chat_id);
          if (!chat) return error(400, 'Bad Request: chat not found');
          if (chat.blocked) return error(403, 'Forbidden: bot was blocked by the user');
          if (chat.kicked) return error(403, 'Forbidden: bot was kicked from the group chat');
          if (typeof body.text !== 'string' || body.text.length === 0) return error(400, 'Bad Request: message text is empty');
          let length = Array.from(body.text as string).length;
          if (body.parse_mode === 'HTML') {
            const parsed = parseHtml(body.text);
            if (!parsed.ok) return error(400, "Bad Request: can't parse entities: unsupported start tag or unescaped character");
            length = parsed.length;
          }
          if (length > 4096) return error(400, 'Bad Request: message is too long');
          for (const row of body.reply_markup?.inline_keyboard ?? []) {
            for (const button of row) {
              const size = Buffer.byteLength(String(button.callback_data ?? ''));
              if (button.callback_data !== undefined && (size < 1 || size > 64)) return error(400, 'Bad Request: BUTTON_DATA_INVALID');
            }
          }
          const message: SentMessage = { message_id: nextMessageId++, chat_id: chat.id, text: body.text, parse_mode: body.parse_mode, reply_markup: body.reply_markup };
          messages.push(message);
          messageWaiter.arrived();
          return ok({ message_id: message.message_id, date: Math.floor(Date.now() / 1000), chat: { id: chat.id, type: chat.type }, text: body.text });
        }
        case 'answerCallbackQuery': {
          if (typeof body.callback_query_id !== 'string') return error(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
          if (typeof body.text === 'string' && Array.from(body.text).length > 200) return error(400, 'Bad Request: MESSAGE_TOO_LONG');
          callbackAnswers.push({ callback_query_id: body.callback_query_id, text: body.text });
          answerWaiter.arrived();
          return ok(true);
        }
        case 'editMessageReplyMarkup': {
          const message = messages.find((m) => m.chat_id === Number(body.chat_id) && m.message_id === body.message_id);
          if (!message) return error(400, 'Bad Request: message to edit not found');
          const keyboard = body.reply_markup?.inline_keyboard;
          message.reply_markup = Array.isArray(keyboard) && keyboard.length ? body.reply_markup : undefined;
          return ok({ message_id: message.message_id, chat: { id: message.chat_id } });
        }
        default:
          return error(404, 'Not Found');
      }
    });
  });
  const loopback = await listenOnLoopback(server);
  Object.assign(fake, {
    url: loopback.url,
    token,
    username,
    chats,
    requests,
    messages,
    callbackAnswers,
    webhook: null,
    webhookError: null,
    delayMs: 0,
    script(method: string, ...answers: TelegramScripted[]) {
      scripted.set(method, [...(scripted.get(method) ?? []), ...answers]);
    },
    waitForMessages: (count: number, timeoutMs?: number) => messageWaiter.waitFor(count, timeoutMs),
    waitForCallbackAnswers: (count: number, timeoutMs?: number) => answerWaiter.waitFor(count, timeoutMs),
    waitForWebhook: async (timeoutMs?: number) => (await webhookWaiter.waitFor(1, timeoutMs))[0]!,
    close: () => loopback.close(),
  } satisfies Omit<FakeTelegram, never>);
  return fake;
}
