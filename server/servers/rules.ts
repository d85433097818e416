/**
 * A Discord server's rules applied to a reminder that posts in one of its channels
 * (docs/servers.md "Rules"). Called by the reminders service's one validation path, so a create or
 * an edit from the API, the dashboard, `/remind` or `/reminder edit` meets the same rules. The
 * server's managers are held to none of them but Discord's own permissions.
 */
import type { DestinationInput } from '../destinations/validate.ts';
import { isEveryoneRole } from '../discord/channel-rule.ts';
import { listMentionableRoles } from '../discord/access.ts';
import { AppError } from '../errors.ts';
import { findIdentity } from '../repositories/accounts.ts';
import { countServerRemindersOfAccount, findServerSettings } from '../repositories/servers.ts';
import { type ServerDeps, type ServerViewer, viewServerAs, withDiscord } from './membership.ts';
import { allowedChannelsOf } from './settings-values.ts';

interface ChannelTarget {
  guildId: string;
  channelId: string;
  mentionRoleId: string | null;
  remindMeToo: boolean;
}

function channelTargets(destinations: readonly DestinationInput[]): ChannelTarget[] {
  return destinations
    .filter((d) => d.type === 'discord_channel' && typeof d.metadata.guild_id === 'string')
    .map((d) => ({
      guildId: d.metadata.guild_id as string,
      channelId: String(d.metadata.channel_id),
      mentionRoleId: typeof d.metadata.mention_role_id === 'string' ? d.metadata.mention_role_id : null,
      remindMeToo: d.metadata.remind_me_too === true,
    }));
}

/**
 * Why the server's creation rule (who_can_create) refuses this account a reminder there, or null
 * when it allows one. The one definition: the save refuses with it (enforceServerRules), and the
 * rules the reminder form reads say it as may_create (getServerRules). Managers are held to none.
 */
export function creationRefusal(viewer: Pick<ServerViewer, 'role' | 'settings' | 'guild' | 'member'>): AppError | null {
  if (viewer.role === 'manager') return null;
  const { settings, guild } = viewer;
  if (settings.who_can_create === 'managers') {
    return new AppError('SERVER_RULE_WHO_CAN_CREATE', `In ${guild.name}, only the server's managers can make reminders`, 403, { rule: 'who_can_create', kind: 'creatorsManagers', params: { guild: guild.name } });
  }
  if (settings.who_can_create === 'role' && !(settings.creator_role_id && viewer.member.roles.includes(settings.creator_role_id))) {
    const role = guild.roles.find((r) => r.id === settings.creator_role_id)?.name ?? '';
    return new AppError('SERVER_RULE_WHO_CAN_CREATE', `In ${guild.name}, only members with the role @${role} can make reminders`, 403, {
      rule: 'who_can_create',
      kind: 'creatorsRole',
      params: { guild: guild.name, role },
    });
  }
  return null;
}

/**
 * Refuses (403, a code naming the rule) a reminder whose channel destinations break the rules of
 * their server. `reminderId` is the reminder being edited (it does not count against its own limit).
 * Runs after the destinations' preflight, which has already checked Discord's permissions.
 */
