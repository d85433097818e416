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

/** What a calendar feed shows of an account's reminders: those still to fire and not paused, oldest first. */
export async function listFeedReminders(db: Executor, accountId: string) {
  return db
    .selectFrom('reminders')
    .select(['id', 'message', 'local_date', 'local_time', 'timezone', 'recurrence_type', 'rrule', 'exceptions', 'is_paused', 'updated_at', 'alerts'])
    .where('account_id', '=', accountId)
    .where('is_paused', '=', 0)
    .where('next_fire_utc', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(100_000)
    .execute();
}
