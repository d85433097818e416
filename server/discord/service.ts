/**
 * The Discord service (bot REST client, OAuth client, user tokens, the channel check, guild cache)
 * built one way for every thread that needs it: the API thread's Discord plugin and each delivery
 * thread's sender services (server/scheduler/sender-deps.ts) call the same factory, so each thread
 * has its own REST client but the same parts, wired the same way.
 */
import type { REST } from '@discordjs/rest';
import type { DiscordConfig } from '../config.ts';
import type { Executor } from '../repositories/executor.ts';
import { type AccessResult, type ChannelAccessInput, checkChannelAccess } from './access.ts';
import { invalidateDiscordCache } from './guild-reads.ts';
import { closeBotRest, createBotRest, createOAuthClient, type DiscordOAuthClient, UserTokens } from './rest.ts';

export interface DiscordService {
  /** The bot's REST client (also what the gateway bot should use for sends). */
  rest: REST;
  config: DiscordConfig;
  /** OAuth2 calls made with a user's token (code exchange, refresh, users/@me...). */
  oauth: DiscordOAuthClient;
  /** Stored per-account user tokens, refreshed on demand. */
  userTokens: UserTokens;
  /** checkChannelAccess bound to `rest`. */
  checkChannelAccess(input: ChannelAccessInput): Promise<AccessResult>;
  /**
   * Drops cached guild data (one guild or all): call on role/channel/guild gateway events. Those
   * reach the bot on the API thread; a delivery thread's cache expires on its own (30 s).
   */
  invalidateCache(guildId?: string): void;
}

/**
 * Discord's global limit (50 requests/s per bot token) is per token, not per client: every REST
 * client counts its requests in the database (sharedGlobalLimit), so all clients of all threads
 * and instances stay within the one budget.
 */
export async function createDiscordService(db: Executor, config: DiscordConfig): Promise<DiscordService> {
  const rest = await createBotRest(config, { db });
  const oauth = createOAuthClient(config);
  return {
    rest,
    config,
    oauth,
    userTokens: new UserTokens(db, oauth),
    checkChannelAccess: (input) => checkChannelAccess(rest, input),
    invalidateCache: (guildId) => invalidateDiscordCache(rest, guildId),
  };
}

/** Releases what the service holds (the REST client's sweepers and connections). */
export function closeDiscordService(service: DiscordService): void {
  closeBotRest(service.rest);
}
