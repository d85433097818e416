import type { FastifyInstance } from 'fastify';
import type { DestinationSender } from '../../scheduler/types.ts';
import { lazyDiscordSender } from '../discord-common/lazy-sender.ts';

/** The subscriber DM sender for this app; null without Discord settings (nothing can be delivered). */
export function discordSubscriberSenderOf(app: Pick<FastifyInstance, 'db' | 'discord'>): DestinationSender | null {
  const discord = app.discord;
  if (!discord) return null;
  // The DM sender itself, with the subscriber's button instead of the owner's.
  return lazyDiscordSender(async () => (await import('../discord-dm/sender.ts')).createDiscordDmSender({ db: app.db, rest: discord.rest, subscriber: true }));
}
