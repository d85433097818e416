import type { AccessToken } from '../db/database.ts';
import type { Executor } from './executor.ts';
import { prepared } from './prepared.ts';

/** What an account's token list shows: everything but the hash. */
export type AccessTokenListing = Omit<AccessToken, 'token_hash'>;

export async function insertAccessToken(db: Executor, row: AccessToken): Promise<void> {
  await db.insertInto('access_tokens').values(row).execute();
}

export async function countAccessTokensOfAccount(db: Executor, accountId: string): Promise<number> {
  const row = await db.selectFrom('access_tokens').select((eb) => eb.fn.countAll<number | string>().as('n')).where('account_id', '=', accountId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Newest first. */
export async function listAccessTokensOfAccount(db: Executor, accountId: string): Promise<AccessTokenListing[]> {
  return db
    .selectFrom('access_tokens')
    .select(['id', 'account_id', 'name', 'scopes', 'created_at', 'expires_at', 'last_used_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

// Every request authenticated by a token runs this.
const liveTokenByHash = prepared(['tokenHash', 'now'], (db, p: { tokenHash: string; now: string }) =>
  db
    .selectFrom('access_tokens')
    .select(['id', 'account_id', 'scopes', 'last_used_at'])
    .where('token_hash', '=', p.tokenHash)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', p.now)])),
);

/** The token with this hash, unless it expired (a revoked one no longer exists). */
export async function findLiveAccessTokenByHash(db: Executor, tokenHash: string, now: string) {
  return (await liveTokenByHash(db, { tokenHash, now })).rows[0];
}

export async function touchAccessToken(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** Deletes one of the account's tokens; answers whether there was one. */
export async function deleteAccessTokenOfAccount(db: Executor, accountId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('access_tokens').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteAccessTokensOfAccount(db: Executor, accountId: string): Promise<void> {
  await db.deleteFrom('access_tokens').where('account_id', '=', accountId).execute();
}
