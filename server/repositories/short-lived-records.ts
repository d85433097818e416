/**
 * Single-use short-lived records every instance shares (OAuth states, login tickets, used action
 * links): plain data access; the rules are in server/coordination/shared-records.ts.
 */
import type { Executor } from './executor.ts';

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
