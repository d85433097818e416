/**
 * What the bot can read of a guild over REST (the guild, its roles and channels, a member, the
 * guilds the bot is in), with a short cache per REST client so a send or a picker step costs one
 * member lookup, not four calls. The access rules over these reads are in access.ts.
 */
import type { REST } from '@discordjs/rest';
import { isDiscordApiError, isDiscordHttpError } from './errors.ts';
import type { PermissionOverwrite } from './permissions.ts';

export interface GuildRole {
  id: string;
  name: string;
  color: number;
  position: number;
  permissions: string;
  managed: boolean;
  mentionable: boolean;
}

export interface GuildChannel {
  id: string;
  name: string;
  type: number;
  position: number;
  parent_id: string | null;
  permission_overwrites: PermissionOverwrite[];
  /** Channel flags; on a forum, REQUIRE_TAG (1 << 4) makes a tag compulsory on each new post. */
  flags?: number;
  /** A forum or media channel's tags, which its posts may carry. */
  available_tags?: ForumTag[];
}

export interface ForumTag {
  id: string;
  name: string;
  /** Only members with Manage Threads may apply it. */
  moderated: boolean;
}

/** Discord's REQUIRE_TAG channel flag: every new post of the forum must carry a tag. */
export const REQUIRE_TAG = 1 << 4;

/** A thread (or a forum's post) as the bot reads it; the guild's channel list never holds threads. */
export interface GuildThread {
  id: string;
  guild_id: string;
  name: string;
  type: number;
  parent_id: string;
  archived: boolean;
  locked: boolean;
}

export interface GuildMember {
  roles: string[];
  communication_disabled_until?: string | null;
}

export interface GuildSnapshot {
  id: string;
  name: string;
  /** The icon hash (cdn.discordapp.com/icons/<id>/<hash>.png), null without one. */
  icon?: string | null;
  ownerId: string;
  roles: GuildRole[];
  channels: GuildChannel[];
}

export const GUILD_CACHE_TTL_MS = 30_000;
/** Bot presence answers "did my invite work?": keep it fresher than the rest. */
export const BOT_GUILDS_TTL_MS = 10_000;

interface Entry<T> {
  expires: number;
  value: Promise<T>;
}

class TtlCache {
  private readonly entries = new Map<string, Entry<unknown>>();

  get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key) as Entry<T> | undefined;
    if (hit && hit.expires > now) return hit.value;
    const value = load();
    this.entries.set(key, { expires: now + ttlMs, value });
    // Failures are not cached: the next call asks Discord again.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    if (this.entries.size > 5_000) this.sweep(now);
    return value;
  }

  delete(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}

const caches = new WeakMap<REST, TtlCache>();
function cacheOf(rest: REST): TtlCache {
  let cache = caches.get(rest);
  if (!cache) {
    cache = new TtlCache();
    caches.set(rest, cache);
  }
  return cache;
}

/**
 * Forgets cached guild data (one guild, or everything): the bot calls it on GUILD_ROLE_UPDATE,
 * CHANNEL_UPDATE, GUILD_CREATE/DELETE... so changes apply before the 30 s expire.
 */
export function invalidateDiscordCache(rest: REST, guildId?: string): void {
  const cache = caches.get(rest);
  if (!cache) return;
  if (!guildId) cache.clear();
  else {
    cache.delete(`guild:${guildId}`);
    cache.delete(`channels:${guildId}`);
    cache.delete(`botmember:${guildId}`);
    cache.delete('botguilds');
    cache.delete(`member:${guildId}:`);
  }
}

// ---------------------------------------------------------------------------------------------
// REST reads

const apiCode = (err: unknown) => (isDiscordApiError(err) ? err.code : null);
const apiStatus = (err: unknown) => (isDiscordApiError(err) || isDiscordHttpError(err) ? err.status : null);

/** Unknown Guild (10004) or Missing Access (50001, 403): the bot is not there (any more). */
function isBotNotInGuild(err: unknown): boolean {
  const status = apiStatus(err);
  return apiCode(err) === 10004 || apiCode(err) === 50001 || status === 404 || status === 403;
}

/** The bot's own user id (cached an hour). */
export async function botUserId(rest: REST): Promise<string> {
  return cacheOf(rest).get('botuser', 60 * 60_000, async () => ((await rest.get('/users/@me')) as { id: string }).id);
}

