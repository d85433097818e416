/**
 * Passkeys (WebAuthn, docs/security.md "Passkeys") with @simplewebauthn/server: an account adds
 * passkeys (at most 10), names, lists and removes them, and signs in with one instead of a
 * password. A passkey is a full sign-in: it opens the same session as a password and does not ask
 * for a two-factor code (the authenticator is already something the owner has, unlocked by them).
 *
 * - The relying party is PUBLIC_URL: its host name is the RP id a passkey is bound to, its origin
 *   the only one accepted.
 * - Passkeys are discoverable (resident keys): a sign-in needs no email; the authenticator says
 *   which credential it used, and its user handle is the account's id.
 * - Each registration or sign-in gets a challenge kept server-side (short-lived records: every
 *   instance sees it), single use and valid 5 minutes; the browser gets a ticket naming it.
 * - A signature counter that does not grow (when the authenticator keeps one) is refused: the
 *   passkey may have been cloned.
 * - A sign-in goes through the login throttle like a password: a failed check counts, under the
 *   account's email when the passkey is known, so spraying networks are slowed the same way.
 */
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import type { DB } from '../db/connection.ts';
import type { Account } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { importWebAuthn } from '../lib/load-on-use.ts';
import type { RateWindow } from '../coordination/rate-window.ts';
import type { SharedRecordStore } from '../coordination/shared-records.ts';
import { findAccountById, isUniqueViolation, lockAccountForWrites } from '../repositories/accounts.ts';
import type { Executor } from '../repositories/executor.ts';
import {
  countPasskeys,
  deletePasskey,
  deletePasskeysOfAccount,
  findPasskeyByCredentialId,
  insertPasskey,
  listPasskeys,
  markPasskeyUsed,
  renamePasskey,
} from '../repositories/passkeys.ts';
import { refuseDisabledAccount } from './account-status.ts';
import { recognizeDevice } from './known-devices.ts';
import { attemptRefused, type AttemptThrottle, networkOf } from './login-throttle.ts';
import { finishSignIn } from './password-accounts.ts';

export const MAX_PASSKEYS = 10;
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
const NAME_MAX = 100;
const RP_NAME = 'Chime';

/** Where passkeys are valid: the host name of PUBLIC_URL (the RP id) and its origin. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** A challenge waiting for its answer: for whom (registration) and what was asked. */
export interface PasskeyChallenge {
  challenge: string;
  /** The account adding a passkey; null for a sign-in (the passkey says whose it is). */
  accountId: string | null;
}

export type PasskeyChallenges = SharedRecordStore<PasskeyChallenge>;

export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
}

const present = (row: { id: string; name: string; created_at: string; last_used_at: string | null; device_type: 'singleDevice' | 'multiDevice'; backed_up: number }): PasskeyView => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  device_type: row.device_type,
  backed_up: row.backed_up === 1,
});

const notFound = () => new AppError('PASSKEY_NOT_FOUND', 'Passkey not found');
const challengeInvalid = () => new AppError('PASSKEY_CHALLENGE_INVALID', 'This passkey request has expired or was already used. Try again.');

/** The user handle of an account's passkeys: its id, so a sign-in can check whose passkey answered. */
const userHandleOf = (accountId: string) => new TextEncoder().encode(accountId);

function requireName(value: string): string {
  const name = value.trim();
  if (!name) throw new AppError('PASSKEY_NAME_REQUIRED', 'Give the passkey a name');
  if (name.length > NAME_MAX) throw new AppError('VALIDATION_FAILED', `A passkey name has at most ${NAME_MAX} characters`);
  return name;
}

export async function listAccountPasskeys(db: Executor, accountId: string): Promise<PasskeyView[]> {
  return (await listPasskeys(db, accountId)).map(present);
}

