import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { createTelegramLinkCode, listAccountTelegramChats, removeAccountTelegramChat, TELEGRAM_CODE_TTL_MS, TELEGRAM_CODES_PER_WINDOW } from '../../accounts/telegram.ts';
import { RateWindow } from '../../coordination/rate-window.ts';
import { TELEGRAM_WEBHOOK_PATH } from '../../destinations/telegram/bot.ts';
import { receiveTelegramUpdate } from '../../reminders/telegram-updates.ts';
import { errorResponses, IdParams, Nullable, Ok } from '../../schemas/common.ts';

export const LinkCode = Type.Object({
  code: Type.String(),
  start_command: Type.String({ description: 'What to send the bot: /start <code>.' }),
  url: Nullable(Type.String({ description: 'https://t.me/<bot>?start=<code>: opens the private chat with the bot.' })),
  group_url: Nullable(Type.String({ description: 'https://t.me/<bot>?startgroup=<code>: adds the bot to a group.' })),
  bot_username: Nullable(Type.String()),
  expires_at: Type.String(),
});

export const Chat = Type.Object({
  id: Type.String(),
  chat_id: Type.String({ description: "Telegram's chat id (decimal text): a Telegram destination's metadata.chat_id." }),
  chat_type: Type.String(),
  label: Type.String(),
  connected_at: Type.String(),
});

export const ChatList = Type.Object({ chats: Type.Array(Chat) });

// What Chime reads of an Update (core.telegram.org/bots/api#update); validation drops the rest.
const TgChat = Type.Object({
  id: Type.Number(),
  type: Type.Optional(Type.String({ maxLength: 32 })),
  title: Type.Optional(Type.String({ maxLength: 512 })),
  username: Type.Optional(Type.String({ maxLength: 128 })),
  first_name: Type.Optional(Type.String({ maxLength: 512 })),
  last_name: Type.Optional(Type.String({ maxLength: 512 })),
});
const TgUser = Type.Object({ id: Type.Optional(Type.Number()), language_code: Type.Optional(Type.String({ maxLength: 35 })) });
const Update = Type.Object({
  update_id: Type.Optional(Type.Number()),
  message: Type.Optional(Type.Object({ message_id: Type.Optional(Type.Number()), text: Type.Optional(Type.String({ maxLength: 8192 })), chat: Type.Optional(TgChat), from: Type.Optional(TgUser) })),
  callback_query: Type.Optional(
    Type.Object({
      id: Type.String({ maxLength: 256 }),
      data: Type.Optional(Type.String({ maxLength: 256 })),
      from: Type.Optional(TgUser),
      message: Type.Optional(Type.Object({ message_id: Type.Optional(Type.Number()), chat: Type.Optional(TgChat) })),
    }),
  ),
});
const WebhookHeaders = Type.Object({ 'x-telegram-bot-api-secret-token': Type.Optional(Type.String({ maxLength: 1024 })) });

/**
 * Telegram (docs/notifications.md "Telegram"): the account's connected chats and the one-time
 * codes that connect them (a session only: no token scope), and the webhook Telegram posts updates
 * to (public; the secret token header is its credential). The webhook answers at once: what the
 * update sets off runs after the answer, and the app waits for it when it closes.
 */
const telegramRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const inFlight = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...inFlight]);
  });

  const codesPerAccount = new RateWindow(app.db, 'telegram_link_codes', TELEGRAM_CODES_PER_WINDOW, TELEGRAM_CODE_TTL_MS);

  const account: FastifyPluginAsyncTypebox = async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);
    scoped.post('/api/telegram/link-codes', { schema: { response: { 201: LinkCode, ...errorResponses } } }, async (request, reply) =>
      reply.status(201).send(await createTelegramLinkCode(app, request.auth!.accountId, codesPerAccount)),
    );
    scoped.get('/api/telegram/chats', { schema: { response: { 200: ChatList, ...errorResponses } } }, async (request) => ({
      chats: await listAccountTelegramChats(app, request.auth!.accountId),
    }));
    scoped.delete('/api/telegram/chats/:id', { schema: { params: IdParams, response: { 200: Ok, ...errorResponses } } }, async (request) => {
      await removeAccountTelegramChat(app, request.auth!.accountId, request.params.id);
      return { ok: true };
    });
  };
  await app.register(account);

  app.post(TELEGRAM_WEBHOOK_PATH, { schema: { headers: WebhookHeaders, body: Update, response: { 200: Ok, ...errorResponses } } }, async (request) => {
    const { work } = await receiveTelegramUpdate(app, request.headers['x-telegram-bot-api-secret-token'], request.body);
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return { ok: true };
  });
};

export default telegramRoutes;
