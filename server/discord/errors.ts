import type { DiscordAPIError, HTTPError, RateLimitError } from '@discordjs/rest';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../errors.ts';
import { loadedDiscordRest } from '../lib/load-on-use.ts';

/** Whether `err` is an instance of @discordjs/rest's error class `name` (false while the package was never loaded). */
function isRestError(err: unknown, name: 'DiscordAPIError' | 'HTTPError' | 'RateLimitError'): boolean {
  const rest = loadedDiscordRest();
  return !!rest && err instanceof rest[name];
}
export const isDiscordApiError = (err: unknown): err is DiscordAPIError => isRestError(err, 'DiscordAPIError');
export const isDiscordHttpError = (err: unknown): err is HTTPError => isRestError(err, 'HTTPError');
export const isRateLimitError = (err: unknown): err is RateLimitError => isRestError(err, 'RateLimitError');

/**
 * Turns a failed bot REST call into the API error: Discord problems are 502 for the client,
 * never a 500 and never a 401 (which would sign the dashboard user out).
 */
export function botRestFailure(err: unknown, log?: FastifyBaseLogger): AppError {
  if (err instanceof AppError) return err;
  if (isDiscordApiError(err) && err.status === 401) {
    log?.error({ status: err.status, code: err.code }, 'Discord rejected the bot token (DISCORD_TOKEN)');
    return new AppError('DISCORD_UNAVAILABLE', 'The Discord bot of this server is misconfigured (its token was rejected). Tell the administrator.', 502);
  }
  if (isRateLimitError(err)) {
    return new AppError('DISCORD_UNAVAILABLE', `Discord is rate limiting Chime. Try again in ${Math.ceil(err.retryAfter / 1000)} seconds.`, 502);
  }
  if (isDiscordApiError(err) || isDiscordHttpError(err)) {
    log?.warn({ status: err.status, method: err.method, path: safePath(err.url) }, 'Discord REST call failed');
  } else {
    log?.warn({ err: err instanceof Error ? { name: err.name, message: err.message } : String(err) }, 'Discord REST call failed');
  }
  return new AppError('DISCORD_UNAVAILABLE', 'Discord is not responding right now. Please try again in a moment.', 502);
}

const safePath = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
};
