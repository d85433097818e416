/**
 * The Discord senders load discord.js (about 30 MB of memory) and the delivery message builders: a
 * server without Discord settings never loads them, and one with them loads them at the first
 * Discord send. createSender answers at once with this stand-in.
 */
import type { DestinationSender } from '../../scheduler/types.ts';

/** Every Discord send shares one concurrency key: one bot, one rate-limit budget. */
export const discordConcurrencyKey = (): string => 'discord';

export function lazyDiscordSender(load: () => Promise<DestinationSender>): DestinationSender {
  let loading: Promise<DestinationSender> | null = null;
  return {
    concurrencyKey: discordConcurrencyKey,
    async send(ctx) {
      loading ??= load().catch((err: unknown) => {
        loading = null;
        throw err;
      });
      return (await loading).send(ctx);
    },
  };
}
