import fp from 'fastify-plugin';
import { hasRole } from '../config.ts';
import discordRoutes from '../routes/discord/index.ts';
import discordOAuthRoutes from '../routes/discord/oauth.ts';
import { closeDiscordService, createDiscordService, type DiscordService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** null when the server has no Discord settings. */
    discord: DiscordService | null;
  }
}

export default fp(
  async (app) => {
    const config = app.config.discord;
    if (!config) {
      app.decorate('discord', null);
    } else {
      const service = await createDiscordService(app.db, config);
      app.decorate('discord', service);
      app.addHook('onClose', async () => closeDiscordService(service));
    }

    // Registered either way (without settings they answer 503 DISCORD_NOT_CONFIGURED), on web nodes.
    if (hasRole(app.config, 'web')) {
      await app.register(discordRoutes);
      await app.register(discordOAuthRoutes);
    }
  },
  { name: 'discord', dependencies: ['database', 'auth'] },
);
