/**
 * An account's profile: what the account page shows and the settings any signed-in account may
 * change (time zone, language), and closing the account. The API's account routes and the bot's
 * /timezone call these, so a rule is the same wherever it is used.
 */
import type { DB } from '../db/connection.ts';
import type { Account, Identity } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { LANGUAGES, type Language } from '../lib/language.ts';
import { requireTimeZone } from './validation.ts';
import { deleteAccount, findAccountById, listIdentities, updateAccount } from '../repositories/accounts.ts';

export interface AccountProfile {
  account: Account;
  identities: Identity[];
}

/** The signed-in account and its identities; an account deleted meanwhile ends the session (401). */
export async function loadProfile(db: DB, accountId: string): Promise<AccountProfile> {
  const account = await findAccountById(db, accountId);
  if (!account) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists');
  return { account, identities: await listIdentities(db, accountId) };
}

/** Which ways of signing in the account has. */
export async function signInMethods(db: DB, accountId: string): Promise<{ discord: boolean; app: boolean }> {
  const identities = await listIdentities(db, accountId);
  return { discord: identities.some((i) => i.provider === 'discord'), app: identities.some((i) => i.provider === 'app') };
}

/**
 * Sets the account's zone, the one its dates are read and shown in. `value` is an IANA name, or
 * (older dashboards) an object carrying it as `iana_location`, then `name`. Answers the canonical
 * name; 400 INVALID_TIMEZONE otherwise.
 */
export async function setAccountTimeZone(db: DB, accountId: string, value: unknown): Promise<string> {
  const named = value && typeof value === 'object' ? ((value as Record<string, unknown>).iana_location ?? (value as Record<string, unknown>).name) : value;
  const timezone = requireTimeZone(named);
  await updateAccount(db, accountId, { timezone });
  return timezone;
}

/** Sets the language of the account's mails and bot messages; 400 VALIDATION_FAILED for anything but en, fr, es. */
export async function setAccountLanguage(db: DB, accountId: string, value: unknown): Promise<Language> {
  const language = LANGUAGES.find((l) => l === value);
  if (!language) throw new AppError('VALIDATION_FAILED', `Language must be one of ${LANGUAGES.join(', ')}`);
  await updateAccount(db, accountId, { locale: language });
  return language;
}

/** Deletes the account and everything it owns (reminders, deliveries, sessions, identities). */
export async function closeAccount(db: DB, accountId: string): Promise<void> {
  await db.transaction().execute((trx) => deleteAccount(trx, accountId));
}
