import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Account, Identity } from '../../db/database.ts';
import { type AttemptThrottle, DatabaseAttemptThrottle } from '../../accounts/login-throttle.ts';
import { changeEmail, changePassword, changeUsername } from '../../accounts/password-accounts.ts';
import { closeAccount, loadProfile, setAccountLanguage, setAccountTimeZone, signInMethods } from '../../accounts/profile.ts';
import { errorResponses, Nullable, Ok } from '../../schemas/common.ts';
import { notifySecurityChange } from '../../accounts/security-notices.ts';
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

export const Capabilities = Type.Object({
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
  const passwordThrottle: AttemptThrottle = new DatabaseAttemptThrottle(app.db, app.config.loginThrottle);

  async function load(accountId: string) {
    const { account: found, identities } = await loadProfile(app.db, accountId);
    return presentAccount(found, identities);
  }

  const reply200 = { response: { 200: AccountResponse, ...errorResponses } };

  app.get('/api/account', { schema: reply200 }, async (request) => load(request.auth!.accountId));

  app.get('/api/account/capabilities', { schema: { response: { 200: Capabilities, ...errorResponses } } }, async (request) => {
    const methods = await signInMethods(app.db, request.auth!.accountId);
    return { hasDiscordIdentity: methods.discord, hasAppIdentity: methods.app, discordConfigured: app.config.discord !== null };
  });

  app.put(
    '/api/account/timezone',
    { schema: { body: Type.Object({ timezone: Type.Union([Type.String({ maxLength: 100 }), Type.Object({ iana_location: Type.Optional(Type.String({ maxLength: 100 })), name: Type.Optional(Type.String({ maxLength: 100 })) })]) }), ...reply200 } },
    async (request) => {
      await setAccountTimeZone(app.db, request.auth!.accountId, request.body.timezone);
      return load(request.auth!.accountId);
    },
  );

  // The dashboard sends the language the user picks, so mails and bot messages follow it.
  app.put('/api/account/language', { schema: { body: Type.Object({ language: Type.String({ maxLength: 20 }) }), ...reply200 } }, async (request) => {
    await setAccountLanguage(app.db, request.auth!.accountId, request.body.language);
    return load(request.auth!.accountId);
  });

  app.put('/api/account/identity/app/username', { schema: { body: Type.Object({ username: Type.String({ maxLength: 200 }) }), ...reply200 } }, async (request) => {
    await changeUsername(app.db, request.auth!.accountId, request.body.username);
    return load(request.auth!.accountId);
  });

  app.put('/api/account/identity/app/email', { schema: { body: Type.Object({ email: Type.String({ maxLength: 320 }) }), ...reply200 } }, async (request) => {
    await changeEmail(app.db, request.auth!.accountId, request.body.email);
    return load(request.auth!.accountId);
  });

  app.post(
    '/api/account/identity/app/change-password',
    {
      schema: {
        body: Type.Object({ current_password: Type.String({ maxLength: 1024 }), new_password: Type.String({ maxLength: 1024 }) }),
        response: { 200: Ok, ...errorResponses },
      },
    },
    async (request) => {
      const { accountId, sessionId } = request.auth!;
      await changePassword(app.db, passwordThrottle, { accountId, sessionId, current: request.body.current_password, next: request.body.new_password, ip: request.ip });
      await notifySecurityChange({ db: app.db, mail: app.mail, log: request.log }, accountId, 'password_changed');
      return { ok: true };
    },
  );

  app.delete('/api/account', { schema: { response: { 200: Ok, ...errorResponses } } }, async (request, reply) => {
    await closeAccount(app.db, request.auth!.accountId);
    app.clearSessionCookie(reply);
    app.scheduler.wake();
    return { ok: true };
  });
};

export default account;
