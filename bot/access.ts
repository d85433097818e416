/**
 * Who may post where, at /remind time. The interaction already carries everything Discord computed
 * for this channel (the caller's permissions with overwrites, the bot's `app_permissions`, the
 * role object), so the facts cost no API call inside the 3-second reply window; the rule that
 * decides is the server's (server/discord/channel-rule.ts), the one the API applies when a
 * destination is saved and the channel sender before each delivery. Its refusal codes become the
 * bot's own words here.
 */
import { ApplicationIntegrationType, type ChatInputCommandInteraction, type ModalSubmitInteraction, Routes } from 'discord.js';
import type { RawDestination } from '../server/destinations/validate.ts';
import { type ChannelRefusal, channelRefusal, isEveryoneRole, isThreadType, PRIVATE_THREAD, type ThreadFacts } from '../server/discord/channel-rule.ts';
import type { Vars } from '../server/discord/i18n.ts';

/** Where a reminder can be asked for "this channel": a slash command, or a modal submitted there. */
export type ChannelInteraction = ChatInputCommandInteraction | ModalSubmitInteraction;

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
  // A role picked in the command exists; it could only have been deleted meanwhile.
  UNKNOWN_ROLE: { key: 'remind.unknownRole' },
  USER_CANNOT_MENTION_ROLE: { key: 'remind.userCannotMentionRole', names: 'role' },
  BOT_CANNOT_MENTION_ROLE: { key: 'remind.botCannotMentionRole', names: 'role' },
  USER_CANNOT_MENTION_EVERYONE: { key: 'remind.userCannotMentionEveryone', names: 'channel' },
  BOT_CANNOT_MENTION_EVERYONE: { key: 'remind.botCannotMentionEveryone', names: 'channel' },
  USER_CANNOT_SEND_IN_THREADS: { key: 'remind.userCannotSendInThread', names: 'channel' },
  // Asking from inside a private thread makes the user a member of it, or a moderator.
  USER_NOT_IN_THREAD: { key: 'remind.userCannotSendInThread', names: 'channel' },
  BOT_CANNOT_SEND_IN_THREADS: { key: 'remind.botCannotSendInThread', names: 'channel' },
  BOT_NOT_IN_THREAD: { key: 'remind.botNotInThread', names: 'channel' },
  THREAD_LOCKED: { key: 'remind.threadLocked', names: 'channel' },
};

/**
 * A thread's facts from the interaction: its state comes with the channel; whether the bot was
 * added to a private one is one REST read (Get Thread Member answers 10007 when it is not).
 */
function threadFacts(interaction: ChannelInteraction): ThreadFacts | null {
  const channel = interaction.channel;
  if (!channel || !isThreadType(channel.type) || !('archived' in channel)) return null;
  return {
    archived: !!channel.archived,
    locked: !!channel.locked,
    userIsMember: true,
    botIsMember: async () => {
      if (channel.type !== PRIVATE_THREAD) return true;
      try {
        await interaction.client.rest.get(Routes.threadMembers(channel.id, interaction.client.user.id));
        return true;
      } catch {
        return false;
      }
    },
  };
}

const fail = (key: string, vars: Vars = {}): AccessCheck => ({ ok: false, key, vars });

export async function checkInteractionChannelAccess(interaction: ChannelInteraction, role: RoleLike | null): Promise<AccessCheck> {
  const guildId = interaction.guildId;
  const channelId = interaction.channelId ?? '';
  if (!guildId) return fail('remind.channelOnlyInGuild');
  // A user-installed app can be used in servers the bot is not in; it cannot post there.
  const owners = interaction.authorizingIntegrationOwners as Partial<Record<ApplicationIntegrationType, string>> | null;
  const botInGuild = interaction.client.guilds.cache.has(guildId) || owners?.[ApplicationIntegrationType.GuildInstall] === guildId;
  if (!botInGuild) return fail('remind.botNotInGuild');

  const refusal = await channelRefusal({
    channelType: interaction.channel?.type ?? null,
    userPermissions: interaction.memberPermissions?.bitfield ?? null,
    botPermissions: interaction.appPermissions.bitfield,
    // Discord gives @everyone as the role whose id is the guild's.
    role: role ? (isEveryoneRole(guildId, role.id) ? 'everyone' : { mentionable: role.mentionable }) : null,
    thread: threadFacts(interaction),
  });
  if (!refusal) return { ok: true };
  const { key, names } = REFUSAL_KEYS[refusal];
  return fail(key, names === 'channel' ? { channelId } : names === 'role' && role ? { roleId: role.id } : {});
}

/** The channel the interaction came from as a reminder destination (after checkInteractionChannelAccess). */
export function interactionChannelDestination(interaction: ChannelInteraction & { guildId: string }, role: { id: string; name: string } | null): RawDestination {
  return {
    type: 'discord_channel',
    metadata: {
      guild_id: interaction.guildId,
      channel_id: interaction.channelId!,
      ...(role ? { mention_role_id: role.id, mention_role_name: role.name } : {}),
      // Display names for the dashboard, as the API records them for destinations it saves.
      ...(interaction.guild ? { guild_name: interaction.guild.name } : {}),
      ...(interaction.channel && 'name' in interaction.channel && interaction.channel.name ? { channel_name: interaction.channel.name } : {}),
      // The kind (text, announcement, voice or stage chat) the dashboard labels it with.
      ...(interaction.channel ? { channel_type: interaction.channel.type } : {}),
    },
  };
}

/**
 * A channel picked in the command's `channel` option (another channel of this server) as a
 * reminder destination. Its permissions are checked when the reminder is saved (the API's REST
 * check: the interaction carries the bot's permissions for the current channel only).
 */
export function chosenChannelDestination(
  interaction: ChannelInteraction & { guildId: string },
  channel: { id: string; type: number; name?: string | null },
  role: { id: string; name: string } | null,
): RawDestination {
  return {
    type: 'discord_channel',
    metadata: {
      guild_id: interaction.guildId,
      channel_id: channel.id,
      ...(role ? { mention_role_id: role.id, mention_role_name: role.name } : {}),
      ...(interaction.guild ? { guild_name: interaction.guild.name } : {}),
      ...(channel.name ? { channel_name: channel.name } : {}),
      channel_type: channel.type,
    },
  };
}
