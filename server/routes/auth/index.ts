import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type AttemptThrottle, DatabaseAttemptThrottle } from '../../accounts/login-throttle.ts';
import {
  completeTwoFactorSignIn,
  PENDING_SIGN_IN_TTL_MS,
  type PendingSignIn,
  type PendingSignIns,
  signInWithPassword,
  signUpWithPassword,
} from '../../accounts/password-accounts.ts';
import { SharedRecordStore } from '../../coordination/shared-records.ts';
import { closeSession } from '../../accounts/sessions.ts';
import { KNOWN_DEVICE_COOKIE } from '../../accounts/known-devices.ts';
import { errorResponses, Ok } from '../../schemas/common.ts';
import { namedLanguage } from '../../lib/language.ts';
import { answerSignIn, LoginResponse } from './sign-in.ts';

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

export const TwoFactorRequired = Type.Object({
  two_factor_required: Type.Literal(true),
  ticket: Type.String({ description: 'Send it with a code to POST /api/auth/two-factor within 5 minutes.' }),
});

const TwoFactorBody = Type.Object({
  ticket: Type.String({ maxLength: 100 }),
  code: Type.String({ maxLength: 40, description: 'The 6-digit code of the authenticator app, or a recovery code.' }),
});

const auth: FastifyPluginAsyncTypebox = async (app) => {
  const throttle: AttemptThrottle = new DatabaseAttemptThrottle(app.db, app.config.loginThrottle);
  const pending: PendingSignIns = new SharedRecordStore<PendingSignIn>(app.db, 'two_factor_sign_in', PENDING_SIGN_IN_TTL_MS);

  app.post(
    '/api/auth/register',
    { schema: { body: RegisterBody, response: { 201: RegisterResponse, ...errorResponses } } },
    async (request, reply) => {
      const { email, username, password, timezone } = request.body;
      const account = await signUpWithPassword(app.db, { email, username, password, timezone, language: namedLanguage(request.headers['accept-language']) });
      return reply.status(201).send({ id: account.id, email: account.email ?? email, username: account.username, timezone: account.timezone, created_at: account.created_at });
    },
  );

  app.post(
    '/api/auth/login',
    { schema: { body: LoginBody, response: { 200: Type.Union([LoginResponse, TwoFactorRequired]), ...errorResponses } } },
    async (request, reply) => {
      const result = await signInWithPassword(
        app.db,
        throttle,
        {
        email: request.body.email,
        password: request.body.password,
        rememberMe: request.body.remember_me === true,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        language: namedLanguage(request.headers['accept-language']),
        deviceToken: request.cookies[KNOWN_DEVICE_COOKIE],
        },
        pending,
      );
      if (result.status === 'two_factor_required') return { two_factor_required: true as const, ticket: result.ticket };
      return answerSignIn(app, reply, result);
    },
  );

  app.post('/api/auth/two-factor', { schema: { body: TwoFactorBody, response: { 200: LoginResponse, ...errorResponses } } }, async (request, reply) => {
    const signedIn = await completeTwoFactorSignIn(app.db, throttle, pending, {
      ticket: request.body.ticket,
      code: request.body.code,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      deviceToken: request.cookies[KNOWN_DEVICE_COOKIE],
    });
    return answerSignIn(app, reply, signedIn);
  });

  app.post('/api/auth/logout', { schema: { response: { 200: Ok, ...errorResponses } } }, async (request, reply) => {
    // Logging out must work with an expired or unknown token too: the client clears its state either way.
    // A live cookie-only session from another origin is refused like every other unsafe call
    // (readSession throws CSRF_REJECTED): a foreign page must not sign the user out.
    const session = await app.readSession(request);
    if (session?.sessionId) await closeSession(app.db, session.sessionId);
    app.clearSessionCookie(reply);
    return { ok: true };
  });
};

export default auth;
