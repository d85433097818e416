/**
 * Idempotency keys of creating requests (migration 2026-11-24-001). Plain data access; the rules
 * (hashing, fingerprints, replay, expiry) are in server/reminders/idempotency.ts.
 */
import type { Executor } from './executor.ts';

export interface IdempotencyRecord {
  operation: string;
  fingerprint: string;
  result: string;
  created_at: string;
}

/** The account's record under this key, if one was written after `sinceIso`. */
export async function findIdempotencyRecord(db: Executor, accountId: string, keyHash: string, sinceIso: string): Promise<IdempotencyRecord | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['operation', 'fingerprint', 'result', 'created_at'])
    .where('account_id', '=', accountId)
    .where('key_hash', '=', keyHash)
    .where('created_at', '>', sinceIso)
    .executeTakeFirst();
}

/**
 * Writes the record (in the transaction of what it records). An expired record under the same key
 * is replaced; a live one makes the insert fail on the primary key.
 */
export async function insertIdempotencyRecord(db: Executor, row: IdempotencyRecord & { account_id: string; key_hash: string }, sinceIso: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('account_id', '=', row.account_id).where('key_hash', '=', row.key_hash).where('created_at', '<=', sinceIso).execute();
  await db.insertInto('idempotency_keys').values(row).execute();
}

/**
 * Deletes records written up to `beforeIso`, the oldest first, about `batch` of them (a few more
 * when several share the last one's time); answers how many. Small batches keep each write short.
 */
export async function deleteIdempotencyRecordsBefore(db: Executor, beforeIso: string, batch = 1000): Promise<number> {
  const last = await db.selectFrom('idempotency_keys').select('created_at').where('created_at', '<=', beforeIso).orderBy('created_at').offset(batch - 1).limit(1).executeTakeFirst();
  const res = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', last?.created_at ?? beforeIso)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
