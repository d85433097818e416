import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireDiscordUserId } from '../../accounts/discord-accounts.ts';
import { decodeArchivedCursor, listArchivedPickerThreads, listPostableChannels } from '../../discord/access.ts';
import { botGuildIds } from '../../discord/guild-reads.ts';
import { botRestFailure } from '../../discord/errors.ts';
import { EMBED_LINKS, MENTION_EVERYONE, READ_MESSAGE_HISTORY, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, USE_APPLICATION_COMMANDS, VIEW_CHANNEL } from '../../discord/permissions.ts';
import type { DiscordService } from '../../discord/service.ts';
import { AppError } from '../../errors.ts';
import { errorResponses, Nullable } from '../../schemas/common.ts';
import { pickerRoles } from '../../servers/rules.ts';

/**
 * What the bot needs in a channel to deliver: see it, post, embed the reminder, read history
 * (replies and edits of its own messages), and Mention Everyone, without which Discord drops the
 * ping of a reminder to @everyone or to a role that is not mentionable (docs/discord.md); the
 * server's owner can untick it on Discord's page, and such reminders are then refused with the
 * permission named. USE_APPLICATION_COMMANDS (2147483648) is the invite's permission value the
 * dashboard has always used (docs/dashboard.md "Destinations"); it is OR-ed in so members can use
 * the slash commands wherever the bot was invited, while the bot still asks for only what it uses.
 */
// Send Messages in Threads: channel reminders may post in threads and forum posts. Manage Threads is
// not asked: only a locked archived thread or a moderated forum tag needs it, which a server grants where it wants.
export const BOT_INVITE_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_MESSAGE_HISTORY | MENTION_EVERYONE | USE_APPLICATION_COMMANDS | SEND_MESSAGES_IN_THREADS;

const SNOWFLAKE = /^\d{15,25}$/;

// Dashboards send account_id in these bodies; it is accepted and ignored: the session decides (docs/decisions/specification-gaps.md).
const AccountIdField = Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Number(), Type.Null()]));
const GuildsBody = Type.Object({ account_id: AccountIdField });
const GuildBody = Type.Object({ account_id: AccountIdField, guild_id: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Number()])) });
const ArchivedThreadsBody = Type.Object({
  account_id: AccountIdField,
  guild_id: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Number()])),
  channel_id: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Number()])),
  /** The previous page's next_cursor: the page after it. */
  cursor: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
});
const InviteQuery = Type.Object({ guild_id: Type.Optional(Type.String({ maxLength: 32 })) });

const GuildOut = Type.Object({ id: Type.String(), name: Type.String(), icon: Nullable(Type.String()), bot_present: Type.Boolean() });
const ChannelOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Integer(),
  /** The bot can see and post in the channel; when false the picker shows it disabled with `reason`. */
  bot_can_send: Type.Boolean(),
  /** The bot can also ping roles that are not set as mentionable. */
  bot_can_mention: Type.Boolean(),
  reason: Nullable(Type.String()),
  /** A thread's channel; threads come right after it. */
  parent_id: Type.Optional(Type.String()),
  /** An archived thread (listed on demand): reopened before each post. */
  archived: Type.Optional(Type.Boolean()),
  /** A forum or media channel's tags for new posts, and whether each post needs one. */
  tags: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), moderated: Type.Boolean() }))),
  require_tag: Type.Optional(Type.Boolean()),
});
/** One page of a channel's archived threads; `next_cursor` (sent back as `cursor`) asks for the next, null after the last. */
const ArchivedPageOut = Type.Object({ threads: Type.Array(ChannelOut), next_cursor: Nullable(Type.String()) });
const RoleOut = Type.Object({ id: Type.String(), name: Type.String(), color: Type.Integer(), managed: Type.Boolean() });
const UrlOut = Type.Object({ url: Type.String() });

function requireGuildId(value: unknown): string {
  const id = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!id) throw new AppError('VALIDATION_FAILED', 'guild_id is required');
  if (!SNOWFLAKE.test(id)) throw new AppError('VALIDATION_FAILED', 'guild_id must be a Discord server id');
  return id;
}

