import type { Destination, OwnerDestinationType, RecurrenceType, Reminder } from '../db/database.ts';
import { newId, nowIso } from '../lib/ids.ts';
import type { Executor } from './executor.ts';
import { prepared } from './prepared.ts';
import { idLists, takesRowLocks } from './statement-batches.ts';

export interface ReminderWithDestinations extends Reminder {
  /** The owner's destinations: never the subscribers' own (discord_subscriber), which only count. */
  destinations: OwnerDestination[];
  /** People who pressed "Remind me too" (their discord_subscriber destinations); read with the reminder. */
  subscriber_count?: number;
}

/** A destination the owner chose. */
export type OwnerDestination = Destination & { type: OwnerDestinationType };

/** A subscriber's DM target is the subscription's, not the owner's: counted, not listed. */
const SUBSCRIBER = 'discord_subscriber';

export const isOwnerDestination = (d: Destination): d is OwnerDestination => d.type !== SUBSCRIBER;

/** A reminder joined with each of its destinations (none: one row of nulls), in the reminder's own columns and `d_` ones. */
const withDestinations = (db: Executor) =>
  db
    .selectFrom('reminders as r')
    .leftJoin('destinations as d', 'd.reminder_id', 'r.id')
    .selectAll('r')
    .select([
      'd.id as d_id',
      'd.type as d_type',
      'd.metadata as d_metadata',
      'd.secret as d_secret',
      'd.position as d_position',
      'd.disabled_at as d_disabled_at',
      'd.disabled_reason as d_disabled_reason',
      'd.disabled_code as d_disabled_code',
      'd.created_at as d_created_at',
      'd.guild_id as d_guild_id',
      'd.server_paused_at as d_server_paused_at',
    ]);

type JoinedRow = Awaited<ReturnType<ReturnType<typeof withDestinations>['execute']>>[number];

/** Joined rows (a reminder's rows together, its destinations by position) -> reminders with their destinations. */
function groupJoined(rows: readonly JoinedRow[]): ReminderWithDestinations[] {
  const out: ReminderWithDestinations[] = [];
  // The reminder's own columns, listed once: an object rest per row is V8's slow path, and this
  // runs for every row of every list that is not cached.
  const reminderKeys = rows.length > 0 ? Object.keys(rows[0]!).filter((k) => !k.startsWith('d_')) : [];
  for (const row of rows) {
    const { d_id, d_type, d_metadata, d_secret, d_position, d_disabled_at, d_disabled_reason, d_disabled_code, d_created_at, d_guild_id, d_server_paused_at } = row;
    let current = out[out.length - 1];
    if (!current || current.id !== row.id) {
      const reminder: Record<string, unknown> = {};
      for (const key of reminderKeys) reminder[key] = row[key as keyof typeof row];
      reminder.destinations = [];
      reminder.subscriber_count = 0;
      current = reminder as unknown as ReminderWithDestinations;
      out.push(current);
    }
    if (d_id === null || d_type === null) continue;
    if (d_type === SUBSCRIBER) current.subscriber_count = (current.subscriber_count ?? 0) + 1;
    else {
      current.destinations.push({
        id: d_id,
        reminder_id: row.id,
        type: d_type,
        metadata: d_metadata!,
        secret: d_secret,
        position: d_position!,
        disabled_at: d_disabled_at,
        disabled_reason: d_disabled_reason,
        disabled_code: d_disabled_code,
        created_at: d_created_at!,
        guild_id: d_guild_id,
        server_paused_at: d_server_paused_at,
      });
    }
  }
  return out;
}

export async function listRemindersOfAccount(db: Executor, accountId: string): Promise<ReminderWithDestinations[]> {
  // One joined query instead of reminders + destinations: this is the dashboard's hottest read.
  const rows = await withDestinations(db).where('r.account_id', '=', accountId).orderBy('r.created_at', 'desc').orderBy('r.id').orderBy('d.position').limit(100_000).execute();
  return groupJoined(rows);
}

// Every read and write of one reminder starts here: one statement, a round trip on PostgreSQL.
const reminderOfAccount = prepared(['id', 'accountId'], (db, p: { id: string; accountId: string }) =>
  withDestinations(db).where('r.id', '=', p.id).where('r.account_id', '=', p.accountId).orderBy('d.position'),
);

export async function findReminderOfAccount(db: Executor, accountId: string, id: string): Promise<ReminderWithDestinations | undefined> {
  return groupJoined((await reminderOfAccount(db, { id, accountId })).rows)[0];
}

