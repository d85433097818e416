/** Passkeys (WebAuthn credentials) of accounts: plain data access; the rules are in server/accounts/passkeys.ts. */
import type { Insertable } from 'kysely';
import type { PasskeysTable } from '../db/database.ts';
import type { Executor } from './executor.ts';

export async function insertPasskey(db: Executor, row: Insertable<PasskeysTable>): Promise<void> {
  await db.insertInto('passkeys').values(row).execute();
}

export async function listPasskeys(db: Executor, accountId: string) {
  return db.selectFrom('passkeys').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

export async function countPasskeys(db: Executor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findPasskeyByCredentialId(db: Executor, credentialId: string) {
  return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

export async function findPasskey(db: Executor, accountId: string, id: string) {
  return db.selectFrom('passkeys').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function renamePasskey(db: Executor, accountId: string, id: string, name: string): Promise<boolean> {
  const result = await db.updateTable('passkeys').set({ name }).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deletePasskey(db: Executor, accountId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes every passkey of the account; answers the names of those deleted. */
export async function deletePasskeysOfAccount(db: Executor, accountId: string): Promise<string[]> {
  const rows = await db.deleteFrom('passkeys').where('account_id', '=', accountId).returning('name').execute();
  return rows.map((r) => r.name);
}

/**
 * Records a sign-in: the new counter and the time, only if the counter stored is still the one
 * the check was made against (false: a parallel sign-in with the same passkey got there first).
 */
export async function markPasskeyUsed(db: Executor, id: string, expectedCounter: number, counter: number, nowIso: string, backedUp: boolean): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter, last_used_at: nowIso, backed_up: backedUp ? 1 : 0 })
    .where('id', '=', id)
    .where('counter', '=', expectedCounter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
