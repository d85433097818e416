import type { ServerSettings } from '../db/database.ts';

/** What a server without saved settings has: anyone may create, mention roles and @everyone (Discord's own permissions still apply), in any channel, without limit. */
export function defaultSettings(guildId: string): ServerSettings {
  return {
    guild_id: guildId,
    manager_role_id: null,
    default_timezone: null,
    who_can_create: 'everyone',
    creator_role_id: null,
    role_mentions: 'everyone',
    everyone_mention: 1,
    allowed_channel_ids: null,
    max_reminders: null,
    former_members: 'keep',
    allow_remind_me_too: 1,
    updated_at: new Date(0).toISOString(),
  };
}

export function settingsOrDefaults(guildId: string, row: ServerSettings | undefined): ServerSettings {
  return row ?? defaultSettings(guildId);
}

export function allowedChannelsOf(settings: Pick<ServerSettings, 'allowed_channel_ids'>): string[] | null {
  if (settings.allowed_channel_ids === null) return null;
  try {
    const ids = JSON.parse(settings.allowed_channel_ids) as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : null;
  } catch {
    return null;
  }
}
