import type { DestinationInput } from '@/lib/api/reminders';

/** Per reminder: at most 1 DM, 5 channel destinations, 5 webhooks and 5 email addresses (docs/dashboard.md "Destinations"). */
export const DESTINATION_CAPS = { discord_dm: 1, discord_channel: 5, webhook: 5, email: 5, ntfy: 5, gotify: 5, pushover: 5, matrix: 5 } as const satisfies Record<DestinationInput['type'], number>;

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

/** Text channels only (Discord type 0). */
export const TEXT_CHANNEL = 0;

/**
 * Roles one may mention, without bot-managed roles. @everyone (its id is the guild's) comes first
 * when the server offers it (the creator and the bot may mention everyone and the server's rules
 * allow it); a role merely named "@everyone" is not it.
 */
export function mentionableRoles<R extends { id: string; name: string; managed: boolean }>(roles: readonly R[], guildId: string): R[] {
  const usable = roles.filter((r) => !r.managed && (r.id === guildId || r.name !== '@everyone'));
  return [...usable.filter((r) => r.id === guildId), ...usable.filter((r) => r.id !== guildId)];
}
