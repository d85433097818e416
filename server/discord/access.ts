import type { REST } from '@discordjs/rest';
import { AppError } from '../errors.ts';
import { type ChannelRefusal, channelRefusal, isEveryoneRole, isPostableChannelType } from './channel-rule.ts';
import {
  canViewAndSend,
  computeBasePermissions,
  computeChannelPermissions,
  hasPermission,
  MENTION_EVERYONE,
  type MemberPermissionContext,
} from './permissions.ts';
import { botMember, botUserId, fetchMember, type GuildChannel, type GuildMember, type GuildSnapshot, invalidateDiscordCache, loadGuild } from './guild-reads.ts';

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
  | 'DISCORD_UNKNOWN_ROLE';

/** `params`: the names the message quotes (channel, role, guild), so a translation can quote them too. */
export type AccessResult = { ok: true } | { ok: false; code: AccessFailureCode; message: string; params?: Record<string, string> };

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
  if (!channel) {
    // Maybe created in the last 30 s: look once more without the cache.
    invalidateDiscordCache(rest, input.guildId);
    guild = await loadGuild(rest, input.guildId);
    if (!guild) return fail('DISCORD_BOT_NOT_IN_GUILD', BOT_NOT_IN_GUILD_MESSAGE);
    channel = guild.channels.find((c) => c.id === input.channelId);
  }
  if (!channel) return fail('DISCORD_UNKNOWN_CHANNEL', `That channel does not exist in ${guild.name} (any more)`, { guild: guild.name });
  const found = channel;
  const refusal = await channelRefusal({
    channelType: found.type,
    userPermissions: async () => {
      const member = await fetchMember(rest, guild.id, input.userId);
      return member ? memberChannelPermissions(guild, input.userId, member, found) : null;
    },
    botPermissions: async () => {
      const botId = await botUserId(rest);
      const bot = await botMember(rest, guild.id);
      return bot ? memberChannelPermissions(guild, botId, bot, found) : null;
    },
    role: roleFact(guild, input.mentionRoleId ?? null),
  });
  return refusal ? refused(refusal, guild, found, input.mentionRoleId ?? null) : { ok: true };
}

function roleFact(guild: GuildSnapshot, roleId: string | null): { mentionable: boolean } | 'everyone' | 'missing' | null {
  if (!roleId) return null;
  if (isEveryoneRole(guild.id, roleId)) return 'everyone';
  const role = guild.roles.find((r) => r.id === roleId);
  return role ? { mentionable: role.mentionable } : 'missing';
}

/** The API's code and English words for a refusal, with the names they quote. */
function refused(refusal: ChannelRefusal, guild: GuildSnapshot, channel: GuildChannel, roleId: string | null): AccessResult {
  const role = guild.roles.find((r) => r.id === roleId)?.name ?? '';
  switch (refusal) {
    case 'NOT_TEXT_CHANNEL':
      return fail('DISCORD_UNKNOWN_CHANNEL', `#${channel.name} is not a channel reminders can post in (text, announcement, voice or stage)`, { channel: channel.name });
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
  /** Why the channel cannot be chosen (DISCORD_CANNOT_POST), or null. */
  reason: string | null;
}

/**
 * Channels the user can view and post in (server picker, step 2): text, announcement, and the
 * text chat of voice and stage channels (`type` tells the picker which kind each is). Each says
 * whether the bot can post and mention there, so the picker shows unusable channels disabled with
 * the reason.
 */
export async function listPostableChannels(rest: REST, guildId: string, userId: string): Promise<PickerChannel[]> {
  const { guild, member } = await guildAndMember(rest, guildId, userId);
  const text = guild.channels.filter((c) => isPostableChannelType(c.type) && canViewAndSend(memberChannelPermissions(guild, userId, member, c)));
  const botId = await botUserId(rest);
  const bot = await botMember(rest, guildId);
  return sortChannels(text, guild.channels).map((c) => {
    const botPermissions = bot ? memberChannelPermissions(guild, botId, bot, c) : 0n;
    const botCanSend = canViewAndSend(botPermissions);
    return {
      id: c.id,
      name: c.name,
      type: c.type,
      bot_can_send: botCanSend,
      bot_can_mention: botCanSend && hasPermission(botPermissions, MENTION_EVERYONE),
      reason: botCanSend ? null : 'DISCORD_CANNOT_POST',
    };
  });
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
