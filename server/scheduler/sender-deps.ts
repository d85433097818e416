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
import { closeDiscordService, createDiscordService } from '../discord/service.ts';

export interface OwnedSenderDeps {
  deps: SenderDeps;
  /** Releases what was built here (REST sweepers...). */
  close(): Promise<void>;
}

export async function createSenderDeps(db: DB, config: Config, log: FastifyBaseLogger): Promise<OwnedSenderDeps> {
  // The thread's own Discord service (its own REST client, counted in the shared global limit).
  const discord = config.discord ? await createDiscordService(db, config.discord) : null;
  return {
    deps: { db, config, log, discord },
    async close() {
      if (discord) closeDiscordService(discord);
    },
  };
}
