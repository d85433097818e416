/**
 * When a channel delivery fails for good (the bot lost a permission there, the channel was
 * deleted...), nobody in that channel can tell the owner: Chime tells them by direct message, in
 * their account's language, naming the reminder, the channel and the failure code with what it
 * means. At most once per reminder and code per day. It hangs off the channel sender (a hook of
 * this destination module), so the scheduler knows nothing of it.
 */
import type { REST } from '@discordjs/rest';
import { isDiscordApiError } from '../../discord/errors.ts';
import { Routes, type APIChannel } from 'discord.js';
import { oneLine, truncate } from '../../discord/message-text.ts';
import { reminderPageUrl } from '../../lib/reminder-page-url.ts';
import { t } from '../../discord/i18n.ts';
import type { DB } from '../../db/connection.ts';
import { findIdentity, updateIdentity } from '../../repositories/accounts.ts';
import { hasFailedAttemptSince } from '../../repositories/attempt-results.ts';
import type { SendContext, SendFailure } from '../../scheduler/types.ts';
import { DISCORD_CODES } from '../discord-common/delivery.ts';

/** One notice per reminder and failure code in this window. */
export const FAILURE_NOTICE_INTERVAL_MS = 86_400_000;

/**
 * What each permanent failure means, in the owner's words (keys of locales/<lang>/bot.json); also
 * the bot's answer when a save is refused for one of these reasons (bot/replies/reply.ts).
 */
export const DISCORD_FAILURE_EXPLANATIONS: Record<string, string> = {
  DISCORD_MISSING_PERMISSIONS: 'failureNotice.explain.missingPermissions',
  DISCORD_MISSING_ACCESS: 'failureNotice.explain.missingAccess',
  DISCORD_UNKNOWN_CHANNEL: 'failureNotice.explain.unknownChannel',
  DISCORD_BOT_NOT_IN_GUILD: 'failureNotice.explain.botNotInGuild',
  DISCORD_NOT_MEMBER: 'failureNotice.explain.notMember',
  DISCORD_CANNOT_POST: 'failureNotice.explain.cannotPost',
  DISCORD_ROLE_NOT_MENTIONABLE: 'failureNotice.explain.roleNotMentionable',
  DISCORD_CANNOT_MENTION_EVERYONE: 'failureNotice.explain.cannotMentionEveryone',
  DISCORD_UNKNOWN_ROLE: 'failureNotice.explain.unknownRole',
  DISCORD_REJECTED: 'failureNotice.explain.rejected',
  DISCORD_INVALID_DESTINATION: 'failureNotice.explain.invalidDestination',
  DISCORD_CANNOT_POST_IN_THREAD: 'failureNotice.explain.cannotPostInThread',
  DISCORD_NOT_IN_THREAD: 'failureNotice.explain.notInThread',
  DISCORD_BOT_NOT_IN_THREAD: 'failureNotice.explain.botNotInThread',
  DISCORD_THREAD_ARCHIVED: 'failureNotice.explain.threadArchived',
  DISCORD_FORUM_TAG_REQUIRED: 'failureNotice.explain.forumTagRequired',
};

export interface FailureNoticeDeps {
  db: DB;
  rest: REST;
  /** For the link to the reminder's page. */
  publicUrl: string;
  now?: () => number;
  log?: { warn(obj: object, msg: string): void };
}

export type FailureNotifier = (ctx: SendContext, failure: SendFailure) => Promise<void>;

/** The notice text, in `locale`. */
export function failureNoticeText(ctx: SendContext, failure: SendFailure, publicUrl: string): string {
  const locale = ctx.account.locale;
  const meta = ctx.destination.metadata as { channel_id?: unknown; channel_name?: unknown; guild_name?: unknown };
  const channelId = String(meta.channel_id ?? '');
  const names = [typeof meta.channel_name === 'string' ? `#${meta.channel_name}` : null, typeof meta.guild_name === 'string' ? meta.guild_name : null].filter(Boolean);
  const channel = names.length
    ? t(locale, 'failureNotice.channelNamed', { channelId, name: names.join(', ') })
    : t(locale, 'failureNotice.channel', { channelId });
  const key = DISCORD_FAILURE_EXPLANATIONS[failure.code];
  const explanation = key ? t(locale, key) : failure.error;
  return [
    t(locale, 'failureNotice.title', { channel }),
    t(locale, 'failureNotice.reminder', { message: truncate(oneLine(ctx.reminder.message), 200) }),
    t(locale, 'failureNotice.code', { code: failure.code, explanation }),
    ...(failure.disableDestination ? [t(locale, 'failureNotice.disabled')] : []),
    t(locale, 'failureNotice.link', { url: reminderPageUrl(publicUrl, ctx.reminder.id) }),
  ].join('\n');
}

export function createFailureNotifier(deps: FailureNoticeDeps): FailureNotifier {
  const now = deps.now ?? Date.now;
  /** reminder + code -> when the notice went out (this process; the delivery log covers restarts). */
  const told = new Map<string, number>();

  async function dmChannel(accountId: string, signal: AbortSignal): Promise<string | null> {
    const identity = await findIdentity(deps.db, accountId, 'discord');
    if (!identity) return null;
    if (identity.dm_channel_id) return identity.dm_channel_id;
    const channel = (await deps.rest.post(Routes.userChannels(), { body: { recipient_id: identity.external_id }, signal })) as APIChannel;
    await updateIdentity(deps.db, accountId, 'discord', { dm_channel_id: channel.id });
    return channel.id;
  }

  return async (ctx, failure) => {
    // A test send answers the dashboard directly; without a Discord identity there is nobody to DM.
    if (ctx.test || failure.retryable || failure.code === DISCORD_CODES.IDENTITY_REQUIRED) return;
    const at = now();
    const key = `${ctx.reminder.id}\n${failure.code}`;
    const last = told.get(key);
    if (last !== undefined && at - last < FAILURE_NOTICE_INTERVAL_MS) return;
    // Taken before any await: two destinations of one reminder failing together tell once.
    told.set(key, at);
    if (told.size > 10_000) for (const [k, when] of told) if (at - when >= FAILURE_NOTICE_INTERVAL_MS) told.delete(k);
    try {
      const sinceIso = new Date(at - FAILURE_NOTICE_INTERVAL_MS).toISOString();
      if (await hasFailedAttemptSince(deps.db, { reminderId: ctx.reminder.id, code: failure.code, sinceIso, exceptDeliveryId: ctx.deliveryId })) return;
      const signal = AbortSignal.timeout(10_000);
      let channelId = await dmChannel(ctx.account.id, signal);
      if (!channelId) return;
      const body = { content: failureNoticeText(ctx, failure, deps.publicUrl), allowed_mentions: { parse: [] } };
      try {
        await deps.rest.post(Routes.channelMessages(channelId), { body, signal });
      } catch (err) {
        // A cached DM channel can disappear: reopen it once.
        if (!(isDiscordApiError(err) && err.code === 10003)) throw err;
        await updateIdentity(deps.db, ctx.account.id, 'discord', { dm_channel_id: null });
        channelId = await dmChannel(ctx.account.id, signal);
        if (channelId) await deps.rest.post(Routes.channelMessages(channelId), { body, signal });
      }
    } catch (err) {
      // The owner may not accept DMs: the failure stays listed on the dashboard either way.
      deps.log?.warn({ err, reminderId: ctx.reminder.id, code: failure.code }, 'channel failure notice not sent');
    }
  };
}
