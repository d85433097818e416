/**
 * Two-factor codes (docs/security.md "Two-factor codes"): TOTP (RFC 6238, 6 digits, 30 s, SHA-1:
 * what every authenticator app reads from the QR code) with `otpauth`, asked after the password;
 * 10 single-use recovery codes shown once and stored hashed. Wrong codes are throttled like
 * passwords (the same throttle, under the account's own counter), and a code is never taken twice.
 * Discord sign-in does not ask for it (Discord has its own).
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { DB } from '../db/connection.ts';
import { AppError } from '../errors.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { Executor } from '../repositories/executor.ts';
import {
  claimTotpStep,
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  findTwoFactor,
  markTwoFactorEnabled,
  putPendingTwoFactor,
  replaceRecoveryCodes,
  useRecoveryCode,
} from '../repositories/two-factor.ts';
import { attemptRefused, type AttemptThrottle } from './login-throttle.ts';

export const RECOVERY_CODE_COUNT = 10;
const PERIOD_S = 30;
const ISSUER = 'Chime';
// Lowercase letters and digits without the ones read alike (0/o, 1/l/i): "k7pq-3xrt-mz".
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const totpOf = (secret: string, label: string) => new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), digits: 6, period: PERIOD_S, algorithm: 'SHA1' });

/** The counter key of an account's code attempts in the login throttle. */
const throttleKey = (accountId: string) => `2fa:${accountId}`;

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 10)}`;
}

/** What a person types, as stored: case, spaces and dashes do not matter. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const hashRecoveryCode = (code: string) => sha256Hex(normalizeRecoveryCode(code));

export interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
}

export async function twoFactorStatus(db: Executor, accountId: string): Promise<TwoFactorStatus> {
  const row = await findTwoFactor(db, accountId);
  if (!row?.enabled_at) return { enabled: false, recovery_codes_left: 0 };
  return { enabled: true, recovery_codes_left: await countUnusedRecoveryCodes(db, accountId) };
}

export async function isTwoFactorEnabled(db: Executor, accountId: string): Promise<boolean> {
  return Boolean((await findTwoFactor(db, accountId))?.enabled_at);
}

/**
 * Starts a setup: a new secret, shown as an otpauth:// address and its QR code. Nothing is asked
 * at sign-in until the first code confirms it (enableTwoFactor). 409 when it is already on.
 */
export async function startTwoFactorSetup(db: Executor, accountId: string, label: string, now = Date.now()) {
  if (await isTwoFactorEnabled(db, accountId)) throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor codes are already on for this account');
  const secret = new Secret({ size: 20 }).base32;
  await putPendingTwoFactor(db, accountId, secret, new Date(now).toISOString());
  const otpauthUrl = totpOf(secret, label).toString();
  return { secret, otpauth_url: otpauthUrl, qr_data_url: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 240 }) };
}

export interface CodeAttempt {
  accountId: string;
  code: string;
  ip: string;
  /** The known device the browser presented (sign-in), if any: judged on its own budget. */
  device?: string | null;
  now?: number;
}

/** The 30-second step of a valid code for `secret` at `now` (one step of drift either way), or null. */
function validStep(secret: string, code: string, now: number): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret, '').validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/** Runs `check` as a throttled attempt: a refusal is 429 before anything is checked; a false answer is a failure. */
async function throttled(throttle: AttemptThrottle, attempt: CodeAttempt, check: () => Promise<boolean>): Promise<void> {
  const gate = await throttle.begin({ account: throttleKey(attempt.accountId), ip: attempt.ip, device: attempt.device ?? null });
  if (!gate.allowed) throw attemptRefused(gate.retryAfterMs, 'Too many wrong codes.');
  let ok: boolean;
  try {
    ok = await check();
  } catch (err) {
    await gate.abandon();
    throw err;
  }
  if (!ok) throw new AppError('TWO_FACTOR_CODE_INVALID', 'This code is not valid. Check the time on your phone, or use a recovery code.');
  await gate.succeeded();
}

/**
 * Turns two-factor codes on with the first code of the setup's secret; answers the 10 recovery
 * codes, shown this once (only their hashes are kept).
 */
export async function enableTwoFactor(db: DB, throttle: AttemptThrottle, attempt: CodeAttempt): Promise<{ recovery_codes: string[] }> {
  const now = attempt.now ?? Date.now();
  const row = await findTwoFactor(db, attempt.accountId);
  if (row?.enabled_at) throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor codes are already on for this account');
  if (!row) throw new AppError('TWO_FACTOR_NOT_STARTED', 'Start the setup first: scan the QR code, then enter its code');
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await throttled(throttle, attempt, async () => {
    const step = validStep(row.secret, attempt.code, now);
    if (step === null) return false;
    const at = new Date(now).toISOString();
    await db.transaction().execute(async (trx) => {
      await markTwoFactorEnabled(trx, attempt.accountId, at, step);
      await replaceRecoveryCodes(trx, attempt.accountId, codes.map(hashRecoveryCode), at);
    });
    return true;
  });
  return { recovery_codes: codes };
}

/**
 * Checks a second factor of an account that has it on: a current TOTP code not used before, or
 * an unused recovery code (used up by this). Throttled; 400 TWO_FACTOR_CODE_INVALID when wrong.
 */
export async function checkSecondFactor(db: DB, throttle: AttemptThrottle, attempt: CodeAttempt): Promise<'totp' | 'recovery'> {
  const now = attempt.now ?? Date.now();
  const row = await findTwoFactor(db, attempt.accountId);
  if (!row?.enabled_at) throw new AppError('TWO_FACTOR_NOT_ENABLED', 'Two-factor codes are not on for this account');
  let used: 'totp' | 'recovery' = 'totp';
  await throttled(throttle, attempt, async () => {
    const step = validStep(row.secret, attempt.code, now);
    if (step !== null) return claimTotpStep(db, attempt.accountId, step);
    const recovery = normalizeRecoveryCode(attempt.code);
    if (recovery.length !== 10) return false;
    used = 'recovery';
    return useRecoveryCode(db, attempt.accountId, hashRecoveryCode(recovery), new Date(now).toISOString());
  });
  return used;
}

/** Turns two-factor codes off, with a current code or a recovery code. */
export async function disableTwoFactor(db: DB, throttle: AttemptThrottle, attempt: CodeAttempt): Promise<void> {
  await checkSecondFactor(db, throttle, attempt);
  await deleteTwoFactor(db, attempt.accountId);
}

/** Turns two-factor codes off without a code: the administrator's command, after checking who asks offline. */
export async function removeTwoFactor(db: Executor, accountId: string): Promise<boolean> {
  return deleteTwoFactor(db, accountId);
}
