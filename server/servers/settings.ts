/**
 * A Discord server's rules, as its managers read and save them (docs/servers.md "Settings"). The
 * rules are applied to reminders by rules.ts.
 */
import type { FormerMembers, RoleMentions, ServerSettings, WhoCanCreate } from '../db/database.ts';
import { requireTimeZone } from '../accounts/validation.ts';
import { AppError } from '../errors.ts';
import { countServerRemindersOfAccount, saveServerSettings } from '../repositories/servers.ts';
import { manageServer, type ServerDeps, type ServerRole, viewServer } from './membership.ts';
import { creationRefusal } from './rules.ts';
import { allowedChannelsOf } from './settings-values.ts';
import { recordServerChange } from './audit.ts';

export interface ServerSettingsView {
  manager_role_id: string | null;
  default_timezone: string | null;
  who_can_create: WhoCanCreate;
  creator_role_id: string | null;
  role_mentions: RoleMentions;
  everyone_mention: boolean;
  allowed_channel_ids: string[] | null;
  max_reminders: number | null;
  former_members: FormerMembers;
  allow_remind_me_too: boolean;
}

export const MAX_SERVER_REMINDERS_SETTING = 10_000;
export const MAX_ALLOWED_CHANNELS = 100;

export function presentSettings(s: ServerSettings): ServerSettingsView {
  return {
    manager_role_id: s.manager_role_id,
    default_timezone: s.default_timezone,
    who_can_create: s.who_can_create,
    creator_role_id: s.creator_role_id,
    role_mentions: s.role_mentions,
    everyone_mention: s.everyone_mention === 1,
    allowed_channel_ids: allowedChannelsOf(s),
    max_reminders: s.max_reminders,
    former_members: s.former_members,
    allow_remind_me_too: s.allow_remind_me_too === 1,
  };
}

export async function getServerSettings(deps: ServerDeps, accountId: string, guildId: string): Promise<ServerSettingsView> {
  const viewer = await manageServer(deps, accountId, guildId);
  return presentSettings(viewer.settings);
}

/**
 * The rules as any member of the server may read them, for the account asking: what they may do
 * when they make a reminder there (the reminder form shows it before a 403 would). The managers'
 * own fields (`manager_role_id`, `former_members`) are not in it. Managers are held to none of the
 * rules but "Remind me too" (`bound: false`, every `may_*` true).
 */
export interface ServerRulesView {
  role: ServerRole;
  bound: boolean;
  who_can_create: WhoCanCreate;
  creator_role: { id: string; name: string } | null;
  may_create: boolean;
  role_mentions: RoleMentions;
  may_mention_roles: boolean;
  everyone_mention: boolean;
  may_mention_everyone: boolean;
  allowed_channels: Array<{ id: string; name: string }> | null;
  max_reminders: number | null;
  my_reminder_count: number;
  default_timezone: string | null;
  allow_remind_me_too: boolean;
}

export async function getServerRules(deps: ServerDeps, accountId: string, guildId: string): Promise<ServerRulesView> {
  const viewer = await viewServer(deps, accountId, guildId);
  const { settings, guild } = viewer;
  const bound = viewer.role !== 'manager';
  const creatorRole = settings.creator_role_id ? { id: settings.creator_role_id, name: guild.roles.find((r) => r.id === settings.creator_role_id)?.name ?? settings.creator_role_id } : null;
  const allowed = allowedChannelsOf(settings);
  return {
    role: viewer.role,
    bound,
    who_can_create: settings.who_can_create,
    creator_role: settings.who_can_create === 'role' ? creatorRole : null,
    may_create: creationRefusal(viewer) === null,
    role_mentions: settings.role_mentions,
    may_mention_roles: !bound || settings.role_mentions === 'everyone',
    everyone_mention: settings.everyone_mention === 1,
    may_mention_everyone: !bound || settings.everyone_mention === 1,
    allowed_channels: allowed === null ? null : allowed.map((id) => ({ id, name: guild.channels.find((c) => c.id === id)?.name ?? id })),
    max_reminders: settings.max_reminders,
    my_reminder_count: await countServerRemindersOfAccount(deps.db, guildId, accountId),
    default_timezone: settings.default_timezone,
    allow_remind_me_too: settings.allow_remind_me_too === 1,
  };
}

/**
 * Replaces the server's settings. Roles and channels must exist in the server (as the bot sees it
 * now); a "role" creation rule needs its role.
 */
export async function putServerSettings(deps: ServerDeps, accountId: string, guildId: string, input: Omit<ServerSettingsView, 'allow_remind_me_too'> & { allow_remind_me_too?: boolean | undefined }): Promise<ServerSettingsView> {
  const viewer = await manageServer(deps, accountId, guildId);
  const { guild } = viewer;
  const role = (id: string | null, field: string) => {
    if (id === null) return null;
    if (id === guild.id || !guild.roles.some((r) => r.id === id)) throw new AppError('VALIDATION_FAILED', `${field} is not a role of ${guild.name}`, 400, { field });
    return id;
  };
  const managerRole = role(input.manager_role_id, 'manager_role_id');
  const creatorRole = role(input.creator_role_id, 'creator_role_id');
  if (input.who_can_create === 'role' && !creatorRole) throw new AppError('VALIDATION_FAILED', 'who_can_create "role" needs creator_role_id', 400, { field: 'creator_role_id' });
  let channels: string[] | null = null;
  if (input.allowed_channel_ids !== null) {
    channels = [...new Set(input.allowed_channel_ids)];
    if (channels.length > MAX_ALLOWED_CHANNELS) throw new AppError('VALIDATION_FAILED', `allowed_channel_ids holds at most ${MAX_ALLOWED_CHANNELS} channels`, 400, { field: 'allowed_channel_ids' });
    const unknown = channels.find((id) => !guild.channels.some((c) => c.id === id));
    if (unknown) throw new AppError('VALIDATION_FAILED', `allowed_channel_ids: ${unknown} is not a channel of ${guild.name}`, 400, { field: 'allowed_channel_ids' });
  }
  const zone = input.default_timezone === null || input.default_timezone === '' ? null : requireTimeZone(input.default_timezone);
  const row: ServerSettings = {
    guild_id: guildId,
    manager_role_id: managerRole,
    default_timezone: zone,
    who_can_create: input.who_can_create,
    creator_role_id: creatorRole,
    role_mentions: input.role_mentions,
    everyone_mention: input.everyone_mention ? 1 : 0,
    allowed_channel_ids: channels === null ? null : JSON.stringify(channels),
    max_reminders: input.max_reminders,
    former_members: input.former_members,
    // Optional in a save: a client that does not know the setting leaves it as it is.
    allow_remind_me_too: input.allow_remind_me_too === undefined ? viewer.settings.allow_remind_me_too : input.allow_remind_me_too ? 1 : 0,
    updated_at: new Date().toISOString(),
  };
  const before = presentSettings(viewer.settings);
  const after = presentSettings(row);
  const changed = (Object.keys(after) as Array<keyof ServerSettingsView>).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  // One transaction: the settings and their audit entry are seen together or not at all.
  await deps.db.transaction().execute(async (trx) => {
    await saveServerSettings(trx, row);
    if (changed.length > 0) {
      await recordServerChange(trx, { guildIds: [guildId], actorAccountId: accountId, action: 'settings', reminderId: null, detail: { kind: 'settings', params: { fields: changed.join(',') } } });
    }
  });
  return after;
}