/** The guild as the bot sees it, or null when the bot is not a member. Throws on other failures. */
export async function loadGuild(rest: REST, guildId: string): Promise<GuildSnapshot | null> {
  const cache = cacheOf(rest);
  try {
    const guild = await cache.get(`guild:${guildId}`, GUILD_CACHE_TTL_MS, async () => {
      const g = (await rest.get(`/guilds/${guildId}`)) as { id: string; name: string; icon?: string | null; owner_id: string; roles: GuildRole[] };
      return { id: g.id, name: g.name, icon: g.icon ?? null, ownerId: g.owner_id, roles: g.roles.map(normalizeRole) };
    });
    const channels = await cache.get(`channels:${guildId}`, GUILD_CACHE_TTL_MS, async () => {
      const list = (await rest.get(`/guilds/${guildId}/channels`)) as GuildChannel[];
      return list.map(normalizeChannel);
    });
    return { ...guild, channels };
  } catch (err) {
    if (isBotNotInGuild(err)) return null;
    throw err;
  }
}

/** A member of the guild (fresh: roles change), or null when the user is not in it. */
export async function fetchMember(rest: REST, guildId: string, userId: string): Promise<GuildMember | null> {
  try {
    const m = (await rest.get(`/guilds/${guildId}/members/${userId}`)) as GuildMember;
    return { roles: m.roles ?? [], communication_disabled_until: m.communication_disabled_until ?? null };
  } catch (err) {
    if (apiCode(err) === 10007 || apiCode(err) === 10013) return null;
    throw err;
  }
}

/** Who manages a server is asked on every request of its pages: a member's roles are kept this long. */
export const MEMBER_CACHE_TTL_MS = 10_000;

/**
 * A member of the guild as fetchMember reads it, cached briefly (MEMBER_CACHE_TTL_MS): the
 * servers pages ask for the viewer's and each creator's membership on every request. A role
 * change applies within that time, or at once when the bot hears of it (invalidateDiscordCache).
 */
export async function fetchMemberBriefly(rest: REST, guildId: string, userId: string): Promise<GuildMember | null> {
  return cacheOf(rest).get(`member:${guildId}:${userId}`, MEMBER_CACHE_TTL_MS, () => fetchMember(rest, guildId, userId));
}

/** The bot's own member in the guild (cached 30 s), or null when it is not in it. */
export async function botMember(rest: REST, guildId: string): Promise<GuildMember | null> {
  const id = await botUserId(rest);
  return cacheOf(rest).get(`botmember:${guildId}`, GUILD_CACHE_TTL_MS, () => fetchMember(rest, guildId, id));
}

/** Ids of the guilds the bot is in (cached 10 s). */
export async function botGuildIds(rest: REST): Promise<Set<string>> {
  return cacheOf(rest).get('botguilds', BOT_GUILDS_TTL_MS, async () => {
    const ids = new Set<string>();
    let after: string | null = null;
    for (let page = 0; page < 100; page++) {
      const query = new URLSearchParams({ limit: '200', ...(after ? { after } : {}) });
      const list = (await rest.get('/users/@me/guilds', { query })) as Array<{ id: string }>;
      for (const g of list) ids.add(g.id);
      if (list.length < 200) break;
      after = list[list.length - 1]!.id;
    }
    return ids;
  });
}

function normalizeRole(r: GuildRole): GuildRole {
  return {
    id: r.id,
    name: r.name,
    color: r.color ?? 0,
    position: r.position ?? 0,
    permissions: String(r.permissions ?? '0'),
    managed: !!r.managed,
    mentionable: !!r.mentionable,
  };
}

function normalizeChannel(c: GuildChannel): GuildChannel {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    position: c.position ?? 0,
    parent_id: c.parent_id ?? null,
    permission_overwrites: c.permission_overwrites ?? [],
    ...(typeof c.flags === 'number' ? { flags: c.flags } : {}),
    ...(Array.isArray(c.available_tags) ? { available_tags: c.available_tags.map((t) => ({ id: String(t.id), name: String(t.name), moderated: !!t.moderated })) } : {}),
  };
}

interface RawThread {
  id: string;
  guild_id?: string;
  name: string;
  type: number;
  parent_id?: string | null;
  thread_metadata?: { archived?: boolean; locked?: boolean; archive_timestamp?: string };
}

function normalizeThread(t: RawThread): GuildThread {
  return {
    id: t.id,
    guild_id: t.guild_id ?? '',
    name: t.name,
    type: t.type,
    parent_id: t.parent_id ?? '',
    archived: !!t.thread_metadata?.archived,
    locked: !!t.thread_metadata?.locked,
  };
}

const THREAD_CHANNEL_TYPES = new Set([10, 11, 12]);

