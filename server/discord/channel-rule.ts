/**
 * Who may post where: the one rule that the bot (at /remind, from what the interaction carries),
 * the API (when a channel destination is saved) and the channel sender (again before each
 * delivery) apply. Each caller gathers the facts its own way: the interaction already holds what
 * Discord computed for the channel; the server reads a guild snapshot over REST
 * (server/discord/access.ts). The answer is a refusal code; each caller words it for its reader.
 */
import { ADMINISTRATOR, ALL_PERMISSIONS, hasPermission, MANAGE_THREADS, MENTION_EVERYONE, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, VIEW_CHANNEL } from './permissions.ts';

/** Discord channel types (API docs, "Channel Object") reminders post to. */
export const GUILD_TEXT = 0;
/** The text chat of a voice channel. */
export const GUILD_VOICE = 2;
/** Followable by other servers; a message posted there may be published (crossposted). */
export const GUILD_ANNOUNCEMENT = 5;
/** The text chat of a stage channel. */
export const GUILD_STAGE_VOICE = 13;
/** A thread of an announcement channel. */
export const ANNOUNCEMENT_THREAD = 10;
/** A thread anyone who sees its parent may read (also every post of a forum or media channel). */
export const PUBLIC_THREAD = 11;
/** A thread only its members (and those with Manage Threads) see. */
export const PRIVATE_THREAD = 12;
/** A channel of posts (each a thread); a reminder there opens a new post per occurrence. */
export const GUILD_FORUM = 15;
/** A forum whose posts lead with media; the same rules and routes as a forum. */
export const GUILD_MEDIA = 16;

/**
 * The kinds a channel reminder may post into. Text, announcement, voice/stage chats and forums
 * (where Send Messages means "create posts") need View Channel and Send Messages (the text chat
 * of a voice or stage channel does not need Connect); threads need View Channel (of the parent)
 * and Send Messages in Threads instead.
 */
const THREAD_TYPES: ReadonlySet<number> = new Set([ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD]);
const FORUM_TYPES: ReadonlySet<number> = new Set([GUILD_FORUM, GUILD_MEDIA]);
const POSTABLE_TYPES: ReadonlySet<number> = new Set([GUILD_TEXT, GUILD_VOICE, GUILD_ANNOUNCEMENT, GUILD_STAGE_VOICE, ...THREAD_TYPES, ...FORUM_TYPES]);

export const isThreadType = (type: number): boolean => THREAD_TYPES.has(type);
export const isForumType = (type: number): boolean => FORUM_TYPES.has(type);

/** Discord's own model: the @everyone role's id is the guild's id. */
export const isEveryoneRole = (guildId: string, roleId: string | null | undefined): boolean => !!roleId && roleId === guildId;

export const isPostableChannelType = (type: number): boolean => POSTABLE_TYPES.has(type);

/** A permission value, or where to get it (the server reads members only as far as the rule needs them). */
type Lazy<T> = T | (() => T | Promise<T>);

export interface ChannelFacts {
  /** The channel's Discord type; null when the caller cannot see it (the rule then trusts Discord). */
  channelType: number | null;
  /** The owner's permissions in the channel (overwrites applied); null when not a member of the guild. */
  userPermissions: Lazy<bigint | null>;
  /** The bot's permissions in the channel; null when the bot is not a member of the guild. */
  botPermissions: Lazy<bigint | null>;
  /**
   * The role to mention: null for none, 'everyone' for the @everyone role (its id is the guild's),
   * 'missing' when it does not exist.
   */
  role: { mentionable: boolean } | 'everyone' | 'missing' | null;
  /** For a thread (channelType 10, 11 or 12): its state and who is in it. */
  thread?: ThreadFacts | null;
}

export interface ThreadFacts {
  archived: boolean;
  locked: boolean;
  /** Asked for private threads only: only members (and Manage Threads) see one. */
  userIsMember: Lazy<boolean>;
  botIsMember: Lazy<boolean>;
}

