import type { DestinationInput } from '@/lib/api/reminders';

/** Per reminder: at most 1 DM, 5 channel destinations, 5 webhooks and 5 email addresses (docs/dashboard.md "Destinations"). */
export const DESTINATION_CAPS = { discord_dm: 1, discord_channel: 5, webhook: 5, email: 5, ntfy: 5, gotify: 5, pushover: 5, matrix: 5, telegram: 5, web_push: 5 } as const satisfies Record<DestinationInput['type'], number>;

/** A destination being edited: what is sent to the server plus a display label known only here. */
export type EditableDestination = DestinationInput & { label?: string };

export function countByType(list: readonly DestinationInput[], type: DestinationInput['type']): number {
  return list.filter((d) => d.type === type).length;
}

export function atCap(list: readonly DestinationInput[], type: DestinationInput['type']): boolean {
  return countByType(list, type) >= DESTINATION_CAPS[type];
}

/** What the API accepts: the local label is dropped. */
export function toDestinationInputs(list: readonly EditableDestination[]): DestinationInput[] {
  return list.map(({ id, type, metadata }) => (id ? { id, type, metadata } : { type, metadata }));
}

/** Re-exported: the secret dialog (shared with the import) masks URLs the same way. */
export { maskWebhookUrl } from '@/lib/webhook-url';

/** Colour of a Discord role: `#rrggbb`, or null for 0 ("no colour", shown grey). */
export function roleColor(color: number): string | null {
  if (!color) return null;
  return `#${(color & 0xffffff).toString(16).padStart(6, '0')}`;
}

export function guildIconUrl(guild: { id: string; icon: string | null }): string | null {
  return guild.icon ? `https://cdn.discordapp.com/icons/${guild.id}/${guild.icon}.png` : null;
}

/** "My Server" -> "MS", "chime" -> "C". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

/** Discord channel types a reminder can post into (API docs, "Channel Object"). */
export const TEXT_CHANNEL = 0;
export const VOICE_CHANNEL = 2;
export const ANNOUNCEMENT_CHANNEL = 5;
export const ANNOUNCEMENT_THREAD = 10;
export const PUBLIC_THREAD = 11;
export const PRIVATE_THREAD = 12;
export const STAGE_CHANNEL = 13;
export const FORUM_CHANNEL = 15;
export const MEDIA_CHANNEL = 16;
export const POSTABLE_CHANNEL_TYPES: readonly number[] = [
  TEXT_CHANNEL,
  VOICE_CHANNEL,
  ANNOUNCEMENT_CHANNEL,
  STAGE_CHANNEL,
  ANNOUNCEMENT_THREAD,
  PUBLIC_THREAD,
  PRIVATE_THREAD,
  FORUM_CHANNEL,
  MEDIA_CHANNEL,
];

export type ChannelKind = 'text' | 'announcement' | 'voice' | 'stage' | 'thread' | 'privateThread' | 'forum' | 'media';

/** The kind of a channel type (unknown and missing types read as text). */
export function channelKind(type: number | undefined): ChannelKind {
  switch (type) {
    case ANNOUNCEMENT_CHANNEL:
      return 'announcement';
    case VOICE_CHANNEL:
      return 'voice';
    case STAGE_CHANNEL:
      return 'stage';
    case ANNOUNCEMENT_THREAD:
    case PUBLIC_THREAD:
      return 'thread';
    case PRIVATE_THREAD:
      return 'privateThread';
    case FORUM_CHANNEL:
      return 'forum';
    case MEDIA_CHANNEL:
      return 'media';
    default:
      return 'text';
  }
}

/** Channels whose threads the picker can list, archived ones on demand: text, announcement, forum, media. */
export const hasThreads = (type: number | undefined): boolean => type === TEXT_CHANNEL || type === ANNOUNCEMENT_CHANNEL || type === FORUM_CHANNEL || type === MEDIA_CHANNEL;

/**
 * The picker's list with a channel's archived threads added after its active ones (those already
 * listed are not repeated).
 */
export function withArchivedThreads<C extends { id: string; parent_id?: string }>(channels: readonly C[], parentId: string, archived: readonly C[]): C[] {
  const at = channels.findIndex((c) => c.id === parentId);
  const known = new Set(channels.map((c) => c.id));
  const added = archived.filter((c) => !known.has(c.id));
  if (at < 0) return [...channels, ...added];
  let end = at + 1;
  while (end < channels.length && channels[end]!.parent_id === parentId) end += 1;
  return [...channels.slice(0, end), ...added, ...channels.slice(end)];
}

/** A forum or media channel: a reminder there opens a new post each time, with optional tags. */
export const isForumKind = (type: number | undefined): boolean => type === FORUM_CHANNEL || type === MEDIA_CHANNEL;

/** Discord applies at most 5 tags to a forum post. */
export const MAX_FORUM_TAGS = 5;

/**
 * The tags chosen for a forum's new posts, after toggling one: only the forum's own, at most
 * MAX_FORUM_TAGS (a sixth is not added).
 */
export function toggleForumTag(channel: { tags?: Array<{ id: string }> }, chosen: readonly string[], tagId: string): string[] {
  if (chosen.includes(tagId)) return chosen.filter((id) => id !== tagId);
  if (!channel.tags?.some((t) => t.id === tagId) || chosen.length >= MAX_FORUM_TAGS) return [...chosen];
  return [...chosen, tagId];
}

/** Whether the picker may save this channel yet: a forum that requires a tag needs one chosen. */
export function channelReady(channel: { type: number; require_tag?: boolean } | null, tags: readonly string[]): boolean {
  if (!channel) return false;
  return !(isForumKind(channel.type) && channel.require_tag && tags.length === 0);
}

/** The metadata the picker saves for a channel: publishing only in an announcement channel, tags only in a forum. */
export function pickerChannelMetadata(
  guildId: string,
  channel: { id: string; type: number },
  options: { roleId?: string | null; publish?: boolean; tags?: readonly string[]; remindMeToo?: boolean } = {},
): Record<string, unknown> {
  const tags = isForumKind(channel.type) ? (options.tags ?? []) : [];
  return {
    guild_id: guildId,
    channel_id: channel.id,
    ...(options.roleId ? { mention_role_id: options.roleId } : {}),
    ...(options.publish && channel.type === ANNOUNCEMENT_CHANNEL ? { publish: true } : {}),
    ...(tags.length ? { forum_tag_ids: [...tags] } : {}),
    ...(options.remindMeToo ? { remind_me_too: true } : {}),
    channel_type: channel.type,
  };
}

/** Each kind's words (locales/<lang>/channels.json). */
export const CHANNEL_KIND_KEYS: Record<ChannelKind, string> = {
  text: 'channels:kind.text',
  announcement: 'channels:kind.announcement',
  voice: 'channels:kind.voice',
  stage: 'channels:kind.stage',
  thread: 'channels:kind.thread',
  privateThread: 'channels:kind.privateThread',
  forum: 'channels:kind.forum',
  media: 'channels:kind.media',
};

/**
 * Roles one may mention, without bot-managed roles. @everyone (its id is the guild's) comes first
 * when the server offers it (the creator and the bot may mention everyone and the server's rules
 * allow it); a role merely named "@everyone" is not it.
 */
export function mentionableRoles<R extends { id: string; name: string; managed: boolean }>(roles: readonly R[], guildId: string): R[] {
  const usable = roles.filter((r) => !r.managed && (r.id === guildId || r.name !== '@everyone'));
  return [...usable.filter((r) => r.id === guildId), ...usable.filter((r) => r.id !== guildId)];
}
