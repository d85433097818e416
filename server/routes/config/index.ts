import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DISCORD_OAUTH_SCOPES, discordRedirectUri } from '../../lib/discord-urls.ts';
import { vapidKeys } from '../../destinations/web-push/vapid.ts';

const PublicConfig = Type.Object({
  discord: Type.Object({
    configured: Type.Boolean(),
    client_id: Type.Union([Type.String(), Type.Null()]),
    authorize_url: Type.Union([Type.String(), Type.Null()]),
    redirect_uri: Type.String(),
    scopes: Type.Array(Type.String()),
    missing: Type.Array(Type.String()),
  }),
  /** SMTP_URL and MAIL_FROM: without them password reset is done by the administrator (npm run admin). */
  email: Type.Object({
    configured: Type.Boolean(),
    missing: Type.Array(Type.String()),
  }),
  /** MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN: without them Matrix destinations are not offered. */
  matrix: Type.Object({
    configured: Type.Boolean(),
    missing: Type.Array(Type.String()),
  }),
  /** TELEGRAM_BOT_TOKEN: without it Telegram destinations are not offered. */
  telegram: Type.Object({
    configured: Type.Boolean(),
    missing: Type.Array(Type.String()),
  }),
  /** Browser push: the server's VAPID public key (base64url), the `applicationServerKey` a browser subscribes with. */
  web_push: Type.Object({
    public_key: Type.String(),
  }),
  public_url: Type.String(),
  version: Type.String(),
  /** SUPPORT_URL and COMMUNITY_URL: the dashboard hides a link that is null. */
  links: Type.Object({
    support: Type.Union([Type.String(), Type.Null()]),
    community: Type.Union([Type.String(), Type.Null()]),
  }),
});

/** What the dashboard needs to know before sign-in (is Discord available here?). No secrets. */
const config: FastifyPluginAsyncTypebox = async (app) => {
  // Made at the first start (and stored): a browser subscribes with it before any delivery needs it.
  app.addHook('onReady', async () => {
    await vapidKeys(app.db);
  });
  app.get('/api/config', { schema: { response: { 200: PublicConfig } } }, async () => {
    const d = app.config.discord;
    return {
      discord: {
        configured: d !== null,
        client_id: d?.clientId ?? null,
        authorize_url: d?.authorizeUrl ?? null,
        redirect_uri: discordRedirectUri(app.config.publicUrl),
        scopes: [...DISCORD_OAUTH_SCOPES],
        missing: app.config.discordMissing,
      },
      email: { configured: app.config.mail !== null, missing: app.config.mailMissing },
      matrix: { configured: app.config.matrix !== null, missing: app.config.matrixMissing },
      telegram: { configured: app.config.telegram !== null, missing: app.config.telegramMissing },
      web_push: { public_key: (await vapidKeys(app.db)).publicKey },
      public_url: app.config.publicUrl,
      version: process.env.npm_package_version ?? '0.1.0',
      links: { support: app.config.supportUrl, community: app.config.communityUrl },
    };
  });
};
export default config;
