import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { attemptRefused } from '../../accounts/login-throttle.ts';
import { requireEmail } from '../../accounts/validation.ts';
import { requireEmailAddress } from '../../destinations/email/index.ts';
import { confirmAddress, listAddressStatuses, requestConfirmation } from '../../mail/email-addresses.ts';
import { confirmPasswordReset, requestPasswordReset } from '../../mail/password-reset.ts';
import { ResetThrottle } from '../../mail/reset-throttle.ts';
import { normalizeEmail } from '../../repositories/accounts.ts';
import { errorResponses, Ok } from '../../schemas/common.ts';

const ResetBody = Type.Object({ email: Type.String({ maxLength: 320 }) });
const ResetConfirmBody = Type.Object({ token: Type.String({ maxLength: 512 }), password: Type.String({ maxLength: 1024 }) });
const TokenBody = Type.Object({ token: Type.String({ maxLength: 512 }) });
const AddressBody = Type.Object({ address: Type.String({ maxLength: 320 }) });

export const AddressStatusOut = Type.Object({
  address: Type.String(),
  /** confirmed; pending: a live link was mailed; unconfirmed: no live link (expired, or never sent). */
  state: Type.Union([Type.Literal('confirmed'), Type.Literal('pending'), Type.Literal('unconfirmed')]),
  confirmation_sent_at: Type.Union([Type.String(), Type.Null()]),
});
export const AddressList = Type.Object({ configured: Type.Boolean(), addresses: Type.Array(AddressStatusOut) });
const Accepted = Type.Object({ ok: Type.Boolean() });
const Confirmed = Type.Object({ address: Type.String() });
const ConfirmationSent = Type.Object({ address: Type.String(), state: AddressStatusOut.properties.state, sent: Type.Boolean() });

/** Email answers a few more statuses than the shared set (410 for used links, 502 for SMTP). */
const mailErrors = { ...errorResponses, 410: errorResponses[400], 422: errorResponses[400], 502: errorResponses[400] };

function notConfigured(): AppError {
  return new AppError('MAIL_NOT_CONFIGURED', 'Email is not configured on this server: ask its administrator to reset your password');
}

/** Password reset (anonymous) and confirmed email addresses (docs/operations.md "Email"). Rules live in server/mail. */
const email: FastifyPluginAsyncTypebox = async (app) => {
  const resetThrottle = new ResetThrottle(app.db, app.config.resetThrottle);

  app.post('/api/auth/password-reset', { schema: { body: ResetBody, response: { 202: Accepted, ...mailErrors } } }, async (request, reply) => {
    const mail = app.mail;
    if (!mail) throw notConfigured();
    const address = requireEmail(request.body.email);
    const wait = await resetThrottle.hit(normalizeEmail(address), request.ip);
    if (wait !== null) throw attemptRefused(wait, 'Too many password reset requests.');
    await requestPasswordReset({ db: app.db, config: app.config, mail, log: app.log }, address, languageFromHeader(request.headers['accept-language']));
    // The same answer whether an account has this email or not.
    return reply.status(202).send({ ok: true });
  });

  app.post('/api/auth/password-reset/confirm', { schema: { body: ResetConfirmBody, response: { 200: Ok, ...mailErrors } } }, async (request) => {
    // Works without SMTP too: `npm run admin -- reset-password` prints links.
    await confirmPasswordReset(app.db, request.body.token, request.body.password);
    return { ok: true };
  });

  // Anonymous: whoever reads the mailbox confirms, signed in or not.
  app.post('/api/email/confirm', { schema: { body: TokenBody, response: { 200: Confirmed, ...mailErrors } } }, async (request) => {
    const { address, reenabled } = await confirmAddress(app.db, request.body.token);
    for (const id of reenabled) app.scheduler.destinationEnabled(id);
    return { address };
  });

  // The account's own addresses: signed in.
  const signedIn = { onRequest: app.authenticate };

  app.get('/api/email/addresses', { ...signedIn, schema: { response: { 200: AddressList, ...mailErrors } } }, async (request) => ({
    configured: app.mail !== null,
    addresses: await listAddressStatuses(app.db, request.auth!.accountId),
  }));

  app.post(
    '/api/email/addresses/confirmation',
    { ...signedIn, schema: { body: AddressBody, response: { 202: ConfirmationSent, ...mailErrors } } },
    async (request, reply) => {
      if (!app.mail) throw new AppError('MAIL_NOT_CONFIGURED', 'Email is not configured on this server: ask its administrator');
      const address = requireEmailAddress(request.body.address, 'address');
      const result = await requestConfirmation({ db: app.db, config: app.config, mail: app.mail }, request.auth!.accountId, address, {
        explicit: true,
        language: languageFromHeader(request.headers['accept-language']),
      });
      return reply.status(202).send({ address, state: result.state, sent: result.sent });
    },
  );
};

export default email;
