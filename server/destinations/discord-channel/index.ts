import { AppError } from '../../errors.ts';
import { accessError, type AccessResult, checkChannelAccess } from '../../discord/access.ts';
import { GUILD_ANNOUNCEMENT, isForumType, isPostableChannelType, isThreadType } from '../../discord/channel-rule.ts';
import { loadGuild, REQUIRE_TAG } from '../../discord/guild-reads.ts';
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
  /** Forum and media channels only: the tags of each new post. */
  forum_tag_ids?: string[];
  /**
   * The bot's /remind `tags:` as typed (tag names, or ids), never from an HTTP client nor stored:
   * the preflight turns them into forum_tag_ids with the forum's tags, then the same rules apply.
   */
  forum_tag_names?: string[];
  /** A thread's channel, for display ("#thread in #channel"). */
  parent_name?: string;
  /** A "Remind me too" button under each delivery (docs/discord.md), if the server's rules allow it. */
  remind_me_too?: boolean;
}

/** Discord applies at most 5 tags to a forum post. */
export const MAX_FORUM_TAGS = 5;

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
    let tags: string[] = [];
    if (meta.forum_tag_ids !== undefined && meta.forum_tag_ids !== null) {
      const list = meta.forum_tag_ids;
      if (!Array.isArray(list) || list.length > MAX_FORUM_TAGS || !list.every((id) => SNOWFLAKE.test(String(id)))) {
        throw new AppError('INVALID_DESTINATION', `${where}.metadata.forum_tag_ids must be at most ${MAX_FORUM_TAGS} Discord tag ids`);
      }
      tags = [...new Set(list.map(String))];
    }
    let tagNames: string[] = [];
    if (meta.forum_tag_names !== undefined && meta.forum_tag_names !== null) {
      const list = meta.forum_tag_names;
      if (!Array.isArray(list) || !list.every((n) => typeof n === 'string' && n.trim().length > 0 && n.length <= 100)) {
        throw new AppError('INVALID_DESTINATION', `${where}.metadata.forum_tag_names must be tag names`);
      }
      tagNames = [...new Set(list.map((n) => n.trim()))];
      if (tagNames.length + tags.length > MAX_FORUM_TAGS) throw new AppError('INVALID_DESTINATION', `${where}.metadata.forum_tag_ids must be at most ${MAX_FORUM_TAGS} Discord tag ids`);
    }
    if (meta.remind_me_too !== undefined && meta.remind_me_too !== null && typeof meta.remind_me_too !== 'boolean') {
      throw new AppError('INVALID_DESTINATION', `${where}.metadata.remind_me_too must be true or false`);
    }
    const remindMeToo = meta.remind_me_too === true;
    // Display names come from Discord itself (the bot's interaction, or the preflight's snapshot);
    // the HTTP schema does not accept them from clients.
    const names: Record<string, string> = {};
    for (const key of ['guild_name', 'channel_name', 'parent_name', ...(role ? ['mention_role_name'] : [])]) {
      const value = meta[key];
      if (typeof value === 'string' && value.length > 0 && value.length <= 100) names[key] = value;
    }
    // Like the names, the kind comes from Discord (preflight, the bot); kept for display.
    const kind = typeof meta.channel_type === 'number' && isPostableChannelType(meta.channel_type) ? { channel_type: meta.channel_type } : {};
    return { guild_id: guildId, channel_id: channelId, ...(role ? { mention_role_id: role } : {}), ...(publish ? { publish: true } : {}), ...(tags.length ? { forum_tag_ids: tags } : {}), ...(tagNames.length ? { forum_tag_names: tagNames } : {}), ...(remindMeToo ? { remind_me_too: true } : {}), ...names, ...kind };
  },
  async preflight(deps, accountId, metadata) {
    const discord = deps.discord;
    const meta = metadata as unknown as DiscordChannelMetadata;
    // Without Discord settings nothing can be checked (nor delivered: the sender says so), nor can
    // tag names be read: they are never stored.
    if (!discord) {
      delete meta.forum_tag_names;
      return;
    }
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
    // without asking Discord on every page view. Taken from what the check just read.
    const channel = result.channel;
    // Only an announcement channel can publish (Discord answers 50024 elsewhere): refused now, not at every delivery.
    if (meta.publish && channel && channel.type !== GUILD_ANNOUNCEMENT) {
      throw new AppError('DISCORD_PUBLISH_NOT_ANNOUNCEMENT', `#${channel.name} is not an announcement channel: only messages there can be published`, 400, {
        params: { channel: channel.name },
      });
    }
    if (channel) {
      resolveForumTagNames(meta, channel);
      checkForumTags(meta, channel);
    } else delete meta.forum_tag_names;
    const guild = await loadGuild(discord.rest, meta.guild_id).catch(() => null);
    if (guild) {
      const role = meta.mention_role_id ? guild.roles.find((r) => r.id === meta.mention_role_id) : undefined;
      const parent = channel && isThreadType(channel.type) ? guild.channels.find((c) => c.id === channel.parent_id) : undefined;
      Object.assign(metadata, {
        guild_name: guild.name,
        ...(channel ? { channel_name: channel.name, channel_type: channel.type } : {}),
        ...(parent ? { parent_name: parent.name } : {}),
        ...(role ? { mention_role_name: role.name } : {}),
      });
    }
  },
  label: (meta) => `Discord channel ${String(meta.channel_id)}`,
  createSender: discordChannelSenderOf,
};

