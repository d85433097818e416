/**
 * Idempotency keys for the requests that create reminders or send again (docs/api.md "Retrying a create safely").
 *
 * A client that gets no answer to a create (its own timeout, a dropped connection, a 503 on a
 * commit that went through after all) cannot tell whether the reminder exists. When it sent an
 * `Idempotency-Key` and sends the same request again with the same key, the second request answers
 * what the first one created instead of creating it again. The key's record is written in the
 * transaction of what it records, so it exists exactly when the creation does; a request that
 * races another with the same key finds the other's record when its own insert fails.
 *
 * A key is the account's (another account's identical key is another key), lives a day, and is
 * bound to its request: the same key with another operation or input is refused (422), because
 * answering it with the first request's result would be wrong.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { isUniqueViolation } from '../repositories/accounts.ts';
import { deleteIdempotencyRecordsBefore, findIdempotencyRecord, insertIdempotencyRecord } from '../repositories/idempotency-keys.ts';

/** How long a key is remembered: a client retries within minutes; a day covers a laptop put to sleep. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** Expired records are deleted on writes, at most this often per process, ... */
const SWEEP_EVERY_MS = 60_000;
/** ... in at most this many short batches ... */
const SWEEP_BATCHES = 5;
/** ... of about this many records each (a backlog goes on at the next sweep). */
const SWEEP_BATCH_SIZE = 1000;

export type IdempotentOperation = 'reminders.create' | 'reminders.duplicate' | 'reminders.import' | 'deliveries.resend';

/** One request's key, bound to its account, operation and input. */
export interface IdempotencyScope {
  accountId: string;
  keyHash: string;
  operation: IdempotentOperation;
  fingerprint: string;
  nowMs: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();

/** The scope of a request, or null when it sent no key (it is then an ordinary request). */
export function idempotencyScope(accountId: string, key: string | undefined, operation: IdempotentOperation, input: unknown, nowMs: number): IdempotencyScope | null {
  if (key === undefined) return null;
  return { accountId, keyHash: sha256(key), operation, fingerprint: sha256(`${operation}\n${JSON.stringify(input)}`), nowMs };
}

/**
 * What an earlier request with this key did (its recorded result), or undefined when none did.
 * The key used for another operation or another input is a 422.
 */
export async function earlierResult<T>(db: Kysely<Database>, scope: IdempotencyScope | null): Promise<T | undefined> {
  if (!scope) return undefined;
  const record = await findIdempotencyRecord(db, scope.accountId, scope.keyHash, iso(scope.nowMs - IDEMPOTENCY_KEY_TTL_MS));
  if (!record) return undefined;
  if (record.operation !== scope.operation || record.fingerprint !== scope.fingerprint) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for another request. Send a new key with each new request.');
  }
  return JSON.parse(record.result) as T;
}

export type OnceOutcome<T, R> = { replayed: false; value: T } | { replayed: true; result: R };

const lastSweep = new WeakMap<object, number>();

/**
 * Runs `work` in one transaction that also records `record(value)` under the request's key. When
 * another request with the same key committed first, nothing of this one is kept and that
 * request's recorded result is answered instead.
 */
export async function runOnce<T, R>(
  db: Kysely<Database>,
  scope: IdempotencyScope | null,
  work: (trx: Transaction<Database>) => Promise<T>,
  record: (value: T) => R,
): Promise<OnceOutcome<T, R>> {
  if (!scope) return { replayed: false, value: await db.transaction().execute(work) };
  const sinceIso = iso(scope.nowMs - IDEMPOTENCY_KEY_TTL_MS);
  if (scope.nowMs - (lastSweep.get(db) ?? 0) > SWEEP_EVERY_MS) {
    lastSweep.set(db, scope.nowMs);
    try {
      for (let batch = 0; batch < SWEEP_BATCHES; batch++) {
        if ((await deleteIdempotencyRecordsBefore(db, sinceIso, SWEEP_BATCH_SIZE)) < SWEEP_BATCH_SIZE) break;
      }
    } catch {
      // Housekeeping: the create goes on (and fails on its own if the database is out), the next sweep retries.
    }
  }
  try {
    const value = await db.transaction().execute(async (trx) => {
      const value = await work(trx);
      await insertIdempotencyRecord(
        trx,
        {
          account_id: scope.accountId,
          key_hash: scope.keyHash,
          operation: scope.operation,
          fingerprint: scope.fingerprint,
          result: JSON.stringify(record(value)),
          created_at: iso(scope.nowMs),
        },
        sinceIso,
      );
      return value;
    });
    return { replayed: false, value };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const result = await earlierResult<R>(db, scope);
    if (result === undefined) throw err;
    return { replayed: true, result };
  }
}
