/**
 * Confirmed addresses: Chime sends reminders to an address only after someone who reads it opened
 * the link mailed to it (no reminders to strangers). Confirmation is per account and address.
 *
 * Saving a reminder with an unconfirmed address mails the link (the email module's onSaved), at
 * most once per CONFIRMATION_GAP_MS unless asked again explicitly, and within the hourly cap.
 */
import type { Config } from '../config.ts';
import type { DB } from '../db/connection.ts';
import { AppError } from '../errors.ts';
import { newToken, sha256Hex } from '../lib/ids.ts';
import type { Language } from '../lib/language.ts';
import { findAccountById } from '../repositories/accounts.ts';
import { confirmEmailAddress, type EmailAddress, enableFailingEmailDestinations, findEmailAddress, findEmailAddressByToken, listEmailAddresses, revertConfirmationToken, upsertConfirmationToken } from '../repositories/email.ts';
import { mailLanguage } from './i18n.ts';
import type { MailService } from './service.ts';
import { confirmationMail } from './templates.ts';
import { EMAIL_CODES } from './transport.ts';

export const CONFIRMATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** An automatic confirmation mail is not sent again to the same address within this time. */
export const CONFIRMATION_GAP_MS = 10 * 60 * 1000;
/** An explicit "send again" waits at least this long after the previous mail. */
export const RESEND_GAP_MS = 60 * 1000;
const MAX_TOKEN_LENGTH = 200;

