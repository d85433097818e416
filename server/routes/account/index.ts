import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Account, Identity } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { attemptRefused, type AttemptThrottle, DatabaseAttemptThrottle } from '../../lib/login-throttle.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { requireEmail, requireNewPassword, requireTimeZone, requireUsername } from '../../lib/validation.ts';
import {
  deleteAccount,
  findAccountByEmail,
  findAccountById,
  findIdentity,
  isUniqueViolation,
  listIdentities,
  normalizeEmail,
  updateAccount,
  updateIdentity,
} from '../../repositories/accounts.ts';
import { revokeOtherSessions } from '../../repositories/sessions.ts';
import { errorResponses, Nullable, Ok } from '../../schemas/common.ts';
import { accountLanguage, LANGUAGES } from '../../lib/language.ts';

export const AccountResponse = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  email: Nullable(Type.String()),
  username: Type.String(),
  timezone: Type.String(),
  /** The language of the account's mails and bot messages: the dashboard's choice, or the Discord locale; null when unknown (English). */
  language: Nullable(Type.Union(LANGUAGES.map((l) => Type.Literal(l)))),
  created_at: Type.String(),
  identities: Type.Array(Type.Object({ provider: Type.String(), username: Nullable(Type.String()), external_id: Type.String() })),
});

const Capabilities = Type.Object({
  hasDiscordIdentity: Type.Boolean(),
  hasAppIdentity: Type.Boolean(),
  discordConfigured: Type.Boolean(),
});

export function presentAccount(account: Account, identities: Identity[]) {
  return {
    id: account.id,
    user_id: account.id,
    email: account.email,
    username: account.username,
    timezone: account.timezone,
    language: accountLanguage(account.locale),
    created_at: account.created_at,
    identities: identities.map((i) => ({ provider: i.provider, username: i.username, external_id: i.external_id })),
  };
}

const account: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  // Wrong current passwords are throttled like sign-in, per (account, network): a stolen session
  // cannot guess the password to take the account over, and cannot lock its owner out either.
  const passwordThrottle: AttemptThrottle = new DatabaseAttemptThrottle(app.db, app.config.loginThrottle);

  async function load(accountId: string) {
    const found = await findAccountById(app.db, accountId);
    if (!found) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists');
    return presentAccount(found, await listIdentities(app.db, accountId));
  }

  const reply200 = { response: { 200: AccountResponse, ...errorResponses } };

  app.get('/api/account', { schema: reply200 }, async (request) => load(request.auth!.accountId));

  app.get('/api/account/capabilities', { schema: { response: { 200: Capabilities, ...errorResponses } } }, async (request) => {
    const identities = await listIdentities(app.db, request.auth!.accountId);
    return {
      hasDiscordIdentity: identities.some((i) => i.provider === 'discord'),
      hasAppIdentity: identities.some((i) => i.provider === 'app'),
      discordConfigured: app.config.discord !== null,
    };
  });

  app.put(
    '/api/account/timezone',
    { schema: { body: Type.Object({ timezone: Type.Union([Type.String({ maxLength: 100 }), Type.Object({ iana_location: Type.Optional(Type.String({ maxLength: 100 })), name: Type.Optional(Type.String({ maxLength: 100 })) })]) }), ...reply200 } },
    async (request) => {
      // Older dashboards send the zone as an object: use its iana_location, then name.
      const raw = request.body.timezone as unknown;
      const value = raw && typeof raw === 'object' ? ((raw as Record<string, unknown>).iana_location ?? (raw as Record<string, unknown>).name) : raw;
      const timezone = requireTimeZone(value);
      await updateAccount(app.db, request.auth!.accountId, { timezone });
      return load(request.auth!.accountId);
    },
  );

  // The dashboard sends the language the user picks, so mails and bot messages follow it.
  app.put('/api/account/language', { schema: { body: Type.Object({ language: Type.String({ maxLength: 20 }) }), ...reply200 } }, async (request) => {
    const language = LANGUAGES.find((l) => l === request.body.language);
    if (!language) throw new AppError('VALIDATION_FAILED', `Language must be one of ${LANGUAGES.join(', ')}`);
    await updateAccount(app.db, request.auth!.accountId, { locale: language });
    return load(request.auth!.accountId);
  });

  app.put(
    '/api/account/identity/app/username',
    { schema: { body: Type.Object({ username: Type.String({ maxLength: 200 }) }), ...reply200 } },
    async (request) => {
      const username = requireUsername(request.body.username);
      const accountId = request.auth!.accountId;
      await app.db.transaction().execute(async (trx) => {
        await updateAccount(trx, accountId, { username });
        await updateIdentity(trx, accountId, 'app', { username });
      });
      return load(accountId);
    },
  );

  app.put(
    '/api/account/identity/app/email',
    { schema: { body: Type.Object({ email: Type.String({ maxLength: 320 }) }), ...reply200 } },
    async (request) => {
      const email = requireEmail(request.body.email);
      const accountId = request.auth!.accountId;
      const holder = await findAccountByEmail(app.db, email);
      if (holder && holder.id !== accountId) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists');
      try {
        await app.db.transaction().execute(async (trx) => {
          await updateAccount(trx, accountId, { email, email_normalized: normalizeEmail(email) });
          // The app identity's external_id is its email (what GET /api/account lists), so it follows the change.
          await updateIdentity(trx, accountId, 'app', { external_id: normalizeEmail(email) });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists');
        throw err;
      }
      return load(accountId);
    },
  );

  app.post(
    '/api/account/identity/app/change-password',
    {
      schema: {
        body: Type.Object({ current_password: Type.String({ maxLength: 1024 }), new_password: Type.String({ maxLength: 1024 }) }),
        response: { 200: Ok, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { current_password: current, new_password: next } = request.body;
      const accountId = request.auth!.accountId;
      if (!current) throw new AppError('CURRENT_PASSWORD_REQUIRED', 'Current password is required');
      requireNewPassword(next, 'New password');
      if (next === current) throw new AppError('PASSWORD_UNCHANGED', 'New password must be different from current password');
      const identity = await findIdentity(app.db, accountId, 'app');
      if (!identity?.password_hash) throw new AppError('NO_APP_IDENTITY', 'This account has no password to change');
      const gate = await passwordThrottle.begin({ account: accountId, ip: request.ip });
      if (!gate.allowed) throw attemptRefused(reply, gate.retryAfterMs, 'Too many wrong passwords.');
      let valid: boolean;
      try {
        valid = await verifyPassword(identity.password_hash, current);
      } catch (err) {
        await gate.abandon();
        throw err;
      }
      if (!valid) throw new AppError('WRONG_PASSWORD', 'Current password is incorrect');
      await gate.succeeded();
      const hash = await hashPassword(next);
      await app.db.transaction().execute(async (trx) => {
        await updateIdentity(trx, accountId, 'app', { password_hash: hash });
        // Anyone holding an old session (a stolen token, another device) is signed out.
        await revokeOtherSessions(trx, accountId, request.auth!.sessionId);
      });
      return { ok: true };
    },
  );

  app.delete('/api/account', { schema: { response: { 200: Ok, ...errorResponses } } }, async (request, reply) => {
    await app.db.transaction().execute((trx) => deleteAccount(trx, request.auth!.accountId));
    app.clearSessionCookie(reply);
    app.scheduler.wake();
    return { ok: true };
  });
};

export default account;
