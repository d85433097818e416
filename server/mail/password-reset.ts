/**
 * Password reset (docs/operations.md "Email"): a single-use link valid one hour, sent by mail when SMTP is
 * set, printed by `npm run admin -- reset-password <email>` otherwise. Only the SHA-256 of a
 * link's token is stored; using it sets the password and signs every session out.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DB } from '../db/connection.ts';
import { AppError } from '../errors.ts';
import { newToken, sha256Hex } from '../lib/ids.ts';
import type { Language } from '../lib/language.ts';
import { hashPassword } from '../lib/password.ts';
import { requireNewPassword } from '../accounts/validation.ts';
import { addIdentity, findAccountByEmail, findAccountById, findIdentity, normalizeEmail, updateIdentity } from '../repositories/accounts.ts';
import { consumeResetToken, deleteStaleResetTokens, expireResetTokens, findResetToken, insertResetToken } from '../repositories/email.ts';
import { revokeOtherSessions } from '../repositories/sessions.ts';
import { revokeAllAccessTokens } from '../accounts/access-tokens.ts';
import { mailLanguage } from './i18n.ts';
import type { MailService } from './service.ts';
import { passwordResetMail } from './templates.ts';

export const RESET_TTL_MS = 60 * 60 * 1000;
/** Tokens are 43 base64url characters; anything far longer is not one of ours. */
const MAX_TOKEN_LENGTH = 200;

export const resetLink = (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;

/** A new single-use link for the account (stored as a hash); answers the full URL. */
export async function issueResetLink(db: DB, config: Pick<Config, 'publicUrl'>, accountId: string, now = Date.now()): Promise<string> {
  const token = newToken();
  await deleteStaleResetTokens(db, new Date(now - 24 * RESET_TTL_MS).toISOString());
  await insertResetToken(db, {
    token_hash: sha256Hex(token),
    account_id: accountId,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + RESET_TTL_MS).toISOString(),
  });
  return resetLink(config.publicUrl, token);
}

export interface ResetDeps {
  db: DB;
  config: Pick<Config, 'publicUrl'>;
  mail: MailService;
  log: FastifyBaseLogger;
}

/**
 * Mails a link when an account has this email; does nothing otherwise. The caller answers the
 * same either way, and does not wait for the SMTP server (its delay would tell which emails
 * exist): the mail leaves in the background, failures are logged.
 */
export async function requestPasswordReset(deps: ResetDeps, email: string, requestLanguage: Language): Promise<void> {
  const account = await findAccountByEmail(deps.db, email);
  if (!account?.email) return;
  const link = await issueResetLink(deps.db, deps.config, account.id);
  const lang = account.locale ? mailLanguage(account.locale) : requestLanguage;
  const content = passwordResetMail(lang, account.email, link);
  void deps.mail
    .send(account.id, 'password_reset', account.email, content)
    .then((result) => {
      if (!result.ok) deps.log.warn({ code: result.code, error: result.error }, 'password reset mail not sent');
    })
    .catch((err: unknown) => deps.log.error({ err }, 'password reset mail failed'));
}

/**
 * Sets the password of the link's account and signs out every session. The password is checked
 * first (a too-short one does not burn the link); the link is used in one UPDATE, so two parallel
 * uses cannot both succeed.
 */
export async function confirmPasswordReset(db: DB, token: string, password: string, now = Date.now()): Promise<void> {
  if (!token || token.length > MAX_TOKEN_LENGTH) throw new AppError('RESET_TOKEN_INVALID', 'This password reset link is not valid');
  requireNewPassword(password);
  const tokenHash = sha256Hex(token);
  const found = await findResetToken(db, tokenHash);
  if (!found) throw new AppError('RESET_TOKEN_INVALID', 'This password reset link is not valid');
  if (found.used_at) throw new AppError('RESET_TOKEN_USED', 'This password reset link was already used');
  const nowIso = new Date(now).toISOString();
  if (found.expires_at <= nowIso) throw new AppError('RESET_TOKEN_EXPIRED', 'This password reset link has expired');
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const accountId = await consumeResetToken(trx, tokenHash, new Date().toISOString());
    if (!accountId) throw new AppError('RESET_TOKEN_USED', 'This password reset link was already used');
    const account = await findAccountById(trx, accountId);
    if (!account) throw new AppError('RESET_TOKEN_INVALID', 'This password reset link is not valid');
    if (await findIdentity(trx, accountId, 'app')) {
      await updateIdentity(trx, accountId, 'app', { password_hash: passwordHash });
    } else if (account.email) {
      // An account without a password yet (Discord sign-up with an email): this gives it one.
      await addIdentity(trx, { account_id: accountId, provider: 'app', external_id: normalizeEmail(account.email), username: account.username, password_hash: passwordHash });
    } else {
      throw new AppError('NO_APP_IDENTITY', 'This account has no email to sign in with');
    }
    await expireResetTokens(trx, accountId, nowIso);
    await revokeOtherSessions(trx, accountId, null);
    await revokeAllAccessTokens(trx, accountId);
  });
}
