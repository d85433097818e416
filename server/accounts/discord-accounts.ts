/**
 * Accounts of Discord users, for the bot and the Discord sign-in alike.
 *
 * A Discord user gets a Chime account the first time they use the bot or sign in with Discord:
 * no email, UTC, and a discord identity whose external_id is the Discord user id. Whichever comes
 * second finds that identity, so both land in the same account. Such an account "needs setup"
 * (email and password) before the dashboard lets it in; until then, linking the Discord user from
 * another account absorbs it.
 */
import type { Account } from '../db/database.ts';
import type { DB } from '../db/connection.ts';
import type { DiscordTokenSet } from '../discord/rest.ts';
import { tokenExpiry } from '../discord/rest.ts';
import { AppError } from '../errors.ts';
import { hashPassword } from '../lib/password.ts';
import { requireEmail, requireNewPassword, requireTimeZone, requireUsername } from './validation.ts';
import {
  addIdentity,
  createDiscordAccount,
  findAccountByEmail,
  findAccountById,
  findIdentity,
  findIdentityByExternalId,
  type IdentityGrant,
  isUniqueViolation,
  listIdentities,
  moveAccountInto,
  normalizeEmail,
  updateAccount,
  updateIdentity,
  updateIdentityById,
} from '../repositories/accounts.ts';
import { refuseDisabledAccount } from './account-status.ts';
import type { Executor } from '../repositories/executor.ts';
import { findServerSettings } from '../repositories/servers.ts';

/** What Chime needs of a Discord user (a discord.js `User` or Discord's `/users/@me`). */
export interface DiscordUserLike {
  id: string;
  username: string;
}

/** The account name of a new Discord-only account: the Discord username (the user can change it at setup). */
export function discordAccountUsername(user: DiscordUserLike): string {
  return (user.username || `discord-${user.id}`).slice(0, 64);
}

export async function findAccountForDiscordUser(db: Executor, discordUserId: string): Promise<Account | undefined> {
  const identity = await findIdentityByExternalId(db, 'discord', discordUserId);
  return identity ? findAccountById(db, identity.account_id) : undefined;
}

/**
 * The only way a Discord-only account is created. When a concurrent request (two interactions of
 * a brand-new user, the bot and a sign-in, a second tab) created it first, the unique identity
 * makes this insert fail and that account is used instead, with `grant` saved on its identity.
 */
