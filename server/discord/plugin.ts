import type { REST } from '@discordjs/rest';
import fp from 'fastify-plugin';
import { type DiscordConfig, hasRole } from '../config.ts';
import discordRoutes from '../routes/discord/index.ts';
import discordOAuthRoutes from '../routes/discord/oauth.ts';
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
  /** Drops cached guild data (one guild or all): call on role/channel/guild gateway events. */
  invalidateCache(guildId?: string): void;
}

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
      // Counted in the database: every instance's Discord requests share the bot's global limit.
      const rest = await createBotRest(config, { db: app.db });
      const oauth = createOAuthClient(config);
      const service: DiscordService = {
        rest,
        config,
        oauth,
        userTokens: new UserTokens(app.db, oauth),
        checkChannelAccess: (input) => checkChannelAccess(rest, input),
        invalidateCache: (guildId) => invalidateDiscordCache(rest, guildId),
      };
      app.decorate('discord', service);

      app.addHook('onClose', async () => closeBotRest(rest));
    }

    // Registered either way (without settings they answer 503 DISCORD_NOT_CONFIGURED), on web nodes.
    if (hasRole(app.config, 'web')) {
      await app.register(discordRoutes);
      await app.register(discordOAuthRoutes);
    }
  },
  { name: 'discord', dependencies: ['database', 'auth'] },
);
