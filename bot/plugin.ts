import fp from 'fastify-plugin';
import { hasRole } from '../server/config.ts';
import { PgAdvisoryLock } from '../server/db/pg-advisory-lock.ts';
import { LeaseRow } from '../server/coordination/lease-row.ts';
import { Leadership } from '../server/lib/leadership.ts';
import { ShardLeases } from '../server/coordination/shard-leases.ts';
import type { ChimeBot } from './bot.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Discord bot; null when Discord is not configured. */
    bot: ChimeBot | null;
    /** Whether this instance holds the Discord gateway; null when Discord is not configured. */
    gatewayLeadership: Leadership | null;
    /**
     * The gateway's shards this instance holds, with DISCORD_SHARD_COUNT (one lease per shard);
     * null otherwise (then gatewayLeadership decides) or when Discord is not configured.
     */
    gatewayShards: ShardLeases | null;
  }
}

/** The lease of the gateway connection (and of registering the slash commands). */
export const GATEWAY_LEASE = 'discord-gateway';

/**
 * The discord.js gateway bot (slash commands, buttons). Runs only when Discord is configured.
 * Delivery does not go through it: the Discord destination modules (server/destinations/discord-*)
 * send over the Discord plugin's REST client, so reminders go out while the gateway reconnects. Fastify does not wait for the gateway: the bot connects in the
 * background once the server is ready, and a failed login is logged, not fatal.
 */
export default fp(
  async (app) => {
    const config = app.config.discord;
    // Not a bot node (CHIME_ROLES without bot): no gateway, no command registration.
    if (!config || !hasRole(app.config, 'bot')) {
      app.decorate('bot', null);
      app.decorate('gatewayLeadership', null);
      app.decorate('gatewayShards', null);
      return;
    }
    // Loaded only when configured: discord.js alone is about 30 MB of memory.
    const { createBot } = await import('./bot.ts');
    const bot = createBot(app, config);
    app.decorate('bot', bot);
    const timing = app.config.gatewayLease;
    if (config.shardCount) {
      // DISCORD_SHARD_COUNT: the shards spread over the instances, a lease each (docs/operations.md "Spreading the gateway's shards").
      let shards: ShardLeases | null = null;
      app.decorate('gatewayLeadership', null);
      app.decorate('gatewayShards', {
        getter: () => shards,
      });
      let closing = false;
      let starting: Promise<void> = Promise.resolve();
      app.addHook('onReady', async () => {
        // In the background like the single gateway: the start does not wait for GET /gateway/bot.
        starting = (async () => {
          const count = config.shardCount === 'auto' ? await bot.recommendedShards() : (config.shardCount as number);
          if (closing) return;
          shards = new ShardLeases(
            app.db,
            count,
            { changed: (held) => bot.useShards(held, count) },
            app.log.child({ component: 'discord-gateway' }),
            timing,
          );
          shards.start();
        })();
      });
      app.addHook('onClose', async () => {
        closing = true;
        await starting;
        await shards?.stop();
        await bot.stop();
      });
      return;
    }
    app.decorate('gatewayShards', null);
    // One instance holds the gateway and registers the commands (docs/operations.md "Running several instances"); the others take over when it dies. Every instance still delivers over REST.
    // PostgreSQL: an advisory lock, freed the moment its holder's connection closes; SQLite: a lease row.
    const lock =
      app.dbDialect === 'postgres'
        ? new PgAdvisoryLock(app.config.databaseUrl, GATEWAY_LEASE, app.db, timing)
        : new LeaseRow(app.db, GATEWAY_LEASE, timing.ttlMs);
    const leadership = new Leadership(
      lock,
      {
        acquired: () => bot.start(),
        lost: () => bot.disconnect(),
      },
      app.log.child({ component: 'discord-gateway' }),
      timing,
    );
    app.decorate('gatewayLeadership', leadership);
    app.addHook('onReady', async () => {
      leadership.start();
    });
    app.addHook('onClose', async () => {
      await leadership.stop();
      await bot.stop();
    });
  },
  { name: 'discord-bot', dependencies: ['database', 'scheduler', 'discord'] },
);
