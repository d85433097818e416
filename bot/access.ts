/**
 * Who may post where, at /remind time. The interaction already carries everything Discord computed
 * for this channel (the caller's permissions with overwrites, the bot's `app_permissions`, the
 * role object), so the facts cost no API call inside the 3-second reply window; the rule that
 * decides is the server's (server/discord/channel-rule.ts), the one the API applies when a
 * destination is saved and the channel sender before each delivery. Its refusal codes become the
 * bot's own words here.
 */
import { ApplicationIntegrationType, type ChatInputCommandInteraction } from 'discord.js';
import { type ChannelRefusal, channelRefusal } from '../server/discord/channel-rule.ts';
import type { Vars } from '../server/discord/i18n.ts';

export type AccessCheck = { ok: true } | { ok: false; key: string; vars: Vars };

export interface RoleLike {
  id: string;
  mentionable: boolean;
}

/** The bot.json key of each refusal, and whether it names the channel or the role. */
const REFUSAL_KEYS: Record<ChannelRefusal, { key: string; names?: 'channel' | 'role' }> = {
  NOT_TEXT_CHANNEL: { key: 'remind.notTextChannel' },
  NOT_MEMBER: { key: 'remind.userCannotSend', names: 'channel' },
  USER_CANNOT_VIEW: { key: 'remind.userCannotSend', names: 'channel' },
  USER_CANNOT_SEND: { key: 'remind.userCannotSend', names: 'channel' },
  BOT_NOT_IN_GUILD: { key: 'remind.botNotInGuild' },
  BOT_CANNOT_SEND: { key: 'remind.botCannotSend', names: 'channel' },
  // A role picked in the command always exists: only @everyone (the guild's own id) is refused.
  UNKNOWN_ROLE: { key: 'remind.everyoneRole' },
  USER_CANNOT_MENTION_ROLE: { key: 'remind.userCannotMentionRole', names: 'role' },
  BOT_CANNOT_MENTION_ROLE: { key: 'remind.botCannotMentionRole', names: 'role' },
};

const fail = (key: string, vars: Vars = {}): AccessCheck => ({ ok: false, key, vars });

export async function checkInteractionChannelAccess(interaction: ChatInputCommandInteraction, role: RoleLike | null): Promise<AccessCheck> {
  const guildId = interaction.guildId;
  const channelId = interaction.channelId;
  if (!guildId) return fail('remind.channelOnlyInGuild');
  // A user-installed app can be used in servers the bot is not in; it cannot post there.
  const owners = interaction.authorizingIntegrationOwners as Partial<Record<ApplicationIntegrationType, string>> | null;
  const botInGuild = interaction.client.guilds.cache.has(guildId) || owners?.[ApplicationIntegrationType.GuildInstall] === guildId;
  if (!botInGuild) return fail('remind.botNotInGuild');

  const refusal = await channelRefusal({
    channelType: interaction.channel?.type ?? null,
    userPermissions: interaction.memberPermissions?.bitfield ?? null,
    botPermissions: interaction.appPermissions.bitfield,
    role: role ? (role.id === guildId ? 'missing' : { mentionable: role.mentionable }) : null,
  });
  if (!refusal) return { ok: true };
  const { key, names } = REFUSAL_KEYS[refusal];
  return fail(key, names === 'channel' ? { channelId } : names === 'role' && role ? { roleId: role.id } : {});
}
