import { newId } from '../lib/ids.ts';
import type { Executor } from './executor.ts';

/**
 * The known device of the account using `emailNormalized` that carries the cookie token with this
 * hash, used since `usedSinceIso`. One query whether or not the email has an account, so an unknown email costs the same.
 */
export async function findKnownDeviceByEmail(db: Executor, tokenHash: string, emailNormalized: string, usedSinceIso: string): Promise<{ id: string; account_id: string } | undefined> {
  return db
    .selectFrom('known_devices')
    .innerJoin('accounts', 'accounts.id', 'known_devices.account_id')
    .select(['known_devices.id', 'known_devices.account_id'])
    .where('known_devices.token_hash', '=', tokenHash)
    .where('accounts.email_normalized', '=', emailNormalized)
    .where('known_devices.last_used_at', '>', usedSinceIso)
    .executeTakeFirst();
}

/** Records that the browser with this token is known for the account (again: its last use). */
export async function rememberKnownDevice(db: Executor, accountId: string, tokenHash: string, nowIso: string): Promise<void> {
  await db
    .insertInto('known_devices')
    .values({ id: newId(), account_id: accountId, token_hash: tokenHash, created_at: nowIso, last_used_at: nowIso })
    .onConflict((oc) => oc.columns(['token_hash', 'account_id']).doUpdateSet({ last_used_at: nowIso }))
    .execute();
}

/** Forgets the account's known devices beyond the `keep` most recently used. */
export async function trimKnownDevices(db: Executor, accountId: string, keep: number): Promise<void> {
  const kept = await db.selectFrom('known_devices').select('id').where('account_id', '=', accountId).orderBy('last_used_at', 'desc').limit(keep).execute();
  if (kept.length < keep) return;
  await db
    .deleteFrom('known_devices')
    .where('account_id', '=', accountId)
    .where(
      'id',
      'not in',
      kept.map((k) => k.id),
    )
    .execute();
}

/** The browser's token changed: its rows follow it. */
export async function renameKnownDevice(db: Executor, fromHash: string, toHash: string): Promise<void> {
  await db.updateTable('known_devices').set({ token_hash: toHash }).where('token_hash', '=', fromHash).execute();
}
