import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { KNOWN_DEVICE_COOKIE } from '../../accounts/known-devices.ts';
import { DatabaseAttemptThrottle } from '../../accounts/login-throttle.ts';
import {
  finishPasskeyRegistration,
  finishPasskeySignIn,
  listAccountPasskeys,
  PASSKEY_CHALLENGE_TTL_MS,
  type PasskeyChallenge,
  relyingPartyOf,
  removeAccountPasskey,
  renameAccountPasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from '../../accounts/passkeys.ts';
import { loadProfile } from '../../accounts/profile.ts';
import { notifySecurityChange } from '../../accounts/security-notices.ts';
import { RateWindow } from '../../coordination/rate-window.ts';
import { SharedRecordStore } from '../../coordination/shared-records.ts';
import { findPasskey } from '../../repositories/passkeys.ts';
import { errorResponses, IdParams, Nullable, Ok } from '../../schemas/common.ts';
import { answerSignIn, LoginResponse } from '../auth/sign-in.ts';

export const PasskeyOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  device_type: Type.Union([Type.Literal('singleDevice'), Type.Literal('multiDevice')], { description: 'multiDevice: a passkey that can be synced (backed up) between devices.' }),
  backed_up: Type.Boolean(),
});

const Name = Type.String({ maxLength: 200, description: 'What the owner calls it ("Laptop", "Phone").' });
const B64 = (max: number) => Type.String({ maxLength: max, pattern: '^[A-Za-z0-9_-]*=*$' });

/** What @simplewebauthn/browser's startRegistration() answers (RegistrationResponseJSON). */
const RegistrationResponse = Type.Object({
  id: B64(1400),
  rawId: B64(1400),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: B64(4096),
    attestationObject: B64(16384),
    authenticatorData: Type.Optional(B64(16384)),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
    publicKey: Type.Optional(B64(4096)),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 40 })),
  clientExtensionResults: Type.Object({}, { additionalProperties: true }),
});

/** What startAuthentication() answers (AuthenticationResponseJSON). */
const AuthenticationResponse = Type.Object({
  id: B64(1400),
  rawId: B64(1400),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: B64(4096),
    authenticatorData: B64(16384),
    signature: B64(4096),
    userHandle: Type.Optional(B64(400)),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 40 })),
  clientExtensionResults: Type.Object({}, { additionalProperties: true }),
});

const Ticket = Type.String({ maxLength: 100, description: 'The ticket of the options answer: names the challenge (single use, 5 minutes).' });
const OptionsOut = Type.Object({
  ticket: Ticket,
  options: Type.Object({}, { additionalProperties: true, description: 'For navigator.credentials (the JSON form @simplewebauthn/browser takes).' }),
});

/**
 * Passkeys (docs/security.md "Passkeys"). The account's passkeys: a session only (personal access
 * tokens are refused: no token scope), CSRF checked on the cookie like every unsafe call. Signing
 * in with one: no session, and the same answer and cookies as a password sign-in.
 */
const passkeys: FastifyPluginAsyncTypebox = async (app) => {
  // Read when asked (a test server learns its port, and so its PUBLIC_URL, only once listening).
  const rp = () => relyingPartyOf(app.config.publicUrl);
  const registrations = new SharedRecordStore<PasskeyChallenge>(app.db, 'passkey_registration', PASSKEY_CHALLENGE_TTL_MS);
  const signIns = new SharedRecordStore<PasskeyChallenge>(app.db, 'passkey_sign_in', PASSKEY_CHALLENGE_TTL_MS);
  const throttle = new DatabaseAttemptThrottle(app.db, app.config.loginThrottle);
  // The same budget for the registrations an account starts (a session is cheap to get: sign up).
  const registrationsPerAccount = new RateWindow(app.db, 'passkey_registration_options', app.config.passkeyOptionsThrottle.limit, app.config.passkeyOptionsThrottle.windowMs);
  const signInsPerNetwork = new RateWindow(app.db, 'passkey_options', app.config.passkeyOptionsThrottle.limit, app.config.passkeyOptionsThrottle.windowMs);

  const accountPasskeys: FastifyPluginAsyncTypebox = async (account) => {
    account.addHook('onRequest', app.authenticate);

    account.get('/api/account/passkeys', { schema: { response: { 200: Type.Array(PasskeyOut), ...errorResponses } } }, async (request) =>
      listAccountPasskeys(app.db, request.auth!.accountId),
    );

    account.post('/api/account/passkeys/registration-options', { schema: { response: { 200: OptionsOut, ...errorResponses } } }, async (request) => {
      const { account: found } = await loadProfile(app.db, request.auth!.accountId);
      return startPasskeyRegistration(app.db, registrations, rp(), found, registrationsPerAccount);
    });

    account.post(
      '/api/account/passkeys',
      { schema: { body: Type.Object({ ticket: Ticket, name: Name, response: RegistrationResponse }), response: { 201: PasskeyOut, ...errorResponses } } },
      async (request, reply) => {
        const created = await finishPasskeyRegistration(app.db, registrations, rp(), {
          accountId: request.auth!.accountId,
          ticket: request.body.ticket,
          name: request.body.name,
          response: request.body.response as RegistrationResponseJSON,
        });
        return reply.status(201).send(created);
      },
    );

    account.put('/api/account/passkeys/:id', { schema: { params: IdParams, body: Type.Object({ name: Name }), response: { 200: Ok, ...errorResponses } } }, async (request) => {
      await renameAccountPasskey(app.db, request.auth!.accountId, request.params.id, request.body.name);
      return { ok: true };
    });

    account.delete('/api/account/passkeys/:id', { schema: { params: IdParams, response: { 200: Ok, ...errorResponses } } }, async (request) => {
      const { accountId } = request.auth!;
      const removed = await findPasskey(app.db, accountId, request.params.id);
      await removeAccountPasskey(app.db, accountId, request.params.id);
      await notifySecurityChange({ db: app.db, mail: app.mail, log: request.log }, accountId, 'passkey_removed', removed?.name);
      return { ok: true };
    });
  };
  await app.register(accountPasskeys);

  app.post('/api/auth/passkey/options', { schema: { response: { 200: OptionsOut, ...errorResponses } } }, async (request) =>
    startPasskeySignIn(signIns, rp(), { perNetwork: signInsPerNetwork, ip: request.ip }),
  );

  app.post(
    '/api/auth/passkey',
    {
      schema: {
        body: Type.Object({ ticket: Ticket, response: AuthenticationResponse, remember_me: Type.Optional(Type.Boolean()) }),
        response: { 200: LoginResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const signedIn = await finishPasskeySignIn(app.db, throttle, signIns, rp(), {
        ticket: request.body.ticket,
        response: request.body.response as AuthenticationResponseJSON,
        rememberMe: request.body.remember_me === true,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        deviceToken: request.cookies[KNOWN_DEVICE_COOKIE],
      });
      return answerSignIn(app, reply, signedIn);
    },
  );
};

export default passkeys;
