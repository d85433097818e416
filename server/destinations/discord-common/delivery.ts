/**
 * What the Discord destination senders (discord-dm, discord-channel) share: posting the delivery
 * message over the bot's REST client and turning Discord's errors into send results with a
 * stable code. Each send is one REST call (plus opening the DM channel once); the scheduler owns
 * retries, so the result says whether trying again can help.
 */
import type { REST } from '@discordjs/rest';
import { isDiscordApiError, isDiscordHttpError } from '../../discord/errors.ts';
import { Routes, type APIMessage } from 'discord.js';
import { buildDeliveryMessage, type DeliveryMessageInput } from './delivery-message.ts';
import { t } from '../../discord/i18n.ts';
import type { SendContext, SendFailure } from '../../scheduler/types.ts';

export { discordConcurrencyKey } from './lazy-sender.ts';

/** Failure codes of Discord sends (delivery_attempts.error_code); access checks add theirs (DISCORD_CANNOT_POST...). */
export const DISCORD_CODES = {
  /** The account has no linked Discord user. */
  IDENTITY_REQUIRED: 'DISCORD_IDENTITY_REQUIRED',
  /** 50007: the user does not accept DMs from the bot. */
  CANNOT_DM: 'DISCORD_CANNOT_DM',
  /** 10003. */
  UNKNOWN_CHANNEL: 'DISCORD_UNKNOWN_CHANNEL',
  /** 50001, or 10004 (unknown guild: the bot was removed). */
  MISSING_ACCESS: 'DISCORD_MISSING_ACCESS',
  /** 10013. */
  UNKNOWN_USER: 'DISCORD_UNKNOWN_USER',
  /** 50013. */
  MISSING_PERMISSIONS: 'DISCORD_MISSING_PERMISSIONS',
  /** 5xx, 408, 429, 401 (bot token), network errors and timeouts: retried. */
  UNAVAILABLE: 'DISCORD_UNAVAILABLE',
  /** Another 4xx: Discord refused this message. */
  REJECTED: 'DISCORD_REJECTED',
  /** The stored destination lacks its server or channel id. */
  INVALID_DESTINATION: 'DISCORD_INVALID_DESTINATION',
} as const;

/** Discord JSON error codes after which the destination can never work as configured. */
const PERMANENT: Record<number, { key: string; code: string }> = {
  50007: { key: 'deliveryErrors.cannotDm', code: DISCORD_CODES.CANNOT_DM },
  10003: { key: 'deliveryErrors.unknownChannel', code: DISCORD_CODES.UNKNOWN_CHANNEL },
  10004: { key: 'deliveryErrors.missingAccess', code: DISCORD_CODES.MISSING_ACCESS },
  10013: { key: 'deliveryErrors.noDiscordIdentity', code: DISCORD_CODES.UNKNOWN_USER },
  50001: { key: 'deliveryErrors.missingAccess', code: DISCORD_CODES.MISSING_ACCESS },
  50013: { key: 'deliveryErrors.missingPermissions', code: DISCORD_CODES.MISSING_PERMISSIONS },
};

export function mapDiscordError(err: unknown, locale: string | null | undefined): SendFailure {
  if (isDiscordApiError(err)) {
    const discordCode = typeof err.code === 'number' ? err.code : undefined;
    const httpStatus = err.status;
    const permanent = discordCode !== undefined ? PERMANENT[discordCode] : undefined;
    if (permanent) {
      return { ok: false, code: permanent.code, retryable: false, disableDestination: true, error: t(locale, permanent.key), httpStatus };
    }
    if (httpStatus >= 500 || httpStatus === 408 || httpStatus === 429 || httpStatus === 401) {
      // 401: the bot token is wrong; fixing the configuration makes the retry work.
      return { ok: false, code: DISCORD_CODES.UNAVAILABLE, retryable: true, error: t(locale, 'deliveryErrors.unavailable', { reason: `${httpStatus} ${err.message}` }), httpStatus };
    }
    return { ok: false, code: DISCORD_CODES.REJECTED, retryable: false, error: t(locale, 'deliveryErrors.rejected', { reason: err.message }), httpStatus };
  }
  if (isDiscordHttpError(err)) {
    return { ok: false, code: DISCORD_CODES.UNAVAILABLE, retryable: true, error: t(locale, 'deliveryErrors.unavailable', { reason: `${err.status} ${err.message}` }), httpStatus: err.status };
  }
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string } };
  const reason = e?.name === 'AbortError' || e?.name === 'TimeoutError' ? 'timeout' : (e?.cause?.code ?? e?.code ?? e?.message ?? String(err));
  return { ok: false, code: DISCORD_CODES.UNAVAILABLE, retryable: true, error: t(locale, 'deliveryErrors.unavailable', { reason }) };
}

