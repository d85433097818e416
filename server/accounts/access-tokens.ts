import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import {
  type AccessTokenListing,
  countAccessTokensOfAccount,
  deleteAccessTokenOfAccount,
  deleteAccessTokensOfAccount,
  findLiveAccessTokenByHash,
  insertAccessToken,
  listAccessTokensOfAccount,
  touchAccessToken,
} from '../repositories/access-tokens.ts';
import type { Executor } from '../repositories/executor.ts';

/**
 * Personal access tokens (docs/api.md "Personal access tokens"): a credential for scripts that
 * reaches the reminder routes its scopes allow, and nothing of the account itself.
 */

/** What tells a token from a session token in an `Authorization: Bearer` header. */
export const ACCESS_TOKEN_PREFIX = 'chime_pat_';
export const TOKEN_SCOPES = ['reminders:read', 'reminders:write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const MAX_TOKENS_PER_ACCOUNT = 20;
export const MAX_TOKEN_NAME_LENGTH = 100;
export const MAX_EXPIRY_DAYS = 365;
/** last_used_at is written at most this often per token: reads must not each become a write. */
export const TOUCH_INTERVAL_MS = 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AccessTokenOut {
  id: string;
  name: string;
  scopes: TokenScope[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface NewAccessToken {
  name: string;
  scopes: readonly string[];
  expires_in_days?: number | null;
}

/** A token's look: `chime_pat_` and 256 random bits in base64url (43 characters). */
export const isAccessToken = (bearer: string): boolean => bearer.startsWith(ACCESS_TOKEN_PREFIX);

function present(row: AccessTokenListing): AccessTokenOut {
  return { id: row.id, name: row.name, scopes: parseScopes(row.scopes), created_at: row.created_at, expires_at: row.expires_at, last_used_at: row.last_used_at };
}

const parseScopes = (stored: string): TokenScope[] => TOKEN_SCOPES.filter((s) => stored.split(' ').includes(s));

/** Read is always granted; write only with it (a token that may write may read what it wrote). */
function requireScopes(scopes: readonly string[]): TokenScope[] {
  const unique = new Set(scopes);
  const known = [...unique].every((s) => (TOKEN_SCOPES as readonly string[]).includes(s));
  if (!known || !unique.has('reminders:read')) {
    throw new AppError('TOKEN_SCOPES_INVALID', 'Scopes must be ["reminders:read"] or ["reminders:read", "reminders:write"]');
  }
  return TOKEN_SCOPES.filter((s) => unique.has(s));
}

function requireName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new AppError('TOKEN_NAME_REQUIRED', 'Give the token a name');
  if (trimmed.length > MAX_TOKEN_NAME_LENGTH) throw new AppError('TOKEN_NAME_REQUIRED', `A token name has at most ${MAX_TOKEN_NAME_LENGTH} characters`);
  return trimmed;
}

function requireExpiry(days: number | null | undefined): number | null {
  if (days === undefined || days === null) return null;
  if (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRY_DAYS) {
    throw new AppError('TOKEN_EXPIRY_INVALID', `A token expires after 1 to ${MAX_EXPIRY_DAYS} days, or never`);
  }
  return days;
}

/** Creates a token; the answer is the only time its secret is shown (only its hash is stored). */
export async function createAccessToken(db: Kysely<Database>, accountId: string, input: NewAccessToken, now = Date.now()): Promise<AccessTokenOut & { token: string }> {
  const name = requireName(input.name);
  const scopes = requireScopes(input.scopes);
  const days = requireExpiry(input.expires_in_days);
  const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = {
    id: newId(),
    account_id: accountId,
    name,
    scopes: scopes.join(' '),
    token_hash: sha256Hex(token),
    created_at: new Date(now).toISOString(),
    expires_at: days === null ? null : new Date(now + days * DAY_MS).toISOString(),
    last_used_at: null,
  };
  await db.transaction().execute(async (trx) => {
    if ((await countAccessTokensOfAccount(trx, accountId)) >= MAX_TOKENS_PER_ACCOUNT) {
      throw new AppError('TOKEN_LIMIT', `An account can hold at most ${MAX_TOKENS_PER_ACCOUNT} access tokens. Revoke one first.`);
    }
    await insertAccessToken(trx, row);
  });
  return { ...present(row), token };
}

export async function listAccessTokens(db: Executor, accountId: string): Promise<AccessTokenOut[]> {
  return (await listAccessTokensOfAccount(db, accountId)).map(present);
}

/** Revokes at once: the next request with it is refused. Another account's id is not found. */
export async function revokeAccessToken(db: Executor, accountId: string, id: string): Promise<void> {
  if (!(await deleteAccessTokenOfAccount(db, accountId, id))) throw new AppError('TOKEN_NOT_FOUND', 'Access token not found');
}

/** Every token of the account: signing out everywhere (a password change or reset) ends them too. */
export async function revokeAllAccessTokens(db: Executor, accountId: string): Promise<void> {
  await deleteAccessTokensOfAccount(db, accountId);
}

export interface TokenHolder {
  tokenId: string;
  accountId: string;
  scopes: TokenScope[];
}

/** The live token a bearer stands for, or null (unknown, revoked or expired). Notes its use. */
export async function authenticateAccessToken(db: Executor, bearer: string, now = Date.now()): Promise<TokenHolder | null> {
  const found = await findLiveAccessTokenByHash(db, sha256Hex(bearer), new Date(now).toISOString());
  if (!found) return null;
  if (!found.last_used_at || now - Date.parse(found.last_used_at) >= TOUCH_INTERVAL_MS) {
    await touchAccessToken(db, found.id, new Date(now).toISOString());
  }
  return { tokenId: found.id, accountId: found.account_id, scopes: parseScopes(found.scopes) };
}

/** What a route asks of a token: the scope it needs, or nothing (no token may use it). */
export function checkTokenScope(holder: TokenHolder, needed: TokenScope | undefined): void {
  if (!needed) throw new AppError('TOKEN_NOT_ALLOWED', 'Access tokens cannot use this route: sign in to the dashboard');
  if (!holder.scopes.includes(needed)) throw new AppError('TOKEN_SCOPE', `This access token lacks the ${needed} scope`);
}
