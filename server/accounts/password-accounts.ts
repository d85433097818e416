/**
 * Accounts signed into with an email and a password (the `app` identity): sign-up, sign-in, and
 * the changes the account page makes to that identity. The API's auth and account routes call
 * these and only translate; docs/security.md says how passwords are stored and guesses slowed.
 */
import type { DB } from '../db/connection.ts';
import type { Account, Session } from '../db/database.ts';
import { AppError } from '../errors.ts';
import type { Language } from '../lib/language.ts';
import { attemptRefused, type AttemptThrottle } from './login-throttle.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../lib/password.ts';
import { requireEmail, requireNewPassword, requireTimeZone, requireUsername } from './validation.ts';
import {
  addIdentity,
  createAccount,
  findAccountByEmail,
  findAccountById,
  findIdentity,
  isUniqueViolation,
  normalizeEmail,
  updateAccount,
  updateIdentity,
} from '../repositories/accounts.ts';
import { revokeOtherSessions } from '../repositories/sessions.ts';
import { revokeAllAccessTokens } from './access-tokens.ts';
import { LONG_SESSION_MS, openSession, SHORT_SESSION_MS } from './sessions.ts';
import { refuseDisabledAccount } from './account-status.ts';
import { recognizeDevice, rememberDevice } from './known-devices.ts';
import { checkSecondFactor, isTwoFactorEnabled } from './two-factor.ts';
import type { SharedRecordStore } from '../coordination/shared-records.ts';

const emailTaken = () => new AppError('EMAIL_TAKEN', 'An account with this email already exists');

/** Runs a write that takes an address; losing a race for it to another account is EMAIL_TAKEN too. */
async function claimingEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

export interface SignUpInput {
  email: string;
  username: string;
  password: string;
  timezone?: string;
  /** The language the dashboard was in: the account's mails and bot messages use it. */
  language: Language | null;
}

/** Creates an account with its app identity; 409 EMAIL_TAKEN when the address is in use. */
export async function signUpWithPassword(db: DB, input: SignUpInput): Promise<Account> {
  const email = requireEmail(input.email);
  const username = requireUsername(input.username);
  const password = requireNewPassword(input.password);
  const timezone = input.timezone === undefined || input.timezone === '' ? 'UTC' : requireTimeZone(input.timezone);
  if (await findAccountByEmail(db, email)) throw emailTaken();
  const passwordHash = await hashPassword(password);
  return claimingEmail(() =>
    db.transaction().execute(async (trx) => {
      const created = await createAccount(trx, { email, username, timezone, locale: input.language });
      await addIdentity(trx, { account_id: created.id, provider: 'app', external_id: normalizeEmail(email), username, password_hash: passwordHash });
      return created;
    }),
  );
}

export interface SignInInput {
  email: string;
  password: string;
  rememberMe: boolean;
  /** The network the attempt comes from: failures are counted per account and per network. */
  ip: string;
  userAgent: string | undefined;
  /** The dashboard's language: taken by an account that has none yet. */
  language: Language | null;
  /** The browser's known-device cookie (known-devices.ts), if it sent one. */
  deviceToken: string | undefined;
}

/** A password accepted for an account with two-factor codes: waiting for its code (5 minutes). */
export interface PendingSignIn {
  accountId: string;
  rememberMe: boolean;
  /** The known device recognised with the password: the code is judged on its budget too. */
  device: string | null;
}

export type PendingSignIns = SharedRecordStore<PendingSignIn>;
export const PENDING_SIGN_IN_TTL_MS = 5 * 60 * 1000;

export type SignInResult =
  | { status: 'signed_in'; account: Account; token: string; session: Session; deviceToken: string }
  | { status: 'two_factor_required'; ticket: string };

/**
 * Checks the password, slowed down by the throttle after failures (429 RATE_LIMITED with
 * `retry_after_seconds`, answered before the password is hashed), and opens a session of 24
 * hours, or 30 days with "remember me". Answers the known-device token the browser keeps. An
 * account with two-factor codes gets a ticket instead, for completeTwoFactorSignIn.
 */
export async function signInWithPassword(db: DB, throttle: AttemptThrottle, input: SignInInput, pending: PendingSignIns): Promise<SignInResult> {
  const email = input.email.trim();
  if (!email || !input.password) throw new AppError('VALIDATION_FAILED', 'Email and password are required');
  const emailKey = normalizeEmail(email);
  // The owner's own browser is judged on its own budget: strangers' failures never hold it back.
  const device = await recognizeDevice(db, input.deviceToken, emailKey);
  // Counted as a failure from here on unless the password turns out right (see login-throttle.ts).
  const gate = await throttle.begin({ account: emailKey, ip: input.ip, device });
  if (!gate.allowed) throw attemptRefused(gate.retryAfterMs, 'Too many failed sign-in attempts.');
  let account: Account | undefined;
  let valid = false;
  try {
    account = await findAccountByEmail(db, email);
    const identity = account ? await findIdentity(db, account.id, 'app') : undefined;
    if (identity?.password_hash) valid = await verifyPassword(identity.password_hash, input.password);
    // Unknown emails cost a hash too, so the answer's timing does not tell which emails have an
    // account (a network spraying made-up names is slowed by the throttle before reaching here).
    else await burnPasswordCheck(input.password);
  } catch (err) {
    await gate.abandon();
    throw err;
  }
  if (!account || !valid) throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password');
  await gate.succeeded();
  refuseDisabledAccount(account);
  // Accounts made before Chime stored a language get the one the dashboard signs in with.
  if (!account.locale && input.language) {
    await updateAccount(db, account.id, { locale: input.language });
    account = { ...account, locale: input.language };
  }
  if (await isTwoFactorEnabled(db, account.id)) {
    return { status: 'two_factor_required', ticket: await pending.create({ accountId: account.id, rememberMe: input.rememberMe, device }) };
  }
  return finishSignIn(db, account, input.rememberMe, input);
}

