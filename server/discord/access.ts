import type { REST } from '@discordjs/rest';
import { AppError } from '../errors.ts';
import { type ChannelRefusal, channelRefusal, isEveryoneRole, isForumType, isPostableChannelType, PRIVATE_THREAD } from './channel-rule.ts';
import {
  ADMINISTRATOR,
  canViewAndSend,
  computeBasePermissions,
  computeChannelPermissions,
  hasPermission,
  MANAGE_THREADS,
  MENTION_EVERYONE,
  type MemberPermissionContext,
  SEND_MESSAGES_IN_THREADS,
  VIEW_CHANNEL,
} from './permissions.ts';
import {
  botMember,
  botUserId,
  fetchMember,
  fetchThread,
  type ForumTag,
  type GuildChannel,
  type GuildMember,
  type GuildSnapshot,
  type GuildThread,
  invalidateDiscordCache,
  isThreadMember,
  listActiveThreads,
  type ArchivedCursor,
  listArchivedThreads,
  loadGuild,
  REQUIRE_TAG,
} from './guild-reads.ts';

/**
 * Who may post where, from the bot's REST view of a guild (guild-reads.ts), decided by the rule of
 * channel-rule.ts. Used by the API (destination checks, the server picker) and by the channel
 * sender before each delivery.
 */

export type AccessFailureCode =
  | 'DISCORD_BOT_NOT_IN_GUILD'
  | 'DISCORD_NOT_MEMBER'
  | 'DISCORD_CANNOT_POST'
  | 'DISCORD_ROLE_NOT_MENTIONABLE'
  | 'DISCORD_CANNOT_MENTION_EVERYONE'
  | 'DISCORD_UNKNOWN_CHANNEL'
  | 'DISCORD_UNKNOWN_ROLE'
  | 'DISCORD_CANNOT_POST_IN_THREAD'
  | 'DISCORD_NOT_IN_THREAD'
  | 'DISCORD_BOT_NOT_IN_THREAD'
  | 'DISCORD_THREAD_ARCHIVED';

/** What was checked: its kind decides how the sender posts (a message, a new forum post, a thread to reopen first). */
export interface CheckedChannel {
  id: string;
  name: string;
  type: number;
  /** A thread's state when checked (always false for other kinds). */
  archived: boolean;
  /** A forum or media channel's flags and tags (new posts); a thread's parent id. */
  flags?: number;
  available_tags?: GuildChannel['available_tags'];
  /** A forum's: whether the owner and the bot may apply its moderated tags (Manage Threads). */
  user_manages_threads?: boolean;
  bot_manages_threads?: boolean;
  parent_id: string | null;
}

/** `params`: the names the message quotes (channel, role, guild), so a translation can quote them too. */
export type AccessResult = { ok: true; channel?: CheckedChannel } | { ok: false; code: AccessFailureCode; message: string; params?: Record<string, string> };

export interface ChannelAccessInput {
  /** The Discord user id of the reminder's owner. */
  userId: string;
  guildId: string;
  channelId: string;
  mentionRoleId?: string | null;
}

export const BOT_NOT_IN_GUILD_MESSAGE = 'Bot is not a member of this guild';

function contextFor(guild: GuildSnapshot, userId: string, member: GuildMember): MemberPermissionContext {
  return {
    guildId: guild.id,
    ownerId: guild.ownerId,
    userId,
    roles: guild.roles,
    memberRoleIds: member.roles,
    communicationDisabledUntil: member.communication_disabled_until ?? null,
  };
}

export function memberChannelPermissions(guild: GuildSnapshot, userId: string, member: GuildMember, channel: GuildChannel): bigint {
  return computeChannelPermissions(contextFor(guild, userId, member), channel.permission_overwrites);
}

export function memberGuildPermissions(guild: GuildSnapshot, userId: string, member: GuildMember): bigint {
  return computeBasePermissions(contextFor(guild, userId, member));
}

