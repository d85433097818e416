import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DatabaseAttemptThrottle } from '../../accounts/login-throttle.ts';
import { loadProfile } from '../../accounts/profile.ts';
import { notifySecurityChange } from '../../accounts/security-notices.ts';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup, twoFactorStatus } from '../../accounts/two-factor.ts';
import { errorResponses, Ok } from '../../schemas/common.ts';

export const TwoFactorStatusOut = Type.Object({
  enabled: Type.Boolean(),
  recovery_codes_left: Type.Integer({ minimum: 0 }),
});

export const TwoFactorSetupOut = Type.Object({
  secret: Type.String({ description: 'The TOTP secret (base32), for apps that cannot scan the QR code.' }),
  otpauth_url: Type.String({ description: 'The otpauth:// address the QR code holds.' }),
  qr_data_url: Type.String({ description: 'The QR code, a data:image/png URL.' }),
});

export const RecoveryCodesOut = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'Shown in this answer only; each works once.' }),
});

export const CodeBody = Type.Object({ code: Type.String({ maxLength: 40, description: 'A 6-digit code; to turn codes off, a recovery code works too.' }) });

/**
 * Two-factor codes of the signed-in account (docs/security.md): status, setup (QR code), enable
 * with the first code, disable with a code or a recovery code. A session only (no token scope).
 */
const twoFactor: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const throttle = new DatabaseAttemptThrottle(app.db, app.config.loginThrottle);
  const notify = (log: typeof app.log, accountId: string, change: 'two_factor_enabled' | 'two_factor_disabled') =>
    notifySecurityChange({ db: app.db, mail: app.mail, log }, accountId, change);

  app.get('/api/account/two-factor', { schema: { response: { 200: TwoFactorStatusOut, ...errorResponses } } }, async (request) =>
    twoFactorStatus(app.db, request.auth!.accountId),
  );

  app.post('/api/account/two-factor/setup', { schema: { response: { 200: TwoFactorSetupOut, ...errorResponses } } }, async (request) => {
    const { account } = await loadProfile(app.db, request.auth!.accountId);
    return startTwoFactorSetup(app.db, account.id, account.email ?? account.username);
  });

  app.post('/api/account/two-factor/enable', { schema: { body: CodeBody, response: { 200: RecoveryCodesOut, ...errorResponses } } }, async (request) => {
    const codes = await enableTwoFactor(app.db, throttle, { accountId: request.auth!.accountId, code: request.body.code, ip: request.ip });
    await notify(request.log, request.auth!.accountId, 'two_factor_enabled');
    return codes;
  });

  app.post('/api/account/two-factor/disable', { schema: { body: CodeBody, response: { 200: Ok, ...errorResponses } } }, async (request) => {
    await disableTwoFactor(app.db, throttle, { accountId: request.auth!.accountId, code: request.body.code, ip: request.ip });
    await notify(request.log, request.auth!.accountId, 'two_factor_disabled');
    return { ok: true };
  });
};

export default twoFactor;
