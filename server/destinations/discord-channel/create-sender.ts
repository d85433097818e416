import type { FastifyInstance } from 'fastify';
import type { DestinationSender } from '../../scheduler/types.ts';
import { lazyDiscordSender } from '../discord-common/lazy-sender.ts';

/** The module's sender for this app; null without Discord settings (nothing can be delivered). */
export function discordChannelSenderOf(app: Pick<FastifyInstance, 'db' | 'discord' | 'config' | 'log'>): DestinationSender | null {
  const discord = app.discord;
  if (!discord) return null;
  return lazyDiscordSender(async () => {
    const [{ createDiscordChannelSender }, { createFailureNotifier }] = await Promise.all([import('./sender.ts'), import('./failure-notice.ts')]);
    // A permanent failure is told to the owner by DM (once per reminder and code per day).
    const onPermanentFailure = createFailureNotifier({ db: app.db, rest: discord.rest, publicUrl: app.config.publicUrl, log: app.log });
    return createDiscordChannelSender({ db: app.db, rest: discord.rest, checkChannelAccess: discord.checkChannelAccess, onPermanentFailure });
  });
}
