/**
 * The password-guessing throttle's failures, shared by every instance: plain data access; the
 * rules are in server/accounts/login-throttle.ts.
 */
import { sql } from 'kysely';
import type { Executor } from './executor.ts';
import { takesRowLocks } from './statement-batches.ts';

export interface AttemptFailureRow {
  attempt_id: string;
  key: string;
  account: string;
  net: string;
  at: string;
}

/**
 * Inside a transaction: other transactions that lock any of these counters wait until this one
 * ends, so the failures read next are all there are when this transaction adds its own. On
 * PostgreSQL transaction-scoped advisory locks (released at commit, so a pooler in transaction
 * mode is fine), taken in one order so two attempts cannot deadlock; SQLite runs one writing
 * transaction at a time already.
 */
export async function lockAttemptCounters(trx: Executor, keys: string[]): Promise<void> {
  if (!takesRowLocks(trx)) return;
  // The select list is evaluated left to right: the locks are taken in the sorted order.
  const sorted = [...new Set(keys)].sort();
  const locks = sorted.map((key) => sql`pg_advisory_xact_lock(hashtextextended(${`attempt_failures:${key}`}, 0))`);
  await sql`select ${sql.join(locks)}`.execute(trx);
}

/** Failures under these keys since `sinceIso`, oldest first. */
export async function listAttemptFailures(db: Executor, keys: string[], sinceIso: string): Promise<AttemptFailureRow[]> {
  return db
    .selectFrom('attempt_failures')
    .select(['attempt_id', 'key', 'account', 'net', 'at'])
    .where('key', 'in', keys)
    .where('at', '>', sinceIso)
    .orderBy('at')
    .orderBy('attempt_id')
    .execute();
}

export async function insertAttemptFailures(db: Executor, rows: AttemptFailureRow[]) {
  if (rows.length > 0) await db.insertInto('attempt_failures').values(rows).execute();
}

/** Forgets failures: all of a key, or those of one network or one account under it, or one attempt. */
export async function deleteAttemptFailures(db: Executor, where: { key?: string; net?: string; account?: string; attemptId?: string }) {
  let q = db.deleteFrom('attempt_failures');
  if (where.key !== undefined) q = q.where('key', '=', where.key);
  if (where.net !== undefined) q = q.where('net', '=', where.net);
  if (where.account !== undefined) q = q.where('account', '=', where.account);
  if (where.attemptId !== undefined) q = q.where('attempt_id', '=', where.attemptId);
  await q.execute();
}

export async function deleteAttemptFailuresBefore(db: Executor, beforeIso: string) {
  await db.deleteFrom('attempt_failures').where('at', '<=', beforeIso).execute();
}