async function createOrAdoptDiscordAccount(db: DB, user: DiscordUserLike, locale: string | null, grant: IdentityGrant | null, timezone = 'UTC'): Promise<Account> {
  try {
    return await db.transaction().execute((trx) =>
      createDiscordAccount(trx, {
        username: discordAccountUsername(user),
        timezone,
        locale,
        discordUserId: user.id,
        discordUsername: user.username,
        grant: grant ?? undefined,
      }),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const identity = await findIdentityByExternalId(db, 'discord', user.id);
    const account = identity ? await findAccountById(db, identity.account_id) : undefined;
    if (!identity || !account) throw err;
    if (grant) await updateIdentityById(db, identity.id, { username: user.username, ...grant });
    return account;
  }
}

/**
 * The bot: the account of the Discord user who runs a command, created on first use. `locale`
 * (the Discord client's) fills an account that has none yet. A command run in a server whose
 * managers set a `default_timezone` creates the account in that zone instead of UTC
 * (docs/servers.md "Settings and rules"); an existing account keeps the zone it has.
 */
export async function ensureAccountForDiscordUser(db: DB, user: DiscordUserLike, locale: string | null, guildId: string | null = null): Promise<Account> {
  const existing = await findAccountForDiscordUser(db, user.id);
  if (existing) {
    refuseDisabledAccount(existing);
    if (!existing.locale && locale) {
      await updateAccount(db, existing.id, { locale });
      return { ...existing, locale };
    }
    return existing;
  }
  const serverZone = guildId ? ((await findServerSettings(db, guildId))?.default_timezone ?? null) : null;
  return createOrAdoptDiscordAccount(db, user, locale, null, serverZone ?? undefined);
}

function grantOf(tokens: DiscordTokenSet): IdentityGrant {
  return {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? null,
    token_expires_at: tokenExpiry(tokens),
    scope: tokens.scope ?? null,
  };
}

/**
 * Discord sign-in: the account of a known Discord user (its stored tokens replaced by the new
 * grant), or a new Discord-only account; `needsSetup` when it has no email and password yet.
 */
export async function signInDiscordUser(
  db: DB,
  user: DiscordUserLike & { locale?: string | null | undefined },
  tokens: DiscordTokenSet,
): Promise<{ account: Account; needsSetup: boolean }> {
  const grant = grantOf(tokens);
  const known = await findIdentityByExternalId(db, 'discord', user.id);
  let account = known ? await findAccountById(db, known.account_id) : undefined;
  if (account) refuseDisabledAccount(account);
  if (known && account) await updateIdentityById(db, known.id, { username: user.username, ...grant });
  else account = await createOrAdoptDiscordAccount(db, user, user.locale ?? null, grant);
  return { account, needsSetup: await needsDiscordSetup(db, account) };
}

/** The Discord user id of the account, for calls made on its behalf; 403 when Discord is not connected. */
export async function requireDiscordUserId(db: Executor, accountId: string): Promise<string> {
  const identity = await findIdentity(db, accountId, 'discord');
  if (!identity) throw new AppError('DISCORD_IDENTITY_REQUIRED', 'Connect your Discord account first', 403);
  return identity.external_id;
}

/** A Discord-only account (first sign-in, or created by the bot) without email or password yet. */
export async function needsDiscordSetup(db: Executor, account: Account): Promise<boolean> {
  if (account.email) return false;
  return !(await listIdentities(db, account.id)).some((i) => i.provider === 'app');
}

/**
 * Connects the Discord user to the signed-in account. A Discord user already known by an account
 * nobody set up (made by the bot) moves with everything of that account; one known by a real
 * account is refused.
 */
export async function linkDiscordUser(db: DB, accountId: string, user: DiscordUserLike, tokens: DiscordTokenSet): Promise<Account> {
  const account = await findAccountById(db, accountId);
  if (!account) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists', 401);
  const fields = { username: user.username, ...grantOf(tokens) };
  await db.transaction().execute(async (trx) => {
    const own = await findIdentity(trx, accountId, 'discord');
    if (own && own.external_id !== user.id) {
      throw new AppError('DISCORD_ALREADY_LINKED', 'Your Chime account is already connected to a different Discord account', 409);
    }
    const elsewhere = await findIdentityByExternalId(trx, 'discord', user.id);
    if (elsewhere && elsewhere.account_id !== accountId) {
      const other = await findAccountById(trx, elsewhere.account_id);
      if (!other || !(await needsDiscordSetup(trx, other))) {
        throw new AppError('DISCORD_ALREADY_LINKED', 'This Discord account is already linked to another Chime account', 409);
      }
      await moveAccountInto(trx, other.id, accountId);
    }
    if (own || elsewhere) await updateIdentity(trx, accountId, 'discord', fields);
    else await addIdentity(trx, { account_id: accountId, provider: 'discord', external_id: user.id, ...fields });
  });
  return account;
}

export const DISCORD_SETUP_EXPIRED = 'Your Discord sign-up has expired. Sign in with Discord again to finish creating your account.';

/** What a first-time Discord user sends to finish their account (unvalidated). */
export interface DiscordSetupInput {
  email?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  timezone?: string | undefined;
}

/**
 * Gives a Discord-only account its email, name, zone and password (an app identity), so it can
 * use the dashboard. Answers the updated account.
 */
export async function completeDiscordSetup(db: DB, accountId: string, input: DiscordSetupInput): Promise<Account> {
  const account = await findAccountById(db, accountId);
  if (!account) throw new AppError('FORBIDDEN', DISCORD_SETUP_EXPIRED, 403);
  if (!(await needsDiscordSetup(db, account))) {
    throw new AppError('FORBIDDEN', 'This account is already set up. Sign in with your email or with Discord.', 409);
  }

  const email = requireEmail(input.email);
  const username = requireUsername(input.username);
  const password = requireNewPassword(input.password);
  const rawZone = input.timezone?.trim();
  const timezone = rawZone ? requireTimeZone(rawZone) : 'UTC';
  const taken = await findAccountByEmail(db, email);
  if (taken && taken.id !== account.id) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists', 409);

  const passwordHash = await hashPassword(password);
  try {
    await db.transaction().execute(async (trx) => {
      await updateAccount(trx, account.id, { email, email_normalized: normalizeEmail(email), username, timezone });
      await addIdentity(trx, { account_id: account.id, provider: 'app', external_id: normalizeEmail(email), username, password_hash: passwordHash });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN', 'An account with this email already exists', 409);
    throw err;
  }
  return (await findAccountById(db, account.id))!;
}
