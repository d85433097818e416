import type { Static } from '@sinclair/typebox';
import useSWR from 'swr';
import { api } from '@/lib/api-client';
// Type-only: erased by the compiler, so nothing of the server reaches the bundle (web/src/lib/api/types.ts).
import type { AuditPage, ServerOut, ServerReminderOut, ServerReminderPage, ServerSettingsBody } from '../../../../../server/routes/servers/schemas.ts';

/** A Discord server of the account (docs/servers.md). */
export type Server = Static<typeof ServerOut>;
export type ServerReminder = Static<typeof ServerReminderOut>;
export type ServerSettings = Static<typeof ServerSettingsBody>;
export type AuditEntry = Static<typeof AuditPage>['entries'][number];

export const SERVERS_KEY = '/api/servers';
const base = (guildId: string) => `/api/servers/${encodeURIComponent(guildId)}`;
export const remindersKey = (guildId: string) => `${base(guildId)}/reminders?limit=100`;
export const settingsKey = (guildId: string) => `${base(guildId)}/settings`;
export const auditKey = (guildId: string) => `${base(guildId)}/audit?limit=100`;

export const useServers = () => useSWR<Server[]>(SERVERS_KEY);
export const useServerReminders = (guildId: string, enabled: boolean) => useSWR<Static<typeof ServerReminderPage>>(enabled ? remindersKey(guildId) : null);
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