export const normalizeAddress = (address: string) => address.trim().toLowerCase();
export const confirmationLink = (publicUrl: string, token: string) => `${publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;

export type AddressState = 'confirmed' | 'pending' | 'unconfirmed';

export interface AddressStatus {
  address: string;
  state: AddressState;
  confirmation_sent_at: string | null;
}

function stateOf(row: EmailAddress | undefined, now: number): AddressState {
  if (!row) return 'unconfirmed';
  if (row.confirmed_at) return 'confirmed';
  return row.token_expires_at && Date.parse(row.token_expires_at) > now ? 'pending' : 'unconfirmed';
}

export async function isConfirmed(db: DB, accountId: string, address: string): Promise<boolean> {
  const row = await findEmailAddress(db, accountId, normalizeAddress(address));
  return Boolean(row?.confirmed_at);
}

/** The account's known addresses and their state, for the dashboard. */
export async function listAddressStatuses(db: DB, accountId: string, now = Date.now()): Promise<AddressStatus[]> {
  const rows = await listEmailAddresses(db, accountId);
  return rows.map((r) => ({ address: r.address, state: stateOf(r, now), confirmation_sent_at: r.confirmation_sent_at }));
}

export interface ConfirmationDeps {
  db: DB;
  config: Pick<Config, 'publicUrl'>;
  mail: MailService | null;
}

/**
 * Mails a confirmation link to `address` unless it is confirmed. `explicit`: the owner pressed
 * "send again" (errors are thrown: too soon, hourly cap, SMTP); otherwise (a reminder was saved
 * with it) nothing is sent when a live link went out recently, and failures are only answered.
 */
export function requestConfirmation(
  deps: ConfirmationDeps,
  accountId: string,
  address: string,
  options: { explicit: boolean; language?: Language; now?: number },
): Promise<ConfirmationOutcome> {
  // The link is recorded only once the mail has left, so two reminders saved together with a new
  // address would each send one, and the second link would void the first. Within this process a
  // request for an address already being mailed waits for that mail's outcome instead.
  const key = `${accountId}\n${normalizeAddress(address)}`;
  const running = confirmationsInFlight.get(key);
  if (running && !options.explicit) return running;
  const request = sendConfirmation(deps, accountId, address, options).finally(() => {
    if (confirmationsInFlight.get(key) === request) confirmationsInFlight.delete(key);
  });
  confirmationsInFlight.set(key, request);
  return request;
}

type ConfirmationOutcome = { state: AddressState; sent: boolean; error?: { code: string; error: string } };

const confirmationsInFlight = new Map<string, Promise<ConfirmationOutcome>>();

async function sendConfirmation(
  deps: ConfirmationDeps,
  accountId: string,
  address: string,
  options: { explicit: boolean; language?: Language; now?: number },
): Promise<ConfirmationOutcome> {
  const now = options.now ?? Date.now();
  const normalized = normalizeAddress(address);
  const existing = await findEmailAddress(deps.db, accountId, normalized);
  const state = stateOf(existing, now);
  if (state === 'confirmed') return { state, sent: false };
  if (!deps.mail) throw new AppError('MAIL_NOT_CONFIGURED', 'Email is not configured on this server: ask its administrator');
  const sentAt = existing?.confirmation_sent_at ? Date.parse(existing.confirmation_sent_at) : 0;
  const gap = options.explicit ? RESEND_GAP_MS : CONFIRMATION_GAP_MS;
  if (state === 'pending' && now - sentAt < gap) {
    if (!options.explicit) return { state, sent: false };
    const seconds = Math.ceil((sentAt + gap - now) / 1000);
    throw new AppError('RATE_LIMITED', `A confirmation mail was just sent to this address. Try again in ${seconds} seconds.`, 429, { retry_after_seconds: seconds });
  }
  const account = await findAccountById(deps.db, accountId);
  if (!account) throw new AppError('NOT_FOUND', 'Account not found');
  const token = newToken();
  const link = confirmationLink(deps.config.publicUrl, token);
  const lang = account.locale ? mailLanguage(account.locale) : (options.language ?? 'en');
  const tokenHash = sha256Hex(token);
  // Recorded before the mail leaves: its reader may open the link the moment it arrives.
  await upsertConfirmationToken(deps.db, {
    account_id: accountId,
    address_normalized: normalized,
    address: address.trim(),
    token_hash: tokenHash,
    token_expires_at: new Date(now + CONFIRMATION_TTL_MS).toISOString(),
    now: new Date(now).toISOString(),
  });
  const result = await deps.mail.send(accountId, 'confirmation', address.trim(), confirmationMail(lang, account.username, link));
  if (!result.ok) {
    // A link that never arrived neither replaces the previous one nor holds back the next attempt.
    await revertConfirmationToken(deps.db, { account_id: accountId, address_normalized: normalized, token_hash: tokenHash }, existing);
    if (!options.explicit) return { state, sent: false, error: { code: result.code, error: result.error } };
    if (result.code === EMAIL_CODES.EMAIL_HOURLY_LIMIT) {
      const seconds = Math.ceil(result.retryAfterMs / 1000);
      throw new AppError('EMAIL_HOURLY_LIMIT', `${result.error}. Try again later.`, 429, { retry_after_seconds: seconds });
    }
    throw new AppError(result.code === EMAIL_CODES.EMAIL_REJECTED ? 'EMAIL_REJECTED' : 'EMAIL_SMTP_UNAVAILABLE', result.error);
  }
  return { state: 'pending', sent: true };
}

/**
 * Confirms the address of a link (no sign-in needed: the reader of the mailbox confirms). Its
 * destinations that were disabled for failing meanwhile (EMAIL_NOT_CONFIRMED 5 times on a
 * repeating reminder) are turned back on: `reenabled` lists them for the scheduler.
 */
export async function confirmAddress(db: DB, token: string, now = Date.now()): Promise<{ address: string; reenabled: string[] }> {
  if (!token || token.length > MAX_TOKEN_LENGTH) throw new AppError('CONFIRM_TOKEN_INVALID', 'This confirmation link is not valid');
  const tokenHash = sha256Hex(token);
  const confirmed = await db.transaction().execute(async (trx) => {
    const row = await confirmEmailAddress(trx, tokenHash, new Date(now).toISOString());
    return row ? { address: row.address, reenabled: await enableFailingEmailDestinations(trx, row.account_id, row.address_normalized) } : undefined;
  });
  if (confirmed) return confirmed;
  const row = await findEmailAddressByToken(db, tokenHash);
  if (row) throw new AppError('CONFIRM_TOKEN_EXPIRED', 'This confirmation link has expired: add the address to a reminder again, or send a new link from the dashboard');
  throw new AppError('CONFIRM_TOKEN_INVALID', 'This confirmation link is not valid, or was already used');
}