/** Channels in the order Discord shows them: uncategorised first, then by category, then by position. */
export function sortChannels(channels: GuildChannel[], all: GuildChannel[] = channels): GuildChannel[] {
  const categoryPosition = new Map(all.filter((c) => c.type === 4).map((c) => [c.id, c.position]));
  const rank = (c: GuildChannel) => (c.parent_id === null ? -1 : (categoryPosition.get(c.parent_id) ?? Number.MAX_SAFE_INTEGER));
  return [...channels].sort((a, b) => rank(a) - rank(b) || a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

const SNOWFLAKE = /^\d{1,25}$/;

const fail = (code: AccessFailureCode, message: string, params?: Record<string, string>): AccessResult => ({ ok: false, code, message, ...(params ? { params } : {}) });

/**
 * Can the user post in this channel through the bot, and mention the role? Permanent problems
 * come back as `{ ok: false, code, message }`; Discord outages and rate limits throw (retryable).
 */
export async function checkChannelAccess(rest: REST, input: ChannelAccessInput): Promise<AccessResult> {
  // Ids go into REST paths: anything but a snowflake cannot name a real guild, channel or role.
  if (!SNOWFLAKE.test(input.guildId)) return fail('DISCORD_BOT_NOT_IN_GUILD', BOT_NOT_IN_GUILD_MESSAGE);
  if (!SNOWFLAKE.test(input.channelId)) return fail('DISCORD_UNKNOWN_CHANNEL', 'That channel does not exist');
  if (!SNOWFLAKE.test(input.userId)) return fail('DISCORD_NOT_MEMBER', 'You are not a member of this Discord server');
  let guild = await loadGuild(rest, input.guildId);
  if (!guild) return fail('DISCORD_BOT_NOT_IN_GUILD', BOT_NOT_IN_GUILD_MESSAGE);

  let channel = guild.channels.find((c) => c.id === input.channelId);
  // Not in the guild's list: a thread (Discord lists them apart), read on its own.
  const thread = channel ? null : await fetchThread(rest, input.channelId);
  if (!channel && (typeof thread === 'string' || !guild.channels.some((c) => c.id === thread?.parent_id))) {
    // Maybe the channel (or the thread's channel) was created in the last 30 s: look once more without the cache.
    invalidateDiscordCache(rest, input.guildId);
    guild = await loadGuild(rest, input.guildId);
    if (!guild) return fail('DISCORD_BOT_NOT_IN_GUILD', BOT_NOT_IN_GUILD_MESSAGE);
    channel = guild.channels.find((c) => c.id === input.channelId);
  }
  if (!channel) return checkThreadAccess(rest, guild, input, thread ?? 'unknown');
  const found = channel;
  // Kept for a forum's moderated tags, which only members who manage threads may apply.
  let userPermissions = 0n;
  let botPermissions = 0n;
  const refusal = await channelRefusal({
    channelType: found.type,
    userPermissions: async () => {
      const member = await fetchMember(rest, guild.id, input.userId);
      if (!member) return null;
      userPermissions = memberChannelPermissions(guild, input.userId, member, found);
      return userPermissions;
    },
    botPermissions: async () => {
      const botId = await botUserId(rest);
      const bot = await botMember(rest, guild.id);
      if (!bot) return null;
      botPermissions = memberChannelPermissions(guild, botId, bot, found);
      return botPermissions;
    },
    role: roleFact(guild, input.mentionRoleId ?? null),
  });
  if (refusal) return refused(refusal, guild, found, input.mentionRoleId ?? null);
  return {
    ok: true,
    channel: {
      id: found.id,
      name: found.name,
      type: found.type,
      archived: false,
      parent_id: found.parent_id,
      ...(found.flags !== undefined ? { flags: found.flags } : {}),
      ...(isForumType(found.type)
        ? { available_tags: found.available_tags ?? [], user_manages_threads: managesThreads(userPermissions), bot_manages_threads: managesThreads(botPermissions) }
        : {}),
    },
  };
}

/**
 * A channel id that is not in the guild's channel list may be a thread (Discord lists threads
 * apart, read by fetchThread): decided with its parent's overwrites, which a thread shares.
 */
async function checkThreadAccess(rest: REST, guild: GuildSnapshot, input: ChannelAccessInput, thread: GuildThread | 'unknown' | 'no-access'): Promise<AccessResult> {
  const unknown = fail('DISCORD_UNKNOWN_CHANNEL', `That channel does not exist in ${guild.name} (any more)`, { guild: guild.name });
  // Discord answers Missing Access alike for a channel of a server the bot is not in and for a
  // private thread the bot was not added to: both are channels it cannot name here.
  if (thread === 'no-access') {
    return fail('DISCORD_UNKNOWN_CHANNEL', `That channel does not exist in ${guild.name}, or is a private thread the bot was not added to`, { guild: guild.name });
  }
  if (thread === 'unknown' || thread.guild_id !== guild.id) return unknown;
  const parent = guild.channels.find((c) => c.id === thread.parent_id);
  if (!parent) return unknown;
  const asChannel: GuildChannel = { ...parent, id: thread.id, name: thread.name, type: thread.type };
  const refusal = await channelRefusal({
    channelType: thread.type,
    userPermissions: async () => {
      const member = await fetchMember(rest, guild.id, input.userId);
      return member ? memberChannelPermissions(guild, input.userId, member, parent) : null;
    },
    botPermissions: async () => {
      const botId = await botUserId(rest);
      const bot = await botMember(rest, guild.id);
      return bot ? memberChannelPermissions(guild, botId, bot, parent) : null;
    },
    role: roleFact(guild, input.mentionRoleId ?? null),
    thread: {
      archived: thread.archived,
      locked: thread.locked,
      userIsMember: () => (thread.type === PRIVATE_THREAD ? isThreadMember(rest, thread.id, input.userId) : true),
      botIsMember: async () => (thread.type === PRIVATE_THREAD ? isThreadMember(rest, thread.id, await botUserId(rest)) : true),
    },
  });
  if (refusal) return refused(refusal, guild, asChannel, input.mentionRoleId ?? null, thread);
  return { ok: true, channel: { id: thread.id, name: thread.name, type: thread.type, archived: thread.archived, parent_id: thread.parent_id } };
}

function roleFact(guild: GuildSnapshot, roleId: string | null): { mentionable: boolean } | 'everyone' | 'missing' | null {
  if (!roleId) return null;
  if (isEveryoneRole(guild.id, roleId)) return 'everyone';
  const role = guild.roles.find((r) => r.id === roleId);
  return role ? { mentionable: role.mentionable } : 'missing';
}

/** The API's code and English words for a refusal, with the names they quote. */
function refused(refusal: ChannelRefusal, guild: GuildSnapshot, channel: GuildChannel, roleId: string | null, thread?: GuildThread): AccessResult {
  const role = guild.roles.find((r) => r.id === roleId)?.name ?? '';
  const parent = thread ? (guild.channels.find((c) => c.id === thread.parent_id)?.name ?? '') : '';
  switch (refusal) {
    case 'USER_CANNOT_SEND_IN_THREADS':
      return fail('DISCORD_CANNOT_POST_IN_THREAD', `You can't send messages in the thread #${channel.name}: you need the Send Messages in Threads permission there`, {
        channel: channel.name,
        permission: 'SEND_MESSAGES_IN_THREADS',
        who: 'user',
      });
    case 'BOT_CANNOT_SEND_IN_THREADS':
      return fail('DISCORD_CANNOT_POST_IN_THREAD', `The bot can't send messages in the thread #${channel.name}. Give it the View Channel and Send Messages in Threads permissions in #${parent}.`, {
        channel: channel.name,
        parent,
        permission: 'SEND_MESSAGES_IN_THREADS',
        who: 'bot',
      });
    case 'USER_NOT_IN_THREAD':
      // Not named: a private thread's name is for its members.
      return fail('DISCORD_NOT_IN_THREAD', 'You are not in this private thread', { who: 'user' });
    case 'BOT_NOT_IN_THREAD':
      return fail('DISCORD_BOT_NOT_IN_THREAD', `The bot is not in the private thread #${channel.name}. Add it to the thread first (mention it there).`, { channel: channel.name, who: 'bot' });
    case 'THREAD_LOCKED':
      return fail('DISCORD_THREAD_ARCHIVED', `The thread #${channel.name} is archived and locked: the bot needs the Manage Threads permission to reopen it`, {
        channel: channel.name,
        permission: 'MANAGE_THREADS',
        who: 'bot',
      });
    case 'NOT_TEXT_CHANNEL':
      return fail('DISCORD_UNKNOWN_CHANNEL', `#${channel.name} is not a channel reminders can post in (text, announcement, voice or stage chat, thread or forum)`, { channel: channel.name });
    case 'NOT_MEMBER':
      return fail('DISCORD_NOT_MEMBER', `You are not a member of ${guild.name}`, { guild: guild.name });
    case 'USER_CANNOT_VIEW':
      return fail('DISCORD_CANNOT_POST', `You can't see #${channel.name}`, { channel: channel.name, who: 'user' });
    case 'USER_CANNOT_SEND':
      return fail('DISCORD_CANNOT_POST', `You can't send messages in #${channel.name}`, { channel: channel.name, who: 'user' });
    case 'BOT_NOT_IN_GUILD':
      return fail('DISCORD_BOT_NOT_IN_GUILD', BOT_NOT_IN_GUILD_MESSAGE);
    case 'BOT_CANNOT_SEND':
      return fail('DISCORD_CANNOT_POST', `The bot can't send messages in #${channel.name}. Give it the View Channel and Send Messages permissions there.`, {
        channel: channel.name,
        who: 'bot',
      });
    case 'UNKNOWN_ROLE':
      return fail('DISCORD_UNKNOWN_ROLE', `The role to mention does not exist in ${guild.name} (any more)`, { guild: guild.name });
    case 'USER_CANNOT_MENTION_ROLE':
      return fail('DISCORD_ROLE_NOT_MENTIONABLE', `The role @${role} can't be mentioned by you`, { role, who: 'user' });
    case 'BOT_CANNOT_MENTION_ROLE':
      return fail('DISCORD_ROLE_NOT_MENTIONABLE', `The bot can't mention @${role}. Make the role mentionable or give the bot the Mention Everyone permission.`, { role, who: 'bot' });
    case 'USER_CANNOT_MENTION_EVERYONE':
      return fail('DISCORD_CANNOT_MENTION_EVERYONE', `You can't mention @everyone in #${channel.name}: you need the Mention Everyone permission there`, {
        channel: channel.name,
        permission: 'MENTION_EVERYONE',
        who: 'user',
      });
    case 'BOT_CANNOT_MENTION_EVERYONE':
      return fail('DISCORD_CANNOT_MENTION_EVERYONE', `The bot can't mention @everyone in #${channel.name}. Give it the Mention Everyone permission there.`, {
        channel: channel.name,
        permission: 'MENTION_EVERYONE',
        who: 'bot',
      });
  }
}

export interface PickerChannel {
  id: string;
  name: string;
  type: number;
  /** The bot can see the channel and post in it. */
  bot_can_send: boolean;
  /** The bot can also ping roles that are not set as mentionable (Mention Everyone there). */
  bot_can_mention: boolean;
  /** Why the channel cannot be chosen (DISCORD_CANNOT_POST, DISCORD_CANNOT_POST_IN_THREAD), or null. */
  reason: string | null;
  /** A thread's channel (listed right after it). */
  parent_id?: string;
  /** An archived thread (listed on demand): the bot reopens it before each post. */
  archived?: boolean;
  /** A forum or media channel's tags for new posts, and whether one is required. */
  tags?: Array<{ id: string; name: string; moderated: boolean }>;
  require_tag?: boolean;
}

/**
 * Channels the user can view and post in (server picker, step 2): text, announcement, the text
 * chat of voice and stage channels, forum and media channels (a new post per occurrence), and
 * the active threads (a forum's posts among them) right after their channel: public ones, and the
 * private ones the bot is in (`type` tells the picker which kind each is). Each says whether the
 * bot can post and mention there, so the picker shows unusable channels disabled with the reason.
 * Archived threads are not listed (Discord lists them per channel, page by page).
 */
export async function listPostableChannels(rest: REST, guildId: string, userId: string): Promise<PickerChannel[]> {
  const { guild, member } = await guildAndMember(rest, guildId, userId);
  const botId = await botUserId(rest);
  const bot = await botMember(rest, guildId);
  const threads = await listActiveThreads(rest, guildId);
  const userIn = (c: GuildChannel) => memberChannelPermissions(guild, userId, member, c);
  const botIn = (c: GuildChannel) => (bot ? memberChannelPermissions(guild, botId, bot, c) : 0n);
  // A private thread is named only to its members and to those who manage threads there.
  const privateSeen = await privateThreadsSeenBy(rest, userId, threads, (parentId) => {
    const parent = guild.channels.find((c) => c.id === parentId);
    return !!parent && managesThreads(userIn(parent));
  });
  const hasThreads = new Set(threads.map((t) => t.parent_id));
  const candidates = guild.channels.filter((c) => isPostableChannelType(c.type) || hasThreads.has(c.id));
  const out: PickerChannel[] = [];
  for (const c of sortChannels(candidates, guild.channels)) {
    const user = userIn(c);
    const botPermissions = botIn(c);
    if (isPostableChannelType(c.type) && canViewAndSend(user)) {
      const botCanSend = canViewAndSend(botPermissions);
      out.push({
        id: c.id,
        name: c.name,
        type: c.type,
        bot_can_send: botCanSend,
        bot_can_mention: botCanSend && hasPermission(botPermissions, MENTION_EVERYONE),
        reason: botCanSend ? null : 'DISCORD_CANNOT_POST',
        ...(isForumType(c.type) ? { tags: c.available_tags ?? [], require_tag: ((c.flags ?? 0) & REQUIRE_TAG) !== 0 } : {}),
      });
    }
    if (!hasPermission(user, VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS)) continue;
    const botCanSend = hasPermission(botPermissions, VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS);
    for (const t of threads) {
      if (t.parent_id !== c.id || (t.type === PRIVATE_THREAD && (!t.bot_is_member || !privateSeen.has(t.id)))) continue;
      out.push({
        id: t.id,
        name: t.name,
        type: t.type,
        parent_id: c.id,
        bot_can_send: botCanSend,
        bot_can_mention: botCanSend && hasPermission(botPermissions, MENTION_EVERYONE),
        reason: botCanSend ? null : 'DISCORD_CANNOT_POST_IN_THREAD',
      });
    }
  }
  return out;
}

const managesThreads = (permissions: bigint) => hasPermission(permissions, ADMINISTRATOR) || hasPermission(permissions, MANAGE_THREADS);

/** Ids of the private threads (among those the bot is in) the user may see: a member, or one who manages threads there. */
async function privateThreadsSeenBy(rest: REST, userId: string, threads: Array<GuildThread & { bot_is_member?: boolean }>, moderates: (parentId: string) => boolean): Promise<Set<string>> {
  const candidates = threads.filter((t) => t.type === PRIVATE_THREAD && t.bot_is_member !== false);
  const seen = await Promise.all(candidates.map(async (t) => (moderates(t.parent_id) || (await isThreadMember(rest, t.id, userId)) ? t.id : null)));
  return new Set(seen.filter((id): id is string => id !== null));
}

/**
 * The tags a new post of a forum or media channel may carry, for /remind's `tags:` suggestions:
 * null when the channel is not such a channel of the guild, or one the user cannot see.
 */
export async function forumTagsOf(rest: REST, guildId: string, userId: string, channelId: string): Promise<ForumTag[] | null> {
  if (!SNOWFLAKE.test(guildId) || !SNOWFLAKE.test(channelId) || !SNOWFLAKE.test(userId)) return null;
  const guild = await loadGuild(rest, guildId);
  const forum = guild?.channels.find((c) => c.id === channelId && isForumType(c.type));
  if (!guild || !forum) return null;
  const member = await fetchMember(rest, guildId, userId);
  if (!member || !hasPermission(memberChannelPermissions(guild, userId, member, forum), VIEW_CHANNEL)) return null;
  return forum.available_tags ?? [];
}

/** Channels whose threads can be listed: text, announcement, forum and media. */
const THREAD_PARENT_TYPES = new Set([0, 5, 15, 16]);

/** The picker's archived threads of a channel, a page at a time: `next_cursor` asks for the next page (null at the end). */
export interface ArchivedPickerPage {
  threads: PickerChannel[];
  next_cursor: string | null;
}

/** The opaque `next_cursor` of an archived-threads page: where each of Discord's two lists goes on. */
export function encodeArchivedCursor(cursor: ArchivedCursor | null): string | null {
  if (!cursor) return null;
  return Buffer.from(JSON.stringify({ p: cursor.public, j: cursor.private }), 'utf8').toString('base64url');
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A cursor this API answered, read back; anything else is a VALIDATION_FAILED. */
export function decodeArchivedCursor(value: string): ArchivedCursor {
  const invalid = new AppError('VALIDATION_FAILED', 'cursor must be a next_cursor this API answered');
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid;
  const { p, j } = raw as { p?: unknown; j?: unknown };
  if (p !== undefined && (typeof p !== 'string' || !ISO_INSTANT.test(p) || Number.isNaN(Date.parse(p)))) throw invalid;
  if (j !== undefined && (typeof j !== 'string' || !SNOWFLAKE.test(j))) throw invalid;
  if (p === undefined && j === undefined) throw invalid;
  return { ...(p !== undefined ? { public: p } : {}), ...(j !== undefined ? { private: j } : {}) };
}

/**
 * The archived threads of one channel the user may post in (server picker, on demand), a page at
 * a time (`cursor`: the previous page's next_cursor), each saying whether the bot can reopen and
 * post in it: an unlocked one where it may send in threads, a locked one only with Manage Threads
 * (else DISCORD_THREAD_ARCHIVED). A page holds at most ARCHIVED_PAGE_SIZE of each of Discord's
 * lists (public, and private ones the bot was added to), fewer once the private ones the user may
 * not see are left out.
 */
export async function listArchivedPickerThreads(rest: REST, guildId: string, userId: string, channelId: string, cursor?: ArchivedCursor): Promise<ArchivedPickerPage> {
  const { guild, member } = await guildAndMember(rest, guildId, userId);
  const parent = guild.channels.find((c) => c.id === channelId && THREAD_PARENT_TYPES.has(c.type));
  // Another server's channel, or one the user cannot see, is as unknown as a missing one.
  const unknown = new AppError('INVALID_DESTINATION', `That channel does not exist in ${guild.name} (any more)`, 400, { reason: 'DISCORD_UNKNOWN_CHANNEL', params: { guild: guild.name } });
  if (!parent) throw unknown;
  const user = memberChannelPermissions(guild, userId, member, parent);
  if (!hasPermission(user, VIEW_CHANNEL)) throw unknown;
  if (!hasPermission(user, SEND_MESSAGES_IN_THREADS)) return { threads: [], next_cursor: null };
  const bot = await botMember(rest, guildId);
  const botPermissions = bot ? memberChannelPermissions(guild, await botUserId(rest), bot, parent) : 0n;
  const botSends = hasPermission(botPermissions, VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS);
  const botManages = managesThreads(botPermissions);
  const page = await listArchivedThreads(rest, guildId, channelId, cursor);
  const privateSeen = await privateThreadsSeenBy(rest, userId, page.threads, () => managesThreads(user));
  const threads = page.threads.filter((t) => t.type !== PRIVATE_THREAD || privateSeen.has(t.id));
  const rows = threads.map((t): PickerChannel => {
    const reason = !botSends ? 'DISCORD_CANNOT_POST_IN_THREAD' : t.locked && !botManages ? 'DISCORD_THREAD_ARCHIVED' : null;
    return {
      id: t.id,
      name: t.name,
      type: t.type,
      parent_id: parent.id,
      archived: true,
      bot_can_send: reason === null,
      bot_can_mention: reason === null && hasPermission(botPermissions, MENTION_EVERYONE),
      reason,
    };
  });
  return { threads: rows, next_cursor: encodeArchivedCursor(page.next) };
}

/**
 * Roles the user may mention, without managed roles, highest first (picker, step 3). @everyone
 * (the role whose id is the guild's, named "@everyone" by Discord) comes first, and only when the
 * user and the bot may mention everyone and `everyoneAllowed` (the server's rules) says so.
 */
export async function listMentionableRoles(
  rest: REST,
  guildId: string,
  userId: string,
  everyoneAllowed: () => Promise<boolean> = async () => false,
): Promise<Array<{ id: string; name: string; color: number; managed: boolean }>> {
  const { guild, member } = await guildAndMember(rest, guildId, userId);
  // A non-mentionable role is only pinged when both the user and the bot may mention everyone
  // (the bot is asked only when the user may: most users may not, and that costs no lookup).
  let mayMentionAll = hasPermission(memberGuildPermissions(guild, userId, member), MENTION_EVERYONE);
  if (mayMentionAll) {
    const bot = await botMember(rest, guildId);
    mayMentionAll = !!bot && hasPermission(memberGuildPermissions(guild, await botUserId(rest), bot), MENTION_EVERYONE);
  }
  const roles = guild.roles
    .filter((r) => r.id !== guild.id && !r.managed && (r.mentionable || mayMentionAll))
    .sort((a, b) => b.position - a.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
    .map((r) => ({ id: r.id, name: r.name, color: r.color, managed: r.managed }));
  // Guild-wide permissions, like the other roles: a channel that denies Mention Everyone is
  // refused when the destination is saved (checkChannelAccess), with the permission named.
  if (mayMentionAll && (await everyoneAllowed())) roles.unshift({ id: guild.id, name: '@everyone', color: 0, managed: false });
  return roles;
}

async function guildAndMember(rest: REST, guildId: string, userId: string) {
  const guild = await loadGuild(rest, guildId);
  if (!guild) throw new AppError('DISCORD_BOT_NOT_IN_GUILD', BOT_NOT_IN_GUILD_MESSAGE, 400);
  const member = await fetchMember(rest, guildId, userId);
  if (!member) throw new AppError('DISCORD_PERMISSION_DENIED', `You are not a member of ${guild.name}`, 403, { reason: 'DISCORD_NOT_MEMBER' });
  return { guild, member };
}

/** Maps an access failure to the API error the reminder routes answer. */
export function accessError(result: Extract<AccessResult, { ok: false }>): AppError {
  const params = result.params ? { params: result.params } : {};
  switch (result.code) {
    case 'DISCORD_BOT_NOT_IN_GUILD':
      return new AppError('DISCORD_BOT_NOT_IN_GUILD', result.message, 400);
    case 'DISCORD_UNKNOWN_CHANNEL':
    case 'DISCORD_UNKNOWN_ROLE':
      return new AppError('INVALID_DESTINATION', result.message, 400, { reason: result.code, ...params });
    default:
      return new AppError('DISCORD_PERMISSION_DENIED', result.message, 403, { reason: result.code, ...params });
  }
}
