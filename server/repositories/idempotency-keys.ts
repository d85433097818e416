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

export async function deleteIdempotencyRecordsBefore(db: Executor, beforeIso: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<=', beforeIso).execute();
}
