import type { CalendarFeed } from '../db/database.ts';
import type { Executor } from './executor.ts';

export async function findCalendarFeedOfAccount(db: Executor, accountId: string): Promise<CalendarFeed | undefined> {
  return db.selectFrom('calendar_feeds').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function findCalendarFeedByTokenHash(db: Executor, tokenHash: string): Promise<CalendarFeed | undefined> {
  return db.selectFrom('calendar_feeds').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Creates or replaces the account's feed (a rotation replaces the old token in the same row). */
export async function upsertCalendarFeed(db: Executor, row: CalendarFeed): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ token: row.token, token_hash: row.token_hash, created_at: row.created_at }))
    .execute();
}

/** Inserts the feed unless the account has one already; answers whether it inserted. */
export async function insertCalendarFeedIfAbsent(db: Executor, row: CalendarFeed): Promise<boolean> {
  const result = await db.insertInto('calendar_feeds').values(row).onConflict((oc) => oc.column('account_id').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteCalendarFeed(db: Executor, accountId: string): Promise<void> {
  await db.deleteFrom('calendar_feeds').where('account_id', '=', accountId).execute();
}
