/**
 * The services destination senders use (SenderDeps), built for a thread that is not the Fastify
 * app: the scheduler's worker thread. The API thread passes the app itself, which has the same
 * members. Whatever is built here is this thread's own: its own database connection, its own
 * Discord REST client (REST only: the gateway stays with the bot role).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DB } from '../db/connection.ts';
import type { SenderDeps } from '../destinations/types.ts';
import { checkChannelAccess } from '../discord/access.ts';
import { invalidateDiscordCache } from '../discord/guild-reads.ts';
import type { DiscordService } from '../discord/plugin.ts';
import { closeBotRest, createBotRest, createOAuthClient, UserTokens } from '../discord/rest.ts';

export interface OwnedSenderDeps {
  deps: SenderDeps;
  /** Releases what was built here (REST sweepers...). */
  close(): Promise<void>;
}

/**
 * One Discord REST client for the thread. Discord's global limit (50 requests/s per bot token)
 * is per token, not per client: like the API thread's client (test sends, pickers), this one
 * counts its requests in the database (sharedGlobalLimit), so every client of every thread and
 * instance stays within the one budget.
 */
async function discordServiceFor(db: DB, config: Config): Promise<DiscordService | null> {
  const discord = config.discord;
  if (!discord) return null;
  const rest = await createBotRest(discord, { db });
  const oauth = createOAuthClient(discord);
  return {
    rest,
    config: discord,
    oauth,
    userTokens: new UserTokens(db, oauth),
    checkChannelAccess: (input) => checkChannelAccess(rest, input),
    // Gateway events reach the bot in the main thread; the worker's guild cache expires on its own (30 s).
    invalidateCache: (guildId) => invalidateDiscordCache(rest, guildId),
  };
}

export async function createSenderDeps(db: DB, config: Config, log: FastifyBaseLogger): Promise<OwnedSenderDeps> {
  const discord = await discordServiceFor(db, config);
  return {
    deps: { db, config, log, discord },
    async close() {
      if (discord) closeBotRest(discord.rest);
    },
  };
}