function requireSnowflake(value: unknown, field: string): string {
  const id = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!id) throw new AppError('VALIDATION_FAILED', `${field} is required`);
  if (!SNOWFLAKE.test(id)) throw new AppError('VALIDATION_FAILED', `${field} must be a Discord id`);
  return id;
}

export function notConfigured(): AppError {
  return new AppError('DISCORD_NOT_CONFIGURED', 'Discord is not configured on this server', 503);
}

/** Discord picker routes of the dashboard (server, channel, role) and the bot invite link. */
const discord: FastifyPluginAsyncTypebox = async (app) => {
  // Before authentication: without Discord settings, every Discord route says so.
  app.addHook('onRequest', async () => {
    if (!app.discord) throw notConfigured();
  });
  app.addHook('onRequest', app.authenticate);
  // A dashboard may POST these without a body; treat it as {} so the schema applies.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {};
  });

  function service(): DiscordService {
    if (!app.discord) throw notConfigured();
    return app.discord;
  }

  async function bot<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw botRestFailure(err, app.log);
    }
  }

  app.post('/api/discord/guilds', { schema: { body: GuildsBody, response: { 200: Type.Array(GuildOut), ...errorResponses } } }, async (request) => {
    const d = service();
    const guilds = await d.userTokens.call(request.auth!.accountId, (token) => d.oauth.getCurrentUserGuilds(token), 'guilds');
    const present = await bot(() => botGuildIds(d.rest));
    return guilds
      .map((g) => ({ id: g.id, name: g.name, icon: g.icon ?? null, bot_present: present.has(g.id) }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  });

  app.post('/api/discord/guilds/channels', { schema: { body: GuildBody, response: { 200: Type.Array(ChannelOut), ...errorResponses } } }, async (request) => {
    const guildId = requireGuildId(request.body.guild_id);
    const userId = await requireDiscordUserId(app.db, request.auth!.accountId);
    return bot(() => listPostableChannels(service().rest, guildId, userId));
  });

  // The picker's "Show archived threads" of one channel (Discord lists them per channel, not per
  // server, a page at a time): a page of each of Discord's lists, and the cursor of the next.
  app.post('/api/discord/guilds/threads/archived', { schema: { body: ArchivedThreadsBody, response: { 200: ArchivedPageOut, ...errorResponses } } }, async (request) => {
    const guildId = requireGuildId(request.body.guild_id);
    const channelId = requireSnowflake(request.body.channel_id, 'channel_id');
    const cursor = request.body.cursor ? decodeArchivedCursor(request.body.cursor) : undefined;
    const userId = await requireDiscordUserId(app.db, request.auth!.accountId);
    return bot(() => listArchivedPickerThreads(service().rest, guildId, userId, channelId, cursor));
  });

  app.post('/api/discord/guilds/roles', { schema: { body: GuildBody, response: { 200: Type.Array(RoleOut), ...errorResponses } } }, async (request) => {
    const guildId = requireGuildId(request.body.guild_id);
    const userId = await requireDiscordUserId(app.db, request.auth!.accountId);
    service();
    return pickerRoles(app, request.auth!.accountId, userId, guildId);
  });

  app.get('/api/discord/invite-url', { schema: { querystring: InviteQuery, response: { 200: UrlOut, ...errorResponses } } }, async (request) => {
    const { config } = service();
    const guildId = request.query.guild_id ? requireGuildId(request.query.guild_id) : null;
    const params = [
      `client_id=${encodeURIComponent(config.clientId)}`,
      `scope=${encodeURIComponent('bot applications.commands')}`,
      `permissions=${BOT_INVITE_PERMISSIONS.toString()}`,
      ...(guildId ? [`guild_id=${guildId}`, 'disable_guild_select=true'] : []),
    ];
    return { url: `${config.authorizeUrl}?${params.join('&')}` };
  });
};

export default discord;
