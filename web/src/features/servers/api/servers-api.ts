import type { Static } from '@sinclair/typebox';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { api } from '@/lib/api-client';
import type { Reminder } from '@/lib/api/reminders';
// Type-only: erased by the compiler, so nothing of the server reaches the bundle (web/src/lib/api/types.ts).
import type { AuditPage, ServerOut, ServerReminderOut, ServerReminderPage, ServerSettingsBody } from '../../../../../server/routes/servers/schemas.ts';

/** A Discord server of the account (docs/servers.md). */
export type Server = Static<typeof ServerOut>;
export type ServerReminder = Static<typeof ServerReminderOut>;
export type ServerSettings = Static<typeof ServerSettingsBody>;
export type AuditEntry = Static<typeof AuditPage>['entries'][number];

export const SERVERS_KEY = '/api/servers';
const base = (guildId: string) => `/api/servers/${encodeURIComponent(guildId)}`;
/** A page of the server's reminders (managers): 100, then the older ones after `before`. */
export const remindersKey = (guildId: string, before?: string) => `${base(guildId)}/reminders?limit=100${before ? `&before=${encodeURIComponent(before)}` : ''}`;
/** A page of the account's own reminders posting in the server (members and managers). */
export const myRemindersKey = (guildId: string, before?: string) => `${base(guildId)}/my-reminders?limit=100${before ? `&before=${encodeURIComponent(before)}` : ''}`;
export const settingsKey = (guildId: string) => `${base(guildId)}/settings`;
export const auditKey = (guildId: string) => `${base(guildId)}/audit?limit=100`;

export const useServers = () => useSWR<Server[]>(SERVERS_KEY);
type Paged = { next_cursor: string | null };
/** Pages after the first, each asked with the previous page's next_cursor ("Load more"). */
function usePages<P extends Paged>(key: (before?: string) => string, enabled: boolean) {
  const pages = useSWRInfinite<P>((index, previous: P | null) => (!enabled ? null : index === 0 ? key() : previous?.next_cursor ? key(previous.next_cursor) : null), { revalidateFirstPage: true, revalidateAll: true });
  const last = pages.data?.[pages.data.length - 1];
  return { ...pages, hasMore: !!last?.next_cursor, loadingMore: pages.isValidating && pages.size > (pages.data?.length ?? 0), loadMore: () => void pages.setSize(pages.size + 1) };
}
export const useServerReminders = (guildId: string, enabled: boolean) => usePages<Static<typeof ServerReminderPage>>((before) => remindersKey(guildId, before), enabled);
/** Whole reminders of the account, as GET /api/reminders answers them (MyServerReminderPage). */
export const useMyServerReminders = (guildId: string, enabled: boolean) => usePages<{ reminders: Reminder[]; next_cursor: string | null }>((before) => myRemindersKey(guildId, before), enabled);
export const useServerSettings = (guildId: string, enabled: boolean) => useSWR<ServerSettings>(enabled ? settingsKey(guildId) : null);
export const useServerAudit = (guildId: string, enabled: boolean) => useSWR<Static<typeof AuditPage>>(enabled ? auditKey(guildId) : null);

export type ServerAction = 'pause' | 'resume' | 'delete' | 'take-over';

export function actOnServerReminder(guildId: string, id: string, action: ServerAction): Promise<unknown> {
  const path = `${base(guildId)}/reminders/${encodeURIComponent(id)}`;
  return action === 'delete' ? api.delete(path) : api.post(`${path}/${action}`);
}

export const saveServerSettings = (guildId: string, settings: ServerSettings) => api.put<ServerSettings>(settingsKey(guildId), settings);

export interface GuildRole {
  id: string;
  name: string;
}
export interface GuildChannel {
  id: string;
  name: string;
}
/** The roles and channels the settings form offers (the Discord picker's lists). */
export const useGuildRoles = (guildId: string, enabled: boolean) =>
  useSWR<GuildRole[]>(enabled ? ['roles', guildId] : null, () => api.post<GuildRole[]>('/api/discord/guilds/roles', { guild_id: guildId }));
export const useGuildChannels = (guildId: string, enabled: boolean) =>
  useSWR<GuildChannel[]>(enabled ? ['channels', guildId] : null, () => api.post<GuildChannel[]>('/api/discord/guilds/channels', { guild_id: guildId }));