/** A failure after which the destination can never work as configured: it is disabled. */
export function permanentFailure(code: string, error: string): SendFailure {
  return { ok: false, code, retryable: false, disableDestination: true, error };
}

function deliveryBody(ctx: SendContext, roleId: string | null, everyone: boolean, extra: Pick<DeliveryMessageInput, 'remindMeToo' | 'subscriber'> = {}) {
  return buildDeliveryMessage({
    reminderId: ctx.reminder.id,
    message: ctx.reminder.message,
    locale: ctx.account.locale,
    roleId,
    everyone,
    quiet: ctx.test,
    // An alert late by a downtime still says how soon, from the occurrence: no late note.
    lateOccurrenceMs: ctx.late && !ctx.alert ? Date.parse(ctx.occurrenceUtc) : null,
    alertOccurrenceMs: ctx.alert ? Date.parse(ctx.occurrenceUtc) : null,
    occurrenceMs: Date.parse(ctx.occurrenceUtc),
    nonce: ctx.idempotencyKey,
    // A test send has no reminder behind it to snooze or finish.
    buttons: !ctx.test,
    ...extra,
  });
}

/** Posts the delivery message (header, text, buttons) to a channel; `everyone`: ping @everyone instead of the role. */
export async function postDeliveryMessage(
  rest: REST,
  channelId: string,
  ctx: SendContext,
  roleId: string | null,
  everyone = false,
  extra: Pick<DeliveryMessageInput, 'remindMeToo' | 'subscriber'> = {},
): Promise<APIMessage> {
  return (await rest.post(Routes.channelMessages(channelId), { body: deliveryBody(ctx, roleId, everyone, extra), signal: ctx.signal })) as APIMessage;
}

/** Discord's limit on a thread's (a forum post's) name. */
const MAX_POST_TITLE = 100;

/**
 * A forum post's title: the reminder's text on one line, its first 100 characters (counted in
 * UTF-16 units as Discord's length check does, never cutting a character in two).
 */
export function forumPostTitle(message: string, fallback: string): string {
  let title = '';
  for (const char of message.replace(/\s+/g, ' ').trim()) {
    if (title.length + char.length > MAX_POST_TITLE) break;
    title += char;
  }
  return title.trim() || fallback;
}

/**
 * Opens a new post in a forum or media channel (Start Thread in Forum or Media Channel) whose
 * first message is the delivery message. Discord takes no nonce there: the scheduler's own
 * idempotency is all that guards against a second post after a lost answer.
 */
export async function openForumPost(
  rest: REST,
  forumId: string,
  ctx: SendContext,
  roleId: string | null,
  everyone: boolean,
  tagIds: string[],
  extra: Pick<DeliveryMessageInput, 'remindMeToo'> = {},
): Promise<{ id: string }> {
  const { nonce: _nonce, enforce_nonce: _enforce, ...message } = deliveryBody(ctx, roleId, everyone, extra);
  const body = {
    name: forumPostTitle(ctx.reminder.message, t(ctx.account.locale, 'delivery.postTitle')),
    ...(tagIds.length ? { applied_tags: tagIds } : {}),
    message,
  };
  return (await rest.post(Routes.threads(forumId), { body, signal: ctx.signal })) as { id: string };
}
