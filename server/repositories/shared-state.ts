/**
 * State every instance shares (migration 2026-11-23-009): single-use short-lived records, fixed
 * window counters and the password-guessing throttle's failures. Plain data access; the rules are
 * in server/coordination/shared-records.ts, server/coordination/rate-window.ts and server/accounts/login-throttle.ts.
 */
import { sql } from 'kysely';
import type { Executor } from './executor.ts';
import { takesRowLocks } from './statement-shapes.ts';

// --- short-lived records -----------------------------------------------------------------------

export async function insertShortLivedRecord(db: Executor, row: { kind: string; key_hash: string; value: string; expires_at: string }) {
  await db.insertInto('short_lived_records').values(row).execute();
}

/** Inserts the record unless one with its kind and key exists: answers whether this call wrote it (one statement, so one caller wins). */
export async function insertShortLivedRecordOnce(db: Executor, row: { kind: string; key_hash: string; value: string; expires_at: string }): Promise<boolean> {
  const written = await db
    .insertInto('short_lived_records')
    .values(row)
    .onConflict((oc) => oc.columns(['kind', 'key_hash']).doNothing())
    .returning('kind')
    .executeTakeFirst();
  return written !== undefined;
}

/** The record's value when it exists and has not expired. */
export async function findShortLivedRecord(db: Executor, kind: string, keyHash: string, nowIso: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('short_lived_records')
    .select('value')
    .where('kind', '=', kind)
    .where('key_hash', '=', keyHash)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  return row?.value;
}

/** Deletes the record and answers its value if it was still valid: one statement, so one taker wins. */
export async function takeShortLivedRecord(db: Executor, kind: string, keyHash: string, nowIso: string): Promise<string | undefined> {
  const row = await db.deleteFrom('short_lived_records').where('kind', '=', kind).where('key_hash', '=', keyHash).returning(['value', 'expires_at']).executeTakeFirst();
  return row && row.expires_at > nowIso ? row.value : undefined;
}

export async function deleteShortLivedRecord(db: Executor, kind: string, keyHash: string) {
  await db.deleteFrom('short_lived_records').where('kind', '=', kind).where('key_hash', '=', keyHash).execute();
}

export async function deleteExpiredShortLivedRecords(db: Executor, nowIso: string) {
  await db.deleteFrom('short_lived_records').where('expires_at', '<=', nowIso).execute();
}

// --- fixed windows -----------------------------------------------------------------------------

/**
 * Counts one hit in the key's window, starting a new window (ending at `newResetIso`) when the
 * last one ended; answers the count and when the window ends. One upsert, so parallel hits on
 * several instances each count.
 */
export async function hitRateWindow(db: Executor, key: string, nowIso: string, newResetIso: string): Promise<{ count: number; reset_at: string }> {
  const row = await db
    .insertInto('rate_windows')
    .values({ key, count: 1, reset_at: newResetIso })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_windows.reset_at <= ${nowIso} then 1 else rate_windows.count + 1 end`,
        reset_at: sql<string>`case when rate_windows.reset_at <= ${nowIso} then ${newResetIso} else rate_windows.reset_at end`,
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), reset_at: row.reset_at };
}

export async function deleteEndedRateWindows(db: Executor, nowIso: string) {
  await db.deleteFrom('rate_windows').where('reset_at', '<=', nowIso).execute();
}

// --- password-guessing failures ------------------------------------------------------------------

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
