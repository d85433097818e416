import type { FastifyInstance } from 'fastify';
import type { DestinationSender } from '../../scheduler/types.ts';
import { lazyDiscordSender } from '../discord-common/lazy-sender.ts';

/** The module's sender for this app; null without Discord settings (nothing can be delivered). */
export function discordDmSenderOf(app: Pick<FastifyInstance, 'db' | 'discord'>): DestinationSender | null {
  const discord = app.discord;
  if (!discord) return null;
  return lazyDiscordSender(async () => (await import('./sender.ts')).createDiscordDmSender({ db: app.db, rest: discord.rest }));
}
