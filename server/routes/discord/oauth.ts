import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../db/database.ts';
import {
  ExpiringStore,
  OAUTH_STATE_COOKIE,
  OAUTH_STATE_TTL_MS,
  type OAuthState,
  SETUP_COOKIE,
  SETUP_TICKET_TTL_MS,
  type SetupTicket,
} from '../../discord/oauth-state.ts';
import type { DiscordService } from '../../discord/plugin.ts';
import { DiscordHttpError, type DiscordTokenSet, type DiscordUser, discordUnavailable, tokenExpiry } from '../../discord/rest.ts';
import { AppError } from '../../errors.ts';
import { DISCORD_OAUTH_SCOPES, discordRedirectUri } from '../../lib/discord-urls.ts';
import { nowIso } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/password.ts';
import { requireEmail, requireNewPassword, requireTimeZone, requireUsername } from '../../lib/validation.ts';
import type { Executor } from '../../repositories/executor.ts';
import {
  addIdentity,
  createAccount,
  findAccountByEmail,
  findAccountById,
  findIdentity,
  findIdentityByExternalId,
  isUniqueViolation,
  listIdentities,
  normalizeEmail,
  updateAccount,
} from '../../repositories/accounts.ts';
import { createSession, LONG_SESSION_MS } from '../../repositories/sessions.ts';
import { errorResponses } from '../../schemas/common.ts';
import { LoginResponse } from '../auth/index.ts';
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
const SETUP_EXPIRED = 'Your Discord sign-up has expired. Sign in with Discord again to finish creating your account.';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** "Setup required": a Discord-only account (first sign-in, or created by the bot) without email or password yet. */
async function needsSetup(db: Executor, account: Account): Promise<boolean> {
  if (account.email) return false;
  return !(await listIdentities(db, account.id)).some((i) => i.provider === 'app');
}

function discordIdentityFields(user: DiscordUser, tokens: DiscordTokenSet) {
  return {
    username: user.username,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? null,
    token_expires_at: tokenExpiry(tokens),
    scope: tokens.scope ?? null,
  };
}

/**
 * Discord sign-in (authorization-code flow), linking Discord to a signed-in account, and the
 * profile completion of first-time Discord users. Discord tokens stay in the database; the
 * browser only ever sees Chime's own session token.
 */
