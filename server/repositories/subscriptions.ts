/**
 * "Remind me too" subscriptions (migration 2026-11-28-320): a row per reminder and subscriber, and
 * the subscriber's own `discord_subscriber` destination on the reminder, written and removed together.
 */
import type { Reminder } from '../db/database.ts';
import { newId, nowIso } from '../lib/ids.ts';
import type { Executor } from './executor.ts';
import { takesRowLocks } from './statement-batches.ts';

export async function findSubscription(db: Executor, reminderId: string, accountId: string) {
  return db.selectFrom('reminder_subscriptions').selectAll().where('reminder_id', '=', reminderId).where('account_id', '=', accountId).executeTakeFirst();
}

export async function countSubscriptions(db: Executor, reminderId: string): Promise<number> {
  const { count } = await db
    .selectFrom('reminder_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('reminder_id', '=', reminderId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Inside a transaction: subscribers of one reminder join one at a time (the count and the cap agree). */
export async function lockReminderRow(trx: Executor, reminderId: string): Promise<void> {
  if (takesRowLocks(trx)) await trx.selectFrom('reminders').select('id').where('id', '=', reminderId).forUpdate().execute();
}

/** The subscription and the destination its deliveries go through. */
export async function insertSubscription(db: Executor, reminderId: string, accountId: string): Promise<{ id: string; destinationId: string }> {
  const now = nowIso();
  const destinationId = newId();
  const id = newId();
  // After the owner's destinations (positions are small): the owner's channel message goes first.
  await db
    .insertInto('destinations')
    .values({ id: destinationId, reminder_id: reminderId, type: 'discord_subscriber', metadata: '{}', secret: null, position: 1000, disabled_at: null, disabled_reason: null, disabled_code: null, created_at: now, guild_id: null, server_paused_at: null })
    .execute();
  await db.insertInto('reminder_subscriptions').values({ id, reminder_id: reminderId, account_id: accountId, destination_id: destinationId, created_at: now }).execute();
  return { id, destinationId };
}

/** Removes a subscription, its destination and what was queued or logged for it. */
export async function deleteSubscription(db: Executor, subscription: { id: string; destination_id: string }): Promise<void> {
  await db.deleteFrom('reminder_subscriptions').where('id', '=', subscription.id).execute();
  await db
    .deleteFrom('delivery_attempts')
    .where('delivery_id', 'in', (eb) => eb.selectFrom('deliveries').select('deliveries.id').where('deliveries.destination_id', '=', subscription.destination_id))
    .execute();
  await db.deleteFrom('deliveries').where('destination_id', '=', subscription.destination_id).execute();
  await db.deleteFrom('destinations').where('id', '=', subscription.destination_id).execute();
}

export type FollowedReminder = Pick<Reminder, 'id' | 'message' | 'next_fire_utc' | 'timezone' | 'is_paused'>;

/** The reminders an account follows, soonest first (finished ones last). */
export async function listFollowedReminders(db: Executor, accountId: string, limit: number): Promise<FollowedReminder[]> {
  return db
    .selectFrom('reminder_subscriptions as s')
    .innerJoin('reminders as r', 'r.id', 's.reminder_id')
    .select(['r.id', 'r.message', 'r.next_fire_utc', 'r.timezone', 'r.is_paused'])
    .where('s.account_id', '=', accountId)
    .orderBy('r.next_fire_utc')
    .orderBy('r.id')
    .limit(limit)
    .execute();
}
