/**
 * Publishing a delivered message in an announcement channel (Discord "crosspost": POST
 * /channels/{channel.id}/messages/{message.id}/crosspost), so the servers following the channel
 * get it too. The bot's own message needs only Send Messages, which the access check already
 * required. Discord allows 10 publications per hour per channel.
 *
 * The message is already in the channel when this runs: whatever goes wrong here is a warning
 * on a delivered attempt (the delivery history shows its code), never a failure that would make
 * the scheduler send the message again.
 */
import type { REST } from '@discordjs/rest';
import { Routes } from 'discord.js';
import { isDiscordApiError, isDiscordHttpError, isRateLimitError } from '../../discord/errors.ts';
import { languageOf } from '../../discord/i18n.ts';
import { loadStringCatalog } from '../../lib/string-catalog.ts';
import type { SendContext } from '../../scheduler/types.ts';

/** Warning codes of a delivered attempt (delivery_attempts.error_code, translated by the dashboard). */
export const PUBLISH_CODES = {
  /** 429: the channel's 10 publications of the hour are used up. */
  RATE_LIMITED: 'DISCORD_CROSSPOST_RATE_LIMITED',
  /** Anything else (no longer an announcement channel, a permission lost meanwhile, Discord down). */
  FAILED: 'DISCORD_CROSSPOST_FAILED',
} as const;

const catalog = loadStringCatalog('channels');

/** Null once published; else the warning to record with the delivered attempt. */
export async function crosspost(rest: REST, channelId: string, messageId: string, ctx: Pick<SendContext, 'account' | 'signal'>): Promise<{ code: string; error: string } | null> {
  const lang = languageOf(ctx.account.locale);
  try {
    await rest.post(Routes.channelMessageCrosspost(channelId, messageId), { signal: ctx.signal });
    return null;
  } catch (err) {
    // rest.ts makes REST throw at once on this route's 429 instead of waiting up to an hour.
    if (isRateLimitError(err) || (isDiscordApiError(err) && err.status === 429)) {
      return { code: PUBLISH_CODES.RATE_LIMITED, error: catalog.translate(lang, 'publish.rateLimited') };
    }
    const reason = isDiscordApiError(err) || isDiscordHttpError(err) ? `${err.status} ${err.message}` : err instanceof Error ? err.message : String(err);
    return { code: PUBLISH_CODES.FAILED, error: catalog.translate(lang, 'publish.failed', { reason }) };
  }
}
