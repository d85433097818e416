import { newId } from '../lib/ids.ts';
import type { Executor } from './executor.ts';

export async function findTwoFactor(db: Executor, accountId: string) {
  return db.selectFrom('two_factor').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** Starts (or starts again) a setup: a new secret, not enabled yet. */
export async function putPendingTwoFactor(db: Executor, accountId: string, secret: string, nowIso: string): Promise<void> {
  await db
    .insertInto('two_factor')
    .values({ account_id: accountId, secret, created_at: nowIso, enabled_at: null, last_step: null })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ secret, created_at: nowIso, enabled_at: null, last_step: null }))
    .execute();
}

export async function markTwoFactorEnabled(db: Executor, accountId: string, nowIso: string, step: number): Promise<void> {
  await db.updateTable('two_factor').set({ enabled_at: nowIso, last_step: step }).where('account_id', '=', accountId).execute();
}

/**
 * Records that the code of `step` was used, unless a code of this step or a later one already
 * was; false then (the code is being replayed, or raced by a parallel request).
 */
export async function claimTotpStep(db: Executor, accountId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTwoFactor(db: Executor, accountId: string): Promise<boolean> {
  await db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
  const result = await db.deleteFrom('two_factor').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function replaceRecoveryCodes(db: Executor, accountId: string, hashes: string[], nowIso: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ id: newId(), account_id: accountId, code_hash, created_at: nowIso, used_at: null })))
    .execute();
}

/** Uses the unused recovery code with this hash, once: false when there is none (or it was just used). */
export async function useRecoveryCode(db: Executor, accountId: string, codeHash: string, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: nowIso })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Executor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