/** Opens the session of a full sign-in (password, password and code, passkey) and remembers the browser. */
export async function finishSignIn(db: DB, account: Account, rememberMe: boolean, from: { userAgent: string | undefined; ip: string; deviceToken: string | undefined }) {
  const { token, session } = await openSession(db, account.id, rememberMe ? LONG_SESSION_MS : SHORT_SESSION_MS, from.userAgent, from.ip);
  const deviceToken = await rememberDevice(db, account.id, from.deviceToken);
  return { status: 'signed_in' as const, account, token, session, deviceToken };
}

export interface TwoFactorSignInInput {
  ticket: string;
  code: string;
  ip: string;
  userAgent: string | undefined;
  deviceToken: string | undefined;
  now?: number;
}

/**
 * The second step of a password sign-in with two-factor codes: the ticket of the accepted
 * password and a current code (or a recovery code). Wrong codes are throttled; the ticket
 * stays usable until it expires, and is used up by the right code.
 */
export async function completeTwoFactorSignIn(db: DB, throttle: AttemptThrottle, pending: PendingSignIns, input: TwoFactorSignInInput) {
  const expired = () => new AppError('TWO_FACTOR_TICKET_INVALID', 'This sign-in has expired. Enter your password again.');
  const signIn = await pending.peek(input.ticket);
  if (!signIn) throw expired();
  await checkSecondFactor(db, throttle, { accountId: signIn.accountId, code: input.code, ip: input.ip, device: signIn.device, now: input.now });
  if (!(await pending.take(input.ticket))) throw expired();
  const account = await findAccountById(db, signIn.accountId);
  if (!account) throw expired();
  refuseDisabledAccount(account);
  return finishSignIn(db, account, signIn.rememberMe, input);
}

/** Renames the account and its app identity. */
export async function changeUsername(db: DB, accountId: string, value: string): Promise<void> {
  const username = requireUsername(value);
  await db.transaction().execute(async (trx) => {
    await updateAccount(trx, accountId, { username });
    await updateIdentity(trx, accountId, 'app', { username });
  });
}

/** Moves the account to another address; 409 EMAIL_TAKEN when another account uses it. */
export async function changeEmail(db: DB, accountId: string, value: string): Promise<void> {
  const email = requireEmail(value);
  const holder = await findAccountByEmail(db, email);
  if (holder && holder.id !== accountId) throw emailTaken();
  await claimingEmail(() =>
    db.transaction().execute(async (trx) => {
      await updateAccount(trx, accountId, { email, email_normalized: normalizeEmail(email) });
      // The app identity's external_id is its email (what GET /api/account lists), so it follows the change.
      await updateIdentity(trx, accountId, 'app', { external_id: normalizeEmail(email) });
    }),
  );
}

export interface PasswordChange {
  accountId: string;
  /** The session asking: it stays signed in, every other one is signed out. */
  sessionId: string | null;
  current: string;
  next: string;
  ip: string;
}

/**
 * Changes the password, after checking the current one. Wrong current passwords are throttled
 * like sign-in, per (account, network): a stolen session cannot guess the password to take the
 * account over, and cannot lock its owner out either.
 */
export async function changePassword(db: DB, throttle: AttemptThrottle, change: PasswordChange): Promise<void> {
  const { accountId, current, next } = change;
  if (!current) throw new AppError('CURRENT_PASSWORD_REQUIRED', 'Current password is required');
  requireNewPassword(next, 'New password');
  if (next === current) throw new AppError('PASSWORD_UNCHANGED', 'New password must be different from current password');
  const identity = await findIdentity(db, accountId, 'app');
  if (!identity?.password_hash) throw new AppError('NO_APP_IDENTITY', 'This account has no password to change');
  const gate = await throttle.begin({ account: accountId, ip: change.ip });
  if (!gate.allowed) throw attemptRefused(gate.retryAfterMs, 'Too many wrong passwords.');
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
  await db.transaction().execute(async (trx) => {
    await updateIdentity(trx, accountId, 'app', { password_hash: hash });
    // Anyone holding an old session (a stolen token, another device) is signed out, and an access
    // token minted with it goes too.
    await revokeOtherSessions(trx, accountId, change.sessionId);
    await revokeAllAccessTokens(trx, accountId);
  });
}