export async function enforceServerRules(deps: ServerDeps, accountId: string, destinations: readonly DestinationInput[], reminderId: string | null): Promise<void> {
  const discord = deps.discord;
  if (!discord) return;
  const targets = channelTargets(destinations);
  if (targets.length === 0) return;
  const identity = await findIdentity(deps.db, accountId, 'discord');
  if (!identity) return; // the preflight has refused it already
  for (const guildId of new Set(targets.map((t) => t.guildId))) {
    // A server whose managers never saved rules has none: no Discord lookup.
    const saved = await findServerSettings(deps.db, guildId);
    if (!saved) continue;
    // "Remind me too" is the server's feature, on or off for everyone, managers included.
    if (saved.allow_remind_me_too !== 1 && targets.some((t) => t.guildId === guildId && t.remindMeToo)) {
      throw new AppError('SERVER_RULE_REMIND_ME_TOO', `This server does not allow "Remind me too" buttons`, 403, { rule: 'allow_remind_me_too', kind: 'remindMeToo', params: {} });
    }
    const viewer = await viewServerAs(deps, discord, accountId, identity.external_id, identity.username, guildId);
    if (viewer.role === 'manager') continue;
    const refusal = creationRefusal(viewer);
    if (refusal) throw refusal;
    const { settings, guild } = viewer;
    const allowed = allowedChannelsOf(settings);
    for (const target of targets.filter((t) => t.guildId === guildId)) {
      if (allowed && !allowed.includes(target.channelId)) {
        const channel = guild.channels.find((c) => c.id === target.channelId)?.name ?? target.channelId;
        throw new AppError('SERVER_RULE_CHANNEL', `${guild.name} does not allow reminders in #${channel}`, 403, { rule: 'allowed_channel_ids', kind: 'channel', params: { guild: guild.name, channel } });
      }
      // @everyone (the role whose id is the guild's) has its own setting; role_mentions is about roles.
      if (isEveryoneRole(guildId, target.mentionRoleId)) {
        if (!settings.everyone_mention) {
          throw new AppError('SERVER_RULE_EVERYONE_MENTION', `In ${guild.name}, only the server's managers can mention @everyone`, 403, {
            rule: 'everyone_mention',
            kind: 'everyoneMention',
            params: { guild: guild.name },
          });
        }
      } else if (target.mentionRoleId && settings.role_mentions !== 'everyone') {
        const rule = settings.role_mentions === 'nobody' ? `${guild.name} does not allow reminders to mention roles` : `In ${guild.name}, only the server's managers can mention roles`;
        throw new AppError('SERVER_RULE_ROLE_MENTIONS', rule, 403, {
          rule: 'role_mentions',
          kind: settings.role_mentions === 'nobody' ? 'roleMentionsNobody' : 'roleMentionsManagers',
          params: { guild: guild.name },
        });
      }
    }
    if (settings.max_reminders !== null) {
      const count = await countServerRemindersOfAccount(deps.db, guildId, accountId, reminderId ?? undefined);
      if (count >= settings.max_reminders) {
        throw new AppError('SERVER_RULE_MAX_REMINDERS', `${guild.name} allows at most ${settings.max_reminders} reminders per member`, 403, {
          rule: 'max_reminders',
          kind: 'maxReminders',
          params: { guild: guild.name, max: String(settings.max_reminders) },
        });
      }
    }
  }
}

/**
 * Whether the server's rules let this account have a reminder mention @everyone there (the role
 * picker offers it only then; Discord's Mention Everyone permission is checked by the picker
 * itself). Managers may; a member may unless the server's settings say `everyone_mention: false`.
 * A server whose managers never saved settings costs no Discord lookup.
 */
export async function everyoneMentionAllowedByRules(deps: ServerDeps, accountId: string, guildId: string): Promise<boolean> {
  const discord = deps.discord;
  if (!discord) return false;
  const saved = await findServerSettings(deps.db, guildId);
  if (!saved || saved.everyone_mention) return true;
  const identity = await findIdentity(deps.db, accountId, 'discord');
  if (!identity) return false;
  const viewer = await viewServerAs(deps, discord, accountId, identity.external_id, identity.username, guildId);
  return viewer.role === 'manager';
}

/** The role picker's list (GET roles route): Discord's mentionable roles, and @everyone when the server's rules allow it. */
export async function pickerRoles(deps: ServerDeps, accountId: string, discordUserId: string, guildId: string) {
  const discord = deps.discord;
  if (!discord) return [];
  return withDiscord(deps, () => listMentionableRoles(discord.rest, guildId, discordUserId, () => everyoneMentionAllowedByRules(deps, accountId, guildId)));
}