const discordOAuth: FastifyPluginAsyncTypebox = async (app) => {
  const states = new ExpiringStore<OAuthState>(OAUTH_STATE_TTL_MS);
  const tickets = new ExpiringStore<SetupTicket>(SETUP_TICKET_TTL_MS);
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
    const { token, session } = await createSession(app.db, account.id, LONG_SESSION_MS, request.headers['user-agent']);
    app.setSessionCookie(reply, token, new Date(session.expires_at));
    return { id: account.id, email: account.email, username: account.username, token, expires_at: session.expires_at };
  }

  function setupRequired(reply: FastifyReply, account: Account, user: DiscordUser) {
    const ticket = tickets.create({ accountId: account.id });
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

  /**
   * Moves everything of a Discord-only account nobody set up (created by the bot from a slash
   * command) into `targetId`, then removes it: linking must not dead-end on "already linked".
   */
  async function absorbStubAccount(trx: Executor, stubId: string, targetId: string) {
    await trx.updateTable('reminders').set({ account_id: targetId }).where('account_id', '=', stubId).execute();
    await trx.updateTable('deliveries').set({ account_id: targetId }).where('account_id', '=', stubId).execute();
    await trx.updateTable('delivery_attempts').set({ account_id: targetId }).where('account_id', '=', stubId).execute();
    await trx.updateTable('identities').set({ account_id: targetId, updated_at: nowIso() }).where('account_id', '=', stubId).where('provider', '=', 'discord').execute();
    await trx.deleteFrom('sessions').where('account_id', '=', stubId).execute();
    await trx.deleteFrom('identities').where('account_id', '=', stubId).execute();
    await trx.deleteFrom('accounts').where('id', '=', stubId).execute();
  }

  async function link(accountId: string, user: DiscordUser, tokens: DiscordTokenSet): Promise<Account> {
    const account = await findAccountById(app.db, accountId);
    if (!account) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists', 401);
    const fields = discordIdentityFields(user, tokens);
    await app.db.transaction().execute(async (trx) => {
      const own = await findIdentity(trx, accountId, 'discord');
      if (own && own.external_id !== user.id) {
        throw new AppError('DISCORD_ALREADY_LINKED', 'Your Chime account is already connected to a different Discord account', 409);
      }
      const elsewhere = await findIdentityByExternalId(trx, 'discord', user.id);
      if (elsewhere && elsewhere.account_id !== accountId) {
        const other = await findAccountById(trx, elsewhere.account_id);
        if (!other || !(await needsSetup(trx, other))) {
          throw new AppError('DISCORD_ALREADY_LINKED', 'This Discord account is already linked to another Chime account', 409);
        }
        await absorbStubAccount(trx, other.id, accountId);
      }
      if (own || elsewhere) {
        await trx.updateTable('identities').set({ ...fields, updated_at: nowIso() }).where('account_id', '=', accountId).where('provider', '=', 'discord').execute();
      } else {
        await addIdentity(trx, { account_id: accountId, provider: 'discord', external_id: user.id, ...fields });
      }
    });
    return account;
  }

  /** The account of a known Discord user (tokens refreshed), or a new Discord-only account. */
  async function findOrCreate(user: DiscordUser, tokens: DiscordTokenSet): Promise<Account> {
    const fields = discordIdentityFields(user, tokens);
    for (let attempt = 0; attempt < 2; attempt++) {
      const known = await findIdentityByExternalId(app.db, 'discord', user.id);
      if (known) {
        await app.db.updateTable('identities').set({ ...fields, updated_at: nowIso() }).where('id', '=', known.id).execute();
        const account = await findAccountById(app.db, known.account_id);
        if (account) return account;
      }
      try {
        return await app.db.transaction().execute(async (trx) => {
          const account = await createAccount(trx, { email: null, username: user.username, timezone: 'UTC', locale: user.locale ?? null });
          await addIdentity(trx, { account_id: account.id, provider: 'discord', external_id: user.id, ...fields });
          return account;
        });
      } catch (err) {
        // The bot (or a second tab) created it in between: use that one.
        if (!isUniqueViolation(err) || attempt > 0) throw err;
      }
    }
    throw new AppError('INTERNAL', 'Could not sign you in with Discord. Please try again.', 500);
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
      const state = states.create({ mode, accountId });
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
        states.delete(cookieState);
        throw new AppError('DISCORD_OAUTH_STATE_MISMATCH', STATE_MISMATCH, 400);
      }
      const stored = states.take(state);
      if (!stored) throw new AppError('DISCORD_OAUTH_STATE_MISMATCH', STATE_MISMATCH, 400);
      const code = typeof request.body.code === 'string' ? request.body.code.trim() : '';
      if (!code) throw new AppError('DISCORD_OAUTH_FAILED', 'No authorization code received from Discord', 400);

      if (stored.mode === 'link') {
        // Whoever is signed in now must be who asked for the link (bearer or cookie).
        const current = await app.readSession(request);
        if (current && current.accountId !== stored.accountId) throw new AppError('DISCORD_OAUTH_STATE_MISMATCH', STATE_MISMATCH, 400);
        const { tokens, user } = await exchange(code);
        const account = await link(stored.accountId!, user, tokens);
        request.log.info({ accountId: account.id }, 'Discord identity linked');
        return startSession(request, reply, account);
      }

      const { tokens, user } = await exchange(code);
      const account = await findOrCreate(user, tokens);
      if (await needsSetup(app.db, account)) return setupRequired(reply, account, user);
      return startSession(request, reply, account);
    },
  );

  app.post(
    '/api/auth/discord/setup',
    { schema: { body: SetupBody, response: { 200: LoginResponse, ...errorResponses } } },
    async (request, reply) => {
      const ticketKey = request.cookies?.[SETUP_COOKIE];
      const ticket = tickets.peek(ticketKey);
      const accountId = request.body.account_id?.trim() || ticket?.accountId;
      if (!ticket || ticket.accountId !== accountId) throw new AppError('FORBIDDEN', SETUP_EXPIRED, 403);
      const account = await findAccountById(app.db, ticket.accountId);
      if (!account) throw new AppError('FORBIDDEN', SETUP_EXPIRED, 403);
      if (!(await needsSetup(app.db, account))) {
        throw new AppError('FORBIDDEN', 'This account is already set up. Sign in with your email or with Discord.', 409);
      }

      const email = requireEmail(request.body.email);
      const username = requireUsername(request.body.username);
      const password = requireNewPassword(request.body.password);
      const rawZone = request.body.timezone?.trim();
      const timezone = rawZone ? requireTimeZone(rawZone) : 'UTC';
      const taken = await findAccountByEmail(app.db, email);
      if (taken && taken.id !== account.id) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists', 409);

      const passwordHash = await hashPassword(password);
      try {
        await app.db.transaction().execute(async (trx) => {
          await updateAccount(trx, account.id, { email, email_normalized: normalizeEmail(email), username, timezone });
          await addIdentity(trx, { account_id: account.id, provider: 'app', external_id: normalizeEmail(email), username, password_hash: passwordHash });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists', 409);
        throw err;
      }
      tickets.delete(ticketKey);
      reply.clearCookie(SETUP_COOKIE, cookieOptions);
      const updated = (await findAccountById(app.db, account.id))!;
      return startSession(request, reply, updated);
    },
  );
};

export default discordOAuth;
