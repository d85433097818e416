import { AppError } from '../../errors.ts';
import { accessError, type AccessResult, checkChannelAccess } from '../../discord/access.ts';
import { loadGuild } from '../../discord/guild-reads.ts';
import { botRestFailure } from '../../discord/errors.ts';
import { findIdentity } from '../../repositories/accounts.ts';
import type { DestinationModule } from '../types.ts';
import { discordChannelSenderOf } from './create-sender.ts';

const SNOWFLAKE = /^\d{15,25}$/;

export interface DiscordChannelMetadata {
  guild_id: string;
  channel_id: string;
  mention_role_id?: string;
  guild_name?: string;
  channel_name?: string;
  mention_role_name?: string;
}

/** A server channel, optionally mentioning one role. */
export const discordChannelDestination: DestinationModule = {
  type: 'discord_channel',
  cap: 5,
  noun: 'channel',
  requiresDiscordIdentity: true,
  parseMetadata(meta, where) {
    const guildId = String(meta.guild_id ?? '');
    const channelId = String(meta.channel_id ?? '');
    const role = meta.mention_role_id === undefined || meta.mention_role_id === null || meta.mention_role_id === '' ? null : String(meta.mention_role_id);
    if (!SNOWFLAKE.test(guildId)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.guild_id must be a Discord server id`);
    if (!SNOWFLAKE.test(channelId)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.channel_id must be a Discord channel id`);
    if (role !== null && !SNOWFLAKE.test(role)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.mention_role_id must be a Discord role id`);
    // Display names come from Discord itself (the bot's interaction, or the preflight's snapshot);
    // the HTTP schema does not accept them from clients.
    const names: Record<string, string> = {};
    for (const key of ['guild_name', 'channel_name', ...(role ? ['mention_role_name'] : [])]) {
      const value = meta[key];
      if (typeof value === 'string' && value.length > 0 && value.length <= 100) names[key] = value;
    }
    return { guild_id: guildId, channel_id: channelId, ...(role ? { mention_role_id: role } : {}), ...names };
  },
  async preflight(deps, accountId, metadata) {
    const discord = deps.discord;
    // Without Discord settings nothing can be checked (nor delivered: the sender says so).
    if (!discord) return;
    const meta = metadata as unknown as DiscordChannelMetadata;
    const identity = await findIdentity(deps.db, accountId, 'discord');
    if (!identity) throw new AppError('DISCORD_IDENTITY_REQUIRED', 'Connect your Discord account first', 403);
    let result: AccessResult;
    try {
      result = await checkChannelAccess(discord.rest, {
        userId: identity.external_id,
        guildId: meta.guild_id,
        channelId: meta.channel_id,
        mentionRoleId: meta.mention_role_id ?? null,
      });
    } catch (err) {
      throw botRestFailure(err, deps.log);
    }
    if (!result.ok) throw accessError(result);
    // Names for display only (the ids stay the key): the dashboard shows "#general in Team"
    // without asking Discord on every page view. Taken from the snapshot the check just used.
    const guild = await loadGuild(discord.rest, meta.guild_id).catch(() => null);
    if (guild) {
      const channel = guild.channels.find((c) => c.id === meta.channel_id);
      const role = meta.mention_role_id ? guild.roles.find((r) => r.id === meta.mention_role_id) : undefined;
      Object.assign(metadata, {
        guild_name: guild.name,
        ...(channel ? { channel_name: channel.name } : {}),
        ...(role ? { mention_role_name: role.name } : {}),
      });
    }
  },
  label: (meta) => `Discord channel ${String(meta.channel_id)}`,
  createSender: discordChannelSenderOf,
};