type CheckedChannel = NonNullable<Extract<AccessResult, { ok: true }>['channel']>;

const tagsNotForum = (channel: CheckedChannel) =>
  new AppError('DISCORD_TAGS_NOT_FORUM', `#${channel.name} is not a forum or media channel: only new posts there carry tags`, 400, { params: { channel: channel.name } });
const unknownForumTag = (channel: CheckedChannel, tag: string) =>
  new AppError('DISCORD_UNKNOWN_FORUM_TAG', `#${channel.name} has no tag ${tag} (any more)`, 400, { params: { channel: channel.name, tag } });

/**
 * /remind's tags as typed (names, any case, or ids) become the forum's tag ids, before the rules
 * of checkForumTags apply to them as to the API's: a name the forum lacks is DISCORD_UNKNOWN_FORUM_TAG
 * naming it, names on another kind of channel DISCORD_TAGS_NOT_FORUM.
 */
function resolveForumTagNames(meta: DiscordChannelMetadata, channel: CheckedChannel): void {
  const names = meta.forum_tag_names ?? [];
  delete meta.forum_tag_names;
  if (names.length === 0) return;
  if (!isForumType(channel.type)) throw tagsNotForum(channel);
  const available = channel.available_tags ?? [];
  const ids = names.map((name) => {
    const found = available.find((t) => t.id === name) ?? available.find((t) => t.name.toLocaleLowerCase() === name.toLocaleLowerCase());
    if (!found) throw unknownForumTag(channel, name);
    return found.id;
  });
  meta.forum_tag_ids = [...new Set([...(meta.forum_tag_ids ?? []), ...ids])];
}

/**
 * Tags are for the new posts of a forum or media channel: they must be the forum's own, and a
 * forum that requires a tag (REQUIRE_TAG) gets at least one, or Discord would refuse every post.
 */
function checkForumTags(meta: DiscordChannelMetadata, channel: CheckedChannel): void {
  const chosen = meta.forum_tag_ids ?? [];
  if (!isForumType(channel.type)) {
    if (chosen.length) throw tagsNotForum(channel);
    return;
  }
  const available = channel.available_tags ?? [];
  const unknown = chosen.find((id) => !available.some((t) => t.id === id));
  if (unknown) throw unknownForumTag(channel, unknown);
  if (chosen.length === 0 && ((channel.flags ?? 0) & REQUIRE_TAG) !== 0) {
    throw new AppError('DISCORD_FORUM_TAG_REQUIRED', `#${channel.name} requires a tag on each post: choose at least one`, 400, { params: { channel: channel.name } });
  }
  // A moderated tag is applied only by members who manage threads: the owner, and the bot that applies it.
  const moderated = available.find((t) => t.moderated && chosen.includes(t.id));
  if (moderated && (!channel.user_manages_threads || !channel.bot_manages_threads)) {
    const who = channel.user_manages_threads ? 'bot' : 'user';
    throw new AppError(
      'DISCORD_FORUM_TAG_MODERATED',
      who === 'user'
        ? `You can't apply the tag ${moderated.name} in #${channel.name}: it takes the Manage Threads permission`
        : `The bot can't apply the tag ${moderated.name} in #${channel.name}. Give it the Manage Threads permission there, or choose other tags.`,
      403,
      { params: { channel: channel.name, tag: moderated.name, permission: 'MANAGE_THREADS', who } },
    );
  }
}
