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
export const STAGE_CHANNEL = 13;
export const POSTABLE_CHANNEL_TYPES: readonly number[] = [TEXT_CHANNEL, VOICE_CHANNEL, ANNOUNCEMENT_CHANNEL, STAGE_CHANNEL];

export type ChannelKind = 'text' | 'announcement' | 'voice' | 'stage';

/** The kind of a channel type (unknown and missing types read as text). */
export function channelKind(type: number | undefined): ChannelKind {
  return type === ANNOUNCEMENT_CHANNEL ? 'announcement' : type === VOICE_CHANNEL ? 'voice' : type === STAGE_CHANNEL ? 'stage' : 'text';
}

/** Each kind's words (locales/<lang>/channels.json). */
export const CHANNEL_KIND_KEYS: Record<ChannelKind, string> = {
  text: 'channels:kind.text',
  announcement: 'channels:kind.announcement',
  voice: 'channels:kind.voice',
  stage: 'channels:kind.stage',
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