/** The options for navigator.credentials.create(), and the ticket that names their challenge. */
export async function startPasskeyRegistration(
  db: Executor,
  challenges: PasskeyChallenges,
  rp: RelyingParty,
  account: Pick<Account, 'id' | 'email' | 'username'>,
  /** Registrations an account may start per window: each stores a challenge, like a sign-in's. */
  perAccount: RateWindow,
): Promise<{ ticket: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const wait = await perAccount.hit(account.id);
  if (wait !== null) throw attemptRefused(wait, 'Too many passkey registrations were started.');
  const existing = await listPasskeys(db, account.id);
  if (existing.length >= MAX_PASSKEYS) throw new AppError('PASSKEY_LIMIT', `An account has at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
  const { generateRegistrationOptions } = await importWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: account.email ?? account.username,
    userDisplayName: account.username,
    userID: userHandleOf(account.id),
    attestationType: 'none',
    // The authenticator must keep the credential (a discoverable one): signing in needs no email.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: parseTransports(p.transports) })),
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  const ticket = await challenges.create({ challenge: options.challenge, accountId: account.id });
  return { ticket, options };
}

function parseTransports(value: string | null): AuthenticatorTransport[] | undefined {
  if (!value) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed.filter((t) => typeof t === 'string') as AuthenticatorTransport[]) : undefined;
  } catch {
    return undefined;
  }
}

export interface RegistrationInput {
  accountId: string;
  ticket: string;
  name: string;
  response: RegistrationResponseJSON;
  now?: number;
}

/** Checks the authenticator's answer to the registration's challenge and keeps the passkey. */
export async function finishPasskeyRegistration(db: DB, challenges: PasskeyChallenges, rp: RelyingParty, input: RegistrationInput): Promise<PasskeyView> {
  const name = requireName(input.name);
  // Taken whatever happens next: a challenge is answered once.
  const pending = await challenges.take(input.ticket);
  if (!pending || pending.accountId !== input.accountId) throw challengeInvalid();
  const { verifyRegistrationResponse } = await importWebAuthn();
  let verification: VerifiedRegistrationResponse;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: pending.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
  } catch (err) {
    throw new AppError('PASSKEY_INVALID', `The passkey could not be checked: ${(err as Error).message}`);
  }
  if (!verification.verified) throw new AppError('PASSKEY_INVALID', 'The passkey could not be checked');
  const info = verification.registrationInfo;
  const alreadyAdded = () => new AppError('PASSKEY_ALREADY_REGISTERED', 'This passkey is already added');
  const row = {
    id: newId(),
    account_id: input.accountId,
    credential_id: info.credential.id,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: info.credential.transports?.length ? JSON.stringify(info.credential.transports) : null,
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp ? 1 : 0,
    name,
    created_at: new Date(input.now ?? Date.now()).toISOString(),
    last_used_at: null,
  };
  try {
    // The count and the insert in one transaction, after the account's lock (SQLite: one writing
    // transaction at a time): registrations finishing together count one after the other, so the
    // limit holds however many race for the last place.
    await db.transaction().execute(async (trx) => {
      await lockAccountForWrites(trx, input.accountId);
      if (await findPasskeyByCredentialId(trx, info.credential.id)) throw alreadyAdded();
      if ((await countPasskeys(trx, input.accountId)) >= MAX_PASSKEYS) throw new AppError('PASSKEY_LIMIT', `An account has at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
      await insertPasskey(trx, row);
    });
  } catch (err) {
    // The same answer sent twice at once: one of them adds it.
    if (isUniqueViolation(err)) throw alreadyAdded();
    throw err;
  }
  return present(row);
}

export async function renameAccountPasskey(db: Executor, accountId: string, id: string, name: string): Promise<void> {
  if (!(await renamePasskey(db, accountId, id, requireName(name)))) throw notFound();
}

export async function removeAccountPasskey(db: Executor, accountId: string, id: string): Promise<void> {
  if (!(await deletePasskey(db, accountId, id))) throw notFound();
}

/**
 * Removes every passkey of the account (the administrator's command, for an owner whose passkeys
 * are lost or in someone else's hands); answers their names.
 */
export async function removeAllPasskeys(db: Executor, accountId: string): Promise<string[]> {
  return deletePasskeysOfAccount(db, accountId);
}

/**
 * The options for navigator.credentials.get() (no credential listed: any passkey of this site), and
 * their ticket. Anyone may ask, and each answer stores a challenge: a network is held to
 * `perNetwork` (429 RATE_LIMITED with Retry-After, nothing stored), so one client cannot fill the
 * table; expired challenges are swept by the store.
 */
