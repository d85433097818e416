import { AppError } from '../../errors.ts';
import { accessError, type AccessResult, checkChannelAccess } from '../../discord/access.ts';
import { GUILD_ANNOUNCEMENT, isPostableChannelType } from '../../discord/channel-rule.ts';
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
  /** Discord's channel type when saved (display only; the sender does not trust it). */
  channel_type?: number;
  /** Announcement channels only: publish (crosspost) each delivered message. */
  publish?: boolean;
  /** A "Remind me too" button under each delivery (docs/discord.md), if the server's rules allow it. */
  remind_me_too?: boolean;
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
    // The HTTP schema says boolean already; the bot and imported files come through here too.
    if (meta.publish !== undefined && meta.publish !== null && typeof meta.publish !== 'boolean') {
      throw new AppError('INVALID_DESTINATION', `${where}.metadata.publish must be true or false`);
    }
    const publish = meta.publish === true;
    if (meta.remind_me_too !== undefined && meta.remind_me_too !== null && typeof meta.remind_me_too !== 'boolean') {
      throw new AppError('INVALID_DESTINATION', `${where}.metadata.remind_me_too must be true or false`);
    }
    const remindMeToo = meta.remind_me_too === true;
    // Display names come from Discord itself (the bot's interaction, or the preflight's snapshot);
    // the HTTP schema does not accept them from clients.
    const names: Record<string, string> = {};
    for (const key of ['guild_name', 'channel_name', ...(role ? ['mention_role_name'] : [])]) {
      const value = meta[key];
      if (typeof value === 'string' && value.length > 0 && value.length <= 100) names[key] = value;
    }
    // Like the names, the kind comes from Discord (preflight, the bot); kept for display.
    const kind = typeof meta.channel_type === 'number' && isPostableChannelType(meta.channel_type) ? { channel_type: meta.channel_type } : {};
    return { guild_id: guildId, channel_id: channelId, ...(role ? { mention_role_id: role } : {}), ...(publish ? { publish: true } : {}), ...(remindMeToo ? { remind_me_too: true } : {}), ...names, ...kind };
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
    const channel = guild?.channels.find((c) => c.id === meta.channel_id);
    // Only an announcement channel can publish (Discord answers 50024 elsewhere): refused now, not at every delivery.
    if (meta.publish && channel && channel.type !== GUILD_ANNOUNCEMENT) {
      throw new AppError('DISCORD_PUBLISH_NOT_ANNOUNCEMENT', `#${channel.name} is not an announcement channel: only messages there can be published`, 400, {
        params: { channel: channel.name },
      });
    }
    if (guild) {
      const role = meta.mention_role_id ? guild.roles.find((r) => r.id === meta.mention_role_id) : undefined;
      Object.assign(metadata, {
        guild_name: guild.name,
        ...(channel ? { channel_name: channel.name, channel_type: channel.type } : {}),
        ...(role ? { mention_role_name: role.name } : {}),
      });
    }
  },
  label: (meta) => `Discord channel ${String(meta.channel_id)}`,
  createSender: discordChannelSenderOf,
};
