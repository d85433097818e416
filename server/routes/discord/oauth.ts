import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  completeDiscordSetup,
  DISCORD_SETUP_EXPIRED,
  linkDiscordUser,
  signInDiscordUser,
} from '../../accounts/discord-accounts.ts';
import { LONG_SESSION_MS, openSession } from '../../accounts/sessions.ts';
import type { Account } from '../../db/database.ts';
import {
  OAUTH_STATE_COOKIE,
  OAUTH_STATE_TTL_MS,
  type OAuthState,
  SETUP_COOKIE,
  SETUP_TICKET_TTL_MS,
  type SetupTicket,
} from '../../discord/oauth-state.ts';
import type { DiscordService } from '../../discord/service.ts';
import { DiscordHttpError, type DiscordTokenSet, type DiscordUser, discordUnavailable } from '../../discord/rest.ts';
import { AppError } from '../../errors.ts';
import { DISCORD_OAUTH_SCOPES, discordRedirectUri } from '../../lib/discord-urls.ts';
import { SharedRecordStore } from '../../coordination/shared-records.ts';
import { errorResponses } from '../../schemas/common.ts';
import { LoginResponse, presentLogin } from '../auth/sign-in.ts';
import { notConfigured } from './index.ts';

const AuthorizeQuery = Type.Object({ mode: Type.Optional(Type.String({ maxLength: 16 })) });
// Fields are optional in the schema so that missing values get the readable texts below.
const CallbackBody = Type.Object({ code: Type.Optional(Type.String({ maxLength: 512 })), state: Type.Optional(Type.String({ maxLength: 512 })) });
const SetupBody = Type.Object({
  account_id: Type.Optional(Type.String({ maxLength: 64 })),
  email: Type.Optional(Type.String({ maxLength: 320 })),
  username: Type.Optional(Type.String({ maxLength: 200 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  timezone: Type.Optional(Type.String({ maxLength: 100 })),
});

const SetupRequired = Type.Object({
  status: Type.Literal('setup_required'),
  needs_setup: Type.Literal(true),
  account_id: Type.String(),
  discord_email: Type.Union([Type.String(), Type.Null()]),
  discord_username: Type.String(),
});

const STATE_MISMATCH = 'The sign-in link expired or was opened in another browser. Please try again.';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Discord sign-in (authorization-code flow), linking Discord to a signed-in account, and the
 * profile completion of first-time Discord users. Discord tokens stay in the database; the
 * browser only ever sees Chime's own session token.
 */
const discordOAuth: FastifyPluginAsyncTypebox = async (app) => {
  const states = new SharedRecordStore<OAuthState>(app.db, 'discord_oauth_state', OAUTH_STATE_TTL_MS);
  const tickets = new SharedRecordStore<SetupTicket>(app.db, 'discord_setup_ticket', SETUP_TICKET_TTL_MS);
  const secure = app.config.publicUrl.startsWith('https://');
  const redirectUri = discordRedirectUri(app.config.publicUrl);
  // Only the Discord auth routes need these cookies.
  const cookieOptions = { path: '/api/auth/discord', httpOnly: true, sameSite: 'lax' as const, secure };

  app.addHook('onRequest', async () => {
    if (!app.discord) throw notConfigured();
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {};
  });

  function service(): DiscordService {
    if (!app.discord) throw notConfigured();
    return app.discord;
  }

  async function startSession(request: FastifyRequest, reply: FastifyReply, account: Account) {
    const { token, session } = await openSession(app.db, account.id, LONG_SESSION_MS, request.headers['user-agent'], request.ip);
    app.setSessionCookie(reply, token, new Date(session.expires_at));
    return presentLogin(account, token, session);
  }

  async function setupRequired(reply: FastifyReply, account: Account, user: DiscordUser) {
    const ticket = await tickets.create({ accountId: account.id });
    reply.setCookie(SETUP_COOKIE, ticket, { ...cookieOptions, maxAge: SETUP_TICKET_TTL_MS / 1000 });
    return {
      status: 'setup_required' as const,
      needs_setup: true as const,
      account_id: account.id,
      discord_email: user.email ?? null,
      discord_username: user.username,
    };
  }

  async function exchange(code: string): Promise<{ tokens: DiscordTokenSet; user: DiscordUser }> {
    const { oauth } = service();
    try {
      const tokens = await oauth.exchangeCode(code, redirectUri);
      const user = await oauth.getCurrentUser(tokens.access_token);
      if (!user?.id) throw new DiscordHttpError('Discord answered without a user', 502);
      return { tokens, user };
    } catch (err) {
      if (err instanceof DiscordHttpError) {
        if (err.status === 400) {
          throw new AppError('DISCORD_OAUTH_FAILED', 'Discord did not accept the sign-in code (it expired or was already used). Please try again.', 400);
        }
        if (err.status === 401 && err.code === 'invalid_client') {
          app.log.error('Discord rejected the OAuth client id or secret (DISCORD_CLIENT_ID / DISCORD_CLIENT_SECRET)');
          throw new AppError('DISCORD_OAUTH_FAILED', 'Discord sign-in is misconfigured on this server. Tell the administrator.', 502);
        }
        app.log.warn({ status: err.status, code: err.code }, 'Discord OAuth exchange failed');
      }
      throw discordUnavailable(err);
    }
  }

  app.get(
    '/api/auth/discord/authorize-url',
    { schema: { querystring: AuthorizeQuery, response: { 200: Type.Object({ url: Type.String() }), ...errorResponses } } },
    async (request, reply) => {
      const { config } = service();
      const mode = request.query.mode === undefined || request.query.mode === '' ? 'login' : request.query.mode;
      if (mode !== 'login' && mode !== 'link') throw new AppError('VALIDATION_FAILED', 'mode must be login or link', 400);
      let accountId: string | null = null;
      if (mode === 'link') {
        const auth = await app.readSession(request);
        if (!auth) throw new AppError('NOT_AUTHENTICATED', 'Sign in first to connect your Discord account', 401);
        accountId = auth.accountId;
      }
      const state = await states.create({ mode, accountId });
      reply.setCookie(OAUTH_STATE_COOKIE, state, { ...cookieOptions, maxAge: OAUTH_STATE_TTL_MS / 1000 });
      const params = [
        `client_id=${encodeURIComponent(config.clientId)}`,
        `redirect_uri=${encodeURIComponent(redirectUri)}`,
        'response_type=code',
        `scope=${encodeURIComponent(DISCORD_OAUTH_SCOPES.join(' '))}`,
        `state=${encodeURIComponent(state)}`,
      ];
      return { url: `${config.authorizeUrl}?${params.join('&')}` };
    },
  );

  app.post(
    '/api/auth/discord/callback',
    { schema: { body: CallbackBody, response: { 200: Type.Union([LoginResponse, SetupRequired]), ...errorResponses } } },
    async (request, reply) => {
      const cookieState = request.cookies?.[OAUTH_STATE_COOKIE];
      const state = typeof request.body.state === 'string' ? request.body.state : '';
      reply.clearCookie(OAUTH_STATE_COOKIE, cookieOptions);
      if (!state || !cookieState || !sameSecret(state, cookieState)) {
        await states.delete(cookieState);
        throw new AppError('DISCORD_OAUTH_STATE_MISMATCH', STATE_MISMATCH, 400);
      }
      const stored = await states.take(state);
      if (!stored) throw new AppError('DISCORD_OAUTH_STATE_MISMATCH', STATE_MISMATCH, 400);
      const code = typeof request.body.code === 'string' ? request.body.code.trim() : '';
      if (!code) throw new AppError('DISCORD_OAUTH_FAILED', 'No authorization code received from Discord', 400);

      if (stored.mode === 'link') {
        // Whoever is signed in now must be who asked for the link (bearer or cookie).
        const current = await app.readSession(request);
        if (current && current.accountId !== stored.accountId) throw new AppError('DISCORD_OAUTH_STATE_MISMATCH', STATE_MISMATCH, 400);
        const { tokens, user } = await exchange(code);
        const account = await linkDiscordUser(app.db, stored.accountId!, user, tokens);
        request.log.info({ accountId: account.id }, 'Discord identity linked');
        return startSession(request, reply, account);
      }

      const { tokens, user } = await exchange(code);
      const { account, needsSetup } = await signInDiscordUser(app.db, user, tokens);
      if (needsSetup) return setupRequired(reply, account, user);
      return startSession(request, reply, account);
    },
  );

  app.post(
    '/api/auth/discord/setup',
    { schema: { body: SetupBody, response: { 200: LoginResponse, ...errorResponses } } },
    async (request, reply) => {
      const ticketKey = request.cookies?.[SETUP_COOKIE];
      const ticket = await tickets.peek(ticketKey);
      const accountId = request.body.account_id?.trim() || ticket?.accountId;
      if (!ticket || ticket.accountId !== accountId) throw new AppError('FORBIDDEN', DISCORD_SETUP_EXPIRED, 403);
      const account = await completeDiscordSetup(app.db, ticket.accountId, request.body);
      await tickets.delete(ticketKey);
      reply.clearCookie(SETUP_COOKIE, cookieOptions);
      return startSession(request, reply, account);
    },
  );
};

export default discordOAuth;