export async function startPasskeySignIn(
  challenges: PasskeyChallenges,
  rp: RelyingParty,
  from: { perNetwork: RateWindow; ip: string },
): Promise<{ ticket: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const wait = await from.perNetwork.hit(networkOf(from.ip));
  if (wait !== null) throw attemptRefused(wait, 'Too many passkey sign-ins were started from this network.');
  const { generateAuthenticationOptions } = await importWebAuthn();
  const options = await generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_TTL_MS });
  const ticket = await challenges.create({ challenge: options.challenge, accountId: null });
  return { ticket, options };
}

export interface PasskeySignInInput {
  ticket: string;
  response: AuthenticationResponseJSON;
  rememberMe: boolean;
  ip: string;
  userAgent: string | undefined;
  deviceToken: string | undefined;
  now?: number;
}

/**
 * Signs in with the authenticator's answer to a sign-in challenge: the passkey is found by its
 * credential id, its signature and counter checked, and a session opened as with a password.
 * Throttled like a password (429 RATE_LIMITED before anything is checked); every refusal counts.
 */
export async function finishPasskeySignIn(db: DB, throttle: AttemptThrottle, challenges: PasskeyChallenges, rp: RelyingParty, input: PasskeySignInInput) {
  const passkey = await findPasskeyByCredentialId(db, input.response.id);
  const owner = passkey ? await findAccountById(db, passkey.account_id) : undefined;
  // Counted with the account's password attempts when the passkey is known (same budget, same
  // known device); an unknown credential only spends its network's budget.
  const throttleKey = owner ? (owner.email_normalized ?? `account:${owner.id}`) : `passkey:${input.response.id}`;
  const device = owner?.email_normalized ? await recognizeDevice(db, input.deviceToken, owner.email_normalized) : null;
  const gate = await throttle.begin({ account: throttleKey, ip: input.ip, device });
  if (!gate.allowed) throw attemptRefused(gate.retryAfterMs, 'Too many failed sign-in attempts.');
  try {
    const pending = await challenges.take(input.ticket);
    if (!pending || pending.accountId !== null) throw challengeInvalid();
    if (!passkey || !owner) throw new AppError('PASSKEY_UNKNOWN', 'This passkey is not known here. It may have been removed from the account.');
    const handle = input.response.response.userHandle;
    if (handle && handle !== Buffer.from(userHandleOf(owner.id)).toString('base64url')) throw new AppError('PASSKEY_SIGN_IN_FAILED', 'The passkey could not be checked');
    const { verifyAuthenticationResponse } = await importWebAuthn();
    let verification: VerifiedAuthenticationResponse;
    try {
      verification = await verifyAuthenticationResponse({
        response: input.response,
        expectedChallenge: pending.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')), counter: Number(passkey.counter), transports: parseTransports(passkey.transports) },
        requireUserVerification: false,
      });
    } catch (err) {
      const message = (err as Error).message;
      if (/counter/i.test(message)) throw new AppError('PASSKEY_COUNTER_INVALID', 'This passkey’s signature counter went back: it may have been copied. Remove it and add it again.');
      throw new AppError('PASSKEY_SIGN_IN_FAILED', `The passkey could not be checked: ${message}`);
    }
    if (!verification.verified) throw new AppError('PASSKEY_SIGN_IN_FAILED', 'The passkey could not be checked');
    const { newCounter, credentialBackedUp } = verification.authenticationInfo;
    const used = await markPasskeyUsed(db, passkey.id, Number(passkey.counter), newCounter, new Date(input.now ?? Date.now()).toISOString(), credentialBackedUp);
    // Another sign-in moved the counter since it was read: the same counter twice is a copy's.
    if (!used && newCounter > 0) throw new AppError('PASSKEY_COUNTER_INVALID', 'This passkey’s signature counter went back: it may have been copied. Remove it and add it again.');
  } catch (err) {
    // A refusal stays counted; a server error is not a guess.
    if (!(err instanceof AppError)) await gate.abandon();
    throw err;
  }
  await gate.succeeded();
  refuseDisabledAccount(owner);
  return finishSignIn(db, owner, input.rememberMe, input);
}
