import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.ts';
import { attemptRefused, type AttemptThrottle, DatabaseAttemptThrottle } from '../../lib/login-throttle.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password.ts';
import { requireEmail, requireNewPassword, requireTimeZone, requireUsername } from '../../lib/validation.ts';
import {
  addIdentity,
  createAccount,
  findAccountByEmail,
  findIdentity,
  isUniqueViolation,
  normalizeEmail,
  updateAccount,
} from '../../repositories/accounts.ts';
import { LONG_SESSION_MS, openSession, SHORT_SESSION_MS } from '../../accounts/sessions.ts';
import { revokeSession } from '../../repositories/sessions.ts';
import { errorResponses, Nullable, Ok } from '../../schemas/common.ts';
import { accountLanguage, LANGUAGES, namedLanguage } from '../../lib/language.ts';

const RegisterBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
  username: Type.String({ maxLength: 200 }),
  password: Type.String({ maxLength: 1024 }),
  timezone: Type.Optional(Type.String({ maxLength: 100 })),
});

const LoginBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 1024 }),
  remember_me: Type.Optional(Type.Boolean()),
});

const RegisterResponse = Type.Object({
  id: Type.String(),
  email: Type.String(),
  username: Type.String(),
  timezone: Type.String(),
  created_at: Type.String(),
});

export const LoginResponse = Type.Object({
  token: Type.String(),
  expires_at: Type.String(),
  id: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  username: Type.String(),
  /** The account's language (its mails and bot messages): the dashboard takes it on unless the browser has a choice of its own. */
  language: Nullable(Type.Union(LANGUAGES.map((l) => Type.Literal(l)))),
});

const auth: FastifyPluginAsyncTypebox = async (app) => {
  const throttle: AttemptThrottle = new DatabaseAttemptThrottle(app.db, app.config.loginThrottle);

  app.post(
    '/api/auth/register',
    { schema: { body: RegisterBody, response: { 201: RegisterResponse, ...errorResponses } } },
    async (request, reply) => {
      const email = requireEmail(request.body.email);
      const username = requireUsername(request.body.username);
      const password = requireNewPassword(request.body.password);
      const timezone = request.body.timezone === undefined || request.body.timezone === '' ? 'UTC' : requireTimeZone(request.body.timezone);
      if (await findAccountByEmail(app.db, email)) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists');
      const passwordHash = await hashPassword(password);
      try {
        const account = await app.db.transaction().execute(async (trx) => {
          // The language the dashboard was in at sign-up: mails and bot messages use it (Discord accounts get Discord's locale).
          const created = await createAccount(trx, { email, username, timezone, locale: namedLanguage(request.headers['accept-language']) });
          await addIdentity(trx, { account_id: created.id, provider: 'app', external_id: normalizeEmail(email), username, password_hash: passwordHash });
          return created;
        });
        return reply.status(201).send({ id: account.id, email, username, timezone, created_at: account.created_at });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists');
        throw err;
      }
    },
  );

  app.post(
    '/api/auth/login',
    { schema: { body: LoginBody, response: { 200: LoginResponse, ...errorResponses } } },
    async (request, reply) => {
      const email = typeof request.body.email === 'string' ? request.body.email.trim() : '';
      const password = request.body.password;
      if (!email || !password) throw new AppError('VALIDATION_FAILED', 'Email and password are required');
      // Counted as a failure from here on unless the password turns out right (see login-throttle.ts).
      const gate = await throttle.begin({ account: normalizeEmail(email), ip: request.ip });
      if (!gate.allowed) throw attemptRefused(reply, gate.retryAfterMs, 'Too many failed sign-in attempts.');
      let account: Awaited<ReturnType<typeof findAccountByEmail>>;
      let valid = false;
      try {
        account = await findAccountByEmail(app.db, email);
        const identity = account ? await findIdentity(app.db, account.id, 'app') : undefined;
        if (identity?.password_hash) valid = await verifyPassword(identity.password_hash, password);
        // Unknown emails cost a hash too (same timing), except from a network over its failure cap:
        // there a guesser spraying made-up names would only burn CPU.
        else if (!gate.ipOverCap) await burnPasswordCheck(password);
      } catch (err) {
        await gate.abandon();
        throw err;
      }
      if (!account || !valid) throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password');
      await gate.succeeded();
      // Accounts made before Chime stored a language get the one the dashboard signs in with.
      const language = account.locale ? null : namedLanguage(request.headers['accept-language']);
      if (language) await updateAccount(app.db, account.id, { locale: language });
      const ttl = request.body.remember_me ? LONG_SESSION_MS : SHORT_SESSION_MS;
      const { token, session } = await openSession(app.db, account.id, ttl, request.headers['user-agent']);
      app.setSessionCookie(reply, token, new Date(session.expires_at));
      return { token, expires_at: session.expires_at, id: account.id, email: account.email, username: account.username, language: accountLanguage(account.locale ?? language) };
    },
  );

  app.post('/api/auth/logout', { schema: { response: { 200: Ok, ...errorResponses } } }, async (request, reply) => {
    // Logging out must work with an expired or unknown token too: the client clears its state either way.
    // A live cookie-only session from another origin is refused like every other unsafe call
    // (readSession throws CSRF_REJECTED): a foreign page must not sign the user out.
    const session = await app.readSession(request);
    if (session) await revokeSession(app.db, session.sessionId);
    app.clearSessionCookie(reply);
    return { ok: true };
  });
};

export default auth;