/**
 * A thread by id (fresh: archiving changes often), 'unknown' when Discord knows no such channel
 * or it is not a thread, 'no-access' when the bot may not see it (a private thread it is not in,
 * or a parent it cannot view). Throws on outages.
 */
export async function fetchThread(rest: REST, channelId: string): Promise<GuildThread | 'unknown' | 'no-access'> {
  try {
    const raw = (await rest.get(`/channels/${channelId}`)) as RawThread;
    return THREAD_CHANNEL_TYPES.has(raw.type) ? normalizeThread(raw) : 'unknown';
  } catch (err) {
    if (apiCode(err) === 10003 || apiStatus(err) === 404) return 'unknown';
    if (apiCode(err) === 50001 || apiStatus(err) === 403) return 'no-access';
    throw err;
  }
}

/** Whether a user was added to (or joined) a thread: Get Thread Member answers 10007 otherwise. */
export async function isThreadMember(rest: REST, threadId: string, userId: string): Promise<boolean> {
  try {
    await rest.get(`/channels/${threadId}/thread-members/${userId}`);
    return true;
  } catch (err) {
    if (apiCode(err) === 10007 || apiStatus(err) === 404) return false;
    throw err;
  }
}

/** How many threads one read of each archived list asks Discord for (one page of each per answer). */
export const ARCHIVED_PAGE_SIZE = 50;

/**
 * Where the next page of a channel's archived threads starts, in each of Discord's two lists: the
 * public ones (newest archived first; `before` is an archive timestamp) and the private ones the
 * bot was added to (by id, newest first; `before` is a thread id). `null`: from the top; a list
 * missing from the cursor is read to its end.
 */
export interface ArchivedCursor {
  public?: string | null;
  private?: string | null;
}

export interface ArchivedThreadsPage {
  threads: GuildThread[];
  /** Where the next page starts, or null when both lists were read to their end. */
  next: ArchivedCursor | null;
}

/**
 * One page of a channel's archived threads: `ARCHIVED_PAGE_SIZE` at most of each list the cursor
 * still follows (both from the top without one), the public ones first. A list the bot may not
 * read (it takes Read Message History) is empty.
 */
export async function listArchivedThreads(rest: REST, guildId: string, channelId: string, cursor: ArchivedCursor = { public: null, private: null }): Promise<ArchivedThreadsPage> {
  const page = async (path: `/${string}`, before: string | null | undefined): Promise<{ threads: RawThread[]; has_more: boolean }> => {
    if (before === undefined) return { threads: [], has_more: false };
    try {
      const query = new URLSearchParams({ limit: String(ARCHIVED_PAGE_SIZE), ...(before ? { before } : {}) });
      const answer = (await rest.get(path, { query })) as { threads: RawThread[]; has_more?: boolean };
      return { threads: answer.threads, has_more: answer.has_more === true && answer.threads.length > 0 };
    } catch (err) {
      if (apiStatus(err) === 403 || apiStatus(err) === 404) return { threads: [], has_more: false };
      throw err;
    }
  };
  const [open, joined] = await Promise.all([
    page(`/channels/${channelId}/threads/archived/public`, cursor.public),
    page(`/channels/${channelId}/users/@me/threads/archived/private`, cursor.private),
  ]);
  const lastOpen = open.threads.at(-1)?.thread_metadata?.archive_timestamp;
  const lastJoined = joined.threads.at(-1)?.id;
  const next: ArchivedCursor = {
    ...(open.has_more && lastOpen ? { public: lastOpen } : {}),
    ...(joined.has_more && lastJoined ? { private: lastJoined } : {}),
  };
  return {
    threads: [...open.threads, ...joined.threads].map((t) => normalizeThread({ guild_id: guildId, ...t })),
    next: next.public !== undefined || next.private !== undefined ? next : null,
  };
}

/**
 * The guild's active threads (List Active Guild Threads), with whether the bot is in each: the
 * answer's `members` are the bot's own thread memberships.
 */
export async function listActiveThreads(rest: REST, guildId: string): Promise<Array<GuildThread & { bot_is_member: boolean }>> {
  let answer: { threads: RawThread[]; members: Array<{ id?: string }> };
  try {
    answer = (await rest.get(`/guilds/${guildId}/threads/active`)) as typeof answer;
  } catch (err) {
    // The channels are worth listing without their threads; an outage still throws.
    if (apiStatus(err) === 403 || apiStatus(err) === 404) return [];
    throw err;
  }
  const joined = new Set(answer.members.map((m) => m.id));
  return answer.threads.map((t) => ({ ...normalizeThread({ guild_id: guildId, ...t }), bot_is_member: joined.has(t.id) }));
}
