import fp from 'fastify-plugin';
import type { ChimeBot } from './bot.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Discord bot; null when Discord is not configured. */
    bot: ChimeBot | null;
  }
}

/**
 * The discord.js gateway bot (slash commands, buttons). Runs only when Discord is configured.
 * Delivery does not go through it: the Discord destination modules (server/destinations/discord-*)
 * send over the Discord plugin's REST client, so reminders go out while the gateway reconnects. Fastify does not wait for the gateway: the bot connects in the
 * background once the server is ready, and a failed login is logged, not fatal.
 */
export default fp(
  async (app) => {
    const config = app.config.discord;
    if (!config) {
      app.decorate('bot', null);
      return;
    }
    // Loaded only when configured: discord.js alone is about 30 MB of memory.
    const { createBot } = await import('./bot.ts');
    const bot = createBot(app, config);
    app.decorate('bot', bot);
    app.addHook('onReady', async () => {
      bot.start();
    });
    app.addHook('onClose', async () => {
      await bot.stop();
    });
  },
  { name: 'discord-bot', dependencies: ['database', 'scheduler', 'discord'] },
);
