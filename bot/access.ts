/**
 * Who may post where. At /remind time the interaction already carries everything Discord computed
 * for this channel (the caller's permissions with overwrites, the bot's `app_permissions`, the
 * role object), so the check is exact and costs no API call inside the 3-second reply window.
 * At send time the server-side check of server/discord/access.ts runs again (see senders.ts).
 */
import { ApplicationIntegrationType, ChannelType, PermissionFlagsBits, type ChatInputCommandInteraction, type PermissionsBitField } from 'discord.js';
import type { Vars } from '../server/discord/i18n.ts';

export type AccessCheck = { ok: true } | { ok: false; key: string; vars: Vars };

export interface RoleLike {
  id: string;
  mentionable: boolean;
}

const fail = (key: string, vars: Vars = {}): AccessCheck => ({ ok: false, key, vars });

export function checkInteractionChannelAccess(interaction: ChatInputCommandInteraction, role: RoleLike | null): AccessCheck {
  const guildId = interaction.guildId;
  const channelId = interaction.channelId;
  if (!guildId) return fail('remind.channelOnlyInGuild');
  // A user-installed app can be used in servers the bot is not in; it cannot post there.
  const owners = interaction.authorizingIntegrationOwners as Partial<Record<ApplicationIntegrationType, string>> | null;
  const botInGuild = interaction.client.guilds.cache.has(guildId) || owners?.[ApplicationIntegrationType.GuildInstall] === guildId;
  if (!botInGuild) return fail('remind.botNotInGuild');
  if (role && role.id === guildId) return fail('remind.everyoneRole');

  // Reminders post to text channels only (the same rule as the delivery-time check).
  if (interaction.channel && interaction.channel.type !== ChannelType.GuildText) return fail('remind.notTextChannel');
  const needed = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages];
  const user: Readonly<PermissionsBitField> | null = interaction.memberPermissions;
  const bot = interaction.appPermissions;
  if (!user || !user.has(needed)) return fail('remind.userCannotSend', { channelId });
  if (!bot.has(needed)) return fail('remind.botCannotSend', { channelId });
  if (role && !role.mentionable) {
    if (!user.has(PermissionFlagsBits.MentionEveryone)) return fail('remind.userCannotMentionRole', { roleId: role.id });
    if (!bot.has(PermissionFlagsBits.MentionEveryone)) return fail('remind.botCannotMentionRole', { roleId: role.id });
  }
  return { ok: true };
}
