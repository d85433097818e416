import type { REST } from '@discordjs/rest';
import fp from 'fastify-plugin';
import type { DiscordConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import { findIdentity } from '../repositories/accounts.ts';
import type { DestinationInput } from '../repositories/reminders.ts';
import discordRoutes from '../routes/discord/index.ts';
import discordOAuthRoutes from '../routes/discord/oauth.ts';
import { accessError, type AccessResult, type ChannelAccessInput, checkChannelAccess, invalidateDiscordCache, loadGuild } from './access.ts';
import { botRestFailure } from './errors.ts';
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
      const rest = createBotRest(config);
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

      app.decorate('checkDiscordDestinations', async (accountId: string, destinations: DestinationInput[]) => {
        const channels = destinations.filter((d) => d.type === 'discord_channel');
        if (channels.length === 0) return;
        const identity = await findIdentity(app.db, accountId, 'discord');
        if (!identity) throw new AppError('DISCORD_IDENTITY_REQUIRED', 'Connect your Discord account first', 403);
        for (const d of channels) {
          const meta = d.metadata as { guild_id: string; channel_id: string; mention_role_id?: string };
          let result: AccessResult;
          try {
            result = await checkChannelAccess(rest, {
              userId: identity.external_id,
              guildId: meta.guild_id,
              channelId: meta.channel_id,
              mentionRoleId: meta.mention_role_id ?? null,
            });
          } catch (err) {
            throw botRestFailure(err, app.log);
          }
          if (!result.ok) throw accessError(result);
          // Names for display only (the ids stay the key): the dashboard shows "#general in Team"
          // without asking Discord on every page view. Taken from the snapshot the check just used.
          const guild = await loadGuild(rest, meta.guild_id).catch(() => null);
          if (guild) {
            const channel = guild.channels.find((c) => c.id === meta.channel_id);
            const role = meta.mention_role_id ? guild.roles.find((r) => r.id === meta.mention_role_id) : undefined;
            Object.assign(d.metadata, {
              guild_name: guild.name,
              ...(channel ? { channel_name: channel.name } : {}),
              ...(role ? { mention_role_name: role.name } : {}),
            });
          }
        }
      });

      app.addHook('onClose', async () => closeBotRest(rest));
    }

    // Registered either way: without settings they answer 503 DISCORD_NOT_CONFIGURED.
    await app.register(discordRoutes);
    await app.register(discordOAuthRoutes);
  },
  { name: 'discord', dependencies: ['database', 'auth'] },
);