export type ChannelRefusal =
  | 'NOT_TEXT_CHANNEL'
  | 'NOT_MEMBER'
  | 'USER_CANNOT_VIEW'
  | 'USER_CANNOT_SEND'
  | 'BOT_NOT_IN_GUILD'
  | 'BOT_CANNOT_SEND'
  | 'UNKNOWN_ROLE'
  | 'USER_CANNOT_MENTION_ROLE'
  | 'BOT_CANNOT_MENTION_ROLE'
  | 'USER_CANNOT_MENTION_EVERYONE'
  | 'BOT_CANNOT_MENTION_EVERYONE'
  | 'USER_CANNOT_SEND_IN_THREADS'
  | 'USER_NOT_IN_THREAD'
  | 'BOT_CANNOT_SEND_IN_THREADS'
  | 'BOT_NOT_IN_THREAD'
  | 'THREAD_LOCKED';

const value = async <T>(lazy: Lazy<T>): Promise<T> => (typeof lazy === 'function' ? await (lazy as () => T | Promise<T>)() : lazy);

/** Discord grants an administrator everything, whatever the bits say. */
const effective = (permissions: bigint): bigint => (hasPermission(permissions, ADMINISTRATOR) ? ALL_PERMISSIONS : permissions);

/**
 * Null when the owner may have the bot post in the channel (and ping the role); else the first
 * reason it may not, in this order: the channel, the owner, the bot, the role.
 */
export async function channelRefusal(facts: ChannelFacts): Promise<ChannelRefusal | null> {
  if (facts.channelType !== null && !isPostableChannelType(facts.channelType)) return 'NOT_TEXT_CHANNEL';

  const userRaw = await value(facts.userPermissions);
  if (userRaw === null) return 'NOT_MEMBER';
  const user = effective(userRaw);
  const inThread = facts.channelType !== null && isThreadType(facts.channelType);
  const isPrivate = facts.channelType === PRIVATE_THREAD;
  if (!hasPermission(user, VIEW_CHANNEL)) return 'USER_CANNOT_VIEW';
  if (inThread) {
    if (!hasPermission(user, SEND_MESSAGES_IN_THREADS)) return 'USER_CANNOT_SEND_IN_THREADS';
    if (isPrivate && facts.thread && !hasPermission(user, MANAGE_THREADS) && !(await value(facts.thread.userIsMember))) return 'USER_NOT_IN_THREAD';
  } else if (!hasPermission(user, SEND_MESSAGES)) return 'USER_CANNOT_SEND';

  const botRaw = await value(facts.botPermissions);
  if (botRaw === null) return 'BOT_NOT_IN_GUILD';
  const bot = effective(botRaw);
  if (inThread) {
    if (!hasPermission(bot, VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS)) return 'BOT_CANNOT_SEND_IN_THREADS';
    // Chime posts only in the private threads its bot was added to, whatever it could manage.
    if (isPrivate && facts.thread && !(await value(facts.thread.botIsMember))) return 'BOT_NOT_IN_THREAD';
    // An archived thread is unarchived before each post: anyone who may send there can reopen an
    // unlocked one; a locked one takes Manage Threads.
    if (facts.thread?.archived && facts.thread.locked && !hasPermission(bot, MANAGE_THREADS)) return 'THREAD_LOCKED';
  } else if (!hasPermission(bot, VIEW_CHANNEL | SEND_MESSAGES)) return 'BOT_CANNOT_SEND';

  if (facts.role === 'missing') return 'UNKNOWN_ROLE';
  // @everyone pings only with Mention Everyone, whatever the role's flags: the bot needs it to
  // ping, and the owner needs it too, or the bot would ping everyone on their behalf.
  if (facts.role === 'everyone') {
    if (!hasPermission(user, MENTION_EVERYONE)) return 'USER_CANNOT_MENTION_EVERYONE';
    if (!hasPermission(bot, MENTION_EVERYONE)) return 'BOT_CANNOT_MENTION_EVERYONE';
    return null;
  }
  // Discord only pings a role that is not mentionable when the sender (the bot) may mention
  // everyone; the owner must be allowed to as well, or the bot would ping on their behalf.
  if (facts.role && !facts.role.mentionable) {
    if (!hasPermission(user, MENTION_EVERYONE)) return 'USER_CANNOT_MENTION_ROLE';
    if (!hasPermission(bot, MENTION_EVERYONE)) return 'BOT_CANNOT_MENTION_ROLE';
  }
  return null;
}