/** findReminderOfAccount for several ids, in the order given (ids of other accounts are left out): one statement per id list, not one per reminder. */
export async function findRemindersOfAccount(db: Executor, accountId: string, ids: readonly string[]): Promise<ReminderWithDestinations[]> {
  const byId = new Map<string, ReminderWithDestinations>();
  for (const part of idLists([...ids])) {
    const rows = await withDestinations(db).where('r.account_id', '=', accountId).where('r.id', 'in', part).orderBy('r.id').orderBy('d.position').execute();
    for (const reminder of groupJoined(rows)) byId.set(reminder.id, reminder);
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Inside a transaction: the reminder's row stays as read until this transaction ends (other
 * writers of it wait; the scheduler's claim skips it). SQLite runs one writing transaction at a
 * time already.
 */
export async function lockReminderOfAccount(trx: Executor, accountId: string, id: string): Promise<void> {
  if (takesRowLocks(trx)) await trx.selectFrom('reminders').select('id').where('id', '=', id).where('account_id', '=', accountId).forUpdate().execute();
}

export async function countRemindersOfAccount(db: Executor, accountId: string): Promise<number> {
  const { count } = await db
    .selectFrom('reminders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export type NewReminder = Omit<Reminder, 'id' | 'created_at' | 'updated_at' | 'last_fired_at' | 'completed_at' | 'server_notice'> & Partial<Pick<Reminder, 'completed_at'>>;

export async function insertReminder(db: Executor, input: NewReminder): Promise<Reminder> {
  const now = nowIso();
  const row: Reminder = { id: newId(), created_at: now, updated_at: now, last_fired_at: null, completed_at: null, server_notice: null, ...input };
  await db.insertInto('reminders').values(row).execute();
  return row;
}

/** Answers the row as written (undefined when there is none), so a caller need not read it again. */
export async function updateReminder(db: Executor, id: string, patch: Partial<Omit<Reminder, 'id' | 'account_id' | 'created_at'>>): Promise<Reminder | undefined> {
  return db.updateTable('reminders').set({ ...patch, updated_at: nowIso() }).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Any account's reminder by id (the bot's buttons check the owner themselves). */
export async function findReminderById(db: Executor, id: string): Promise<Reminder | undefined> {
  return db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirst();
}

export type ReminderChoice = Pick<Reminder, 'id' | 'message' | 'next_fire_utc' | 'is_paused' | 'timezone'>;

/** An account's reminders in next-fire order (finished ones last), for the bot's autocomplete. */
export async function listReminderChoices(db: Executor, accountId: string, limit: number): Promise<ReminderChoice[]> {
  return db
    .selectFrom('reminders')
    .select(['id', 'message', 'next_fire_utc', 'is_paused', 'timezone'])
    .where('account_id', '=', accountId)
    .orderBy('next_fire_utc')
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Reminders with a next fire time (paused ones included). */
export async function countUpcomingReminders(db: Executor, accountId: string): Promise<number> {
  const { count } = await db
    .selectFrom('reminders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .where('next_fire_utc', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export type UpcomingReminder = Pick<Reminder, 'id' | 'message' | 'next_fire_utc' | 'recurrence_type' | 'rrule' | 'local_date' | 'local_time' | 'timezone' | 'is_paused' | 'alerts'>;

/** One page of upcoming reminders, soonest first. */
export async function listUpcomingReminders(db: Executor, accountId: string, limit: number, offset: number): Promise<UpcomingReminder[]> {
  return db
    .selectFrom('reminders')
    .select(['id', 'message', 'next_fire_utc', 'recurrence_type', 'rrule', 'local_date', 'local_time', 'timezone', 'is_paused', 'alerts'])
    .where('account_id', '=', accountId)
    .where('next_fire_utc', 'is not', null)
    .orderBy('next_fire_utc')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function deleteReminder(db: Executor, id: string) {
  // Through the delivery: delivery_attempts is indexed by delivery_id, not by reminder_id.
  await db
    .deleteFrom('delivery_attempts')
    .where('delivery_id', 'in', (eb) => eb.selectFrom('deliveries').select('deliveries.id').where('deliveries.reminder_id', '=', id))
    .execute();
  await db.deleteFrom('deliveries').where('reminder_id', '=', id).execute();
  await db.deleteFrom('reminder_subscriptions').where('reminder_id', '=', id).execute();
  await db.deleteFrom('destinations').where('reminder_id', '=', id).execute();
  await db.deleteFrom('reminders').where('id', '=', id).execute();
}

export type NewDestination = Omit<Destination, 'disabled_at' | 'disabled_reason' | 'disabled_code' | 'created_at' | 'guild_id' | 'server_paused_at'> &
  Partial<Pick<Destination, 'guild_id' | 'server_paused_at'>>;

export async function insertDestination(db: Executor, row: NewDestination): Promise<void> {
  await db
    .insertInto('destinations')
    .values({ guild_id: null, server_paused_at: null, ...row, disabled_at: null, disabled_reason: null, disabled_code: null, created_at: nowIso() })
    .execute();
}

export async function updateDestination(db: Executor, id: string, patch: Partial<Pick<Destination, 'metadata' | 'position' | 'disabled_at' | 'disabled_reason' | 'disabled_code' | 'guild_id' | 'secret'>>) {
  await db.updateTable('destinations').set(patch).where('id', '=', id).execute();
}

/** Deletes destinations with their deliveries and delivery log. */
export async function deleteDestinations(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('delivery_attempts')
    .where('delivery_id', 'in', (eb) => eb.selectFrom('deliveries').select('deliveries.id').where('deliveries.destination_id', 'in', ids))
    .execute();
  await db.deleteFrom('deliveries').where('destination_id', 'in', ids).execute();
  await db.deleteFrom('destinations').where('id', 'in', ids).execute();
}

export type { RecurrenceType };
