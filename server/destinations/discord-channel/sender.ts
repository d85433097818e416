/**
 * Delivery to a Discord server channel, optionally mentioning a role, over the bot's REST client.
 * Loaded on the first Discord send (see create-sender.ts).
 */
import type { REST } from '@discordjs/rest';
import { t } from '../../discord/i18n.ts';
import type { DB } from '../../db/connection.ts';
import type { AccessResult, ChannelAccessInput } from '../../discord/access.ts';
import { isEveryoneRole, isForumType } from '../../discord/channel-rule.ts';
import { isDiscordApiError } from '../../discord/errors.ts';
import { botUserId, REQUIRE_TAG } from '../../discord/guild-reads.ts';
import { findIdentity } from '../../repositories/accounts.ts';
import { findServerSettings, setServerPaused } from '../../repositories/servers.ts';
import { quoted, recordServerChange } from '../../servers/audit.ts';
import type { DestinationSender, SendContext, SendFailure, SendResult } from '../../scheduler/types.ts';
import { DISCORD_CODES, discordConcurrencyKey, mapDiscordError, openForumPost, permanentFailure, postDeliveryMessage } from '../discord-common/delivery.ts';
import { crosspost } from './publish.ts';

export interface DiscordChannelSenderDeps {
  db: DB;
  /** The bot's REST client (shares its rate-limit state with the rest of the app). */
  rest: REST;
  /** The permission check of server/discord/access.ts, run again at every send. */
  checkChannelAccess(input: ChannelAccessInput): Promise<AccessResult>;
  /**
   * Called (not awaited) after a failure that retrying cannot fix: the owner's DM notice
   * (failure-notice.ts). The send's result does not wait for it.
   */
  onPermanentFailure?(ctx: SendContext, failure: SendFailure): Promise<void>;
}

/** Pauses the server's part of the reminder when the server's settings say so; answers whether it did. */
async function pauseForFormerMember(db: DB, guildId: string, ctx: SendContext): Promise<boolean> {
  if (ctx.test || (await findServerSettings(db, guildId))?.former_members !== 'pause') return false;
  // One transaction: the pause and its audit entry are seen together or not at all.
  await db.transaction().execute(async (trx) => {
    await setServerPaused(trx, guildId, ctx.reminder.id, new Date().toISOString());
    await recordServerChange(trx, {
      guildIds: [guildId],
      actorAccountId: ctx.account.id,
      action: 'pause',
      reminderId: ctx.reminder.id,
      detail: { kind: 'formerMemberPaused', params: { message: quoted(ctx.reminder.message) } },
    });
  });
  return true;
}

/**
 * Reopens an archived thread before posting in it (Modify Channel, archived: false): the check
 * allowed it (an unlocked thread reopens for anyone who may send there, a locked one needs
 * Manage Threads). Null once reopened; a refusal is final, as the thread stays closed.
 */
async function unarchive(rest: REST, threadId: string, ctx: SendContext): Promise<SendFailure | null> {
  try {
    await rest.patch(`/channels/${threadId}`, { body: { archived: false }, signal: ctx.signal });
    return null;
  } catch (err) {
    if (isDiscordApiError(err) && (err.status === 403 || err.code === 50083)) {
      return permanentFailure('DISCORD_THREAD_ARCHIVED', t(ctx.account.locale, 'deliveryErrors.threadArchived'));
    }
    throw err;
  }
}

export function createDiscordChannelSender(deps: DiscordChannelSenderDeps): DestinationSender {
  const { db, rest } = deps;
  async function send(ctx: SendContext): Promise<SendResult> {
    const locale = ctx.account.locale;
    const meta = ctx.destination.metadata as { guild_id?: string; channel_id?: string; mention_role_id?: string | null; publish?: boolean; forum_tag_ids?: string[]; remind_me_too?: boolean };
    const guildId = meta.guild_id ? String(meta.guild_id) : '';
    const channelId = meta.channel_id ? String(meta.channel_id) : '';
    const roleId = meta.mention_role_id ? String(meta.mention_role_id) : null;
    if (!guildId || !channelId) return permanentFailure(DISCORD_CODES.INVALID_DESTINATION, t(locale, 'deliveryErrors.invalidDestination'));
    try {
      const identity = await findIdentity(db, ctx.account.id, 'discord');
      if (!identity) return permanentFailure(DISCORD_CODES.IDENTITY_REQUIRED, t(locale, 'deliveryErrors.noDiscordIdentity'));
      // Permissions may have changed since the reminder was set: the owner must still be allowed.
      let access = await deps.checkChannelAccess({ userId: identity.external_id, guildId, channelId, mentionRoleId: roleId });
      if (!access.ok && access.code === 'DISCORD_NOT_MEMBER') {
        // The creator left the server: its managers decided what happens (docs/servers.md "Former members").
        if (await pauseForFormerMember(db, guildId, ctx)) return permanentFailure(access.code, `${access.message}. The server's managers have its reminders paused when their creator leaves.`);
        // Kept: it goes on as the bot's own message, within what the bot may post and mention there.
        access = await deps.checkChannelAccess({ userId: await botUserId(rest), guildId, channelId, mentionRoleId: roleId });
      }
      if (!access.ok) return permanentFailure(access.code, access.message);
      const everyone = isEveryoneRole(guildId, roleId);
      // The creator's choice, as long as the server's managers allow it (they may turn it off later).
      const remindMeToo = meta.remind_me_too === true && ((await findServerSettings(db, guildId))?.allow_remind_me_too ?? 1) === 1;
      // What the check read decides how to post, not the kind stored with the destination.
      if (access.channel && isForumType(access.channel.type)) {
        // Tags deleted from the forum since the save are left out (Discord refuses unknown ones),
        // unless that leaves none where the forum now requires one.
        const available = new Set((access.channel.available_tags ?? []).map((tag) => tag.id));
        const tags = (Array.isArray(meta.forum_tag_ids) ? meta.forum_tag_ids.map(String) : []).filter((id) => available.has(id));
        if (tags.length === 0 && ((access.channel.flags ?? 0) & REQUIRE_TAG) !== 0) {
          return permanentFailure('DISCORD_FORUM_TAG_REQUIRED', t(locale, 'deliveryErrors.forumTagRequired'));
        }
        await openForumPost(rest, channelId, ctx, roleId, everyone, tags, { remindMeToo });
        return { ok: true, httpStatus: 200 };
      }
      if (access.channel?.archived) {
        const reopened = await unarchive(rest, channelId, ctx);
        if (reopened) return reopened;
      }
      // The role whose id is the guild's is @everyone: the check above allowed it to ping.
      const posted = await postDeliveryMessage(rest, channelId, ctx, roleId, everyone, { remindMeToo });
      // The reminder is delivered from here on: publishing cannot fail it (nor send it again).
      // A test send is not published: it would reach every following server.
      if (meta.publish === true && !ctx.test) {
        const warning = await crosspost(rest, channelId, posted.id, ctx);
        if (warning) return { ok: true, httpStatus: 200, warning };
      }
      return { ok: true, httpStatus: 200 };
    } catch (err) {
      return mapDiscordError(err, locale);
    }
  }
  return {
    concurrencyKey: discordConcurrencyKey,
    async send(ctx) {
      const result = await send(ctx);
      if (!result.ok && !result.retryable && deps.onPermanentFailure) void deps.onPermanentFailure(ctx, result).catch(() => {});
      return result;
    },
  };
}
