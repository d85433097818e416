import { type NotNull, sql } from 'kysely';
import type { Executor } from './executor.ts';
import type { DeliveryLease, OutboxRow } from './outbox.ts';
import { idLists, insertChunks, takesRowLocks } from './statement-batches.ts';

/*
 * Claiming due reminders: the primitives the claimer (server/scheduler/claimer.ts) runs in one
 * transaction, with the planner in between, and what the scheduler asks of reminders that are due.
 */

/**
 * The accounts an administrator disabled (docs/operations.md "Administration"): their reminders stay as they
 * are but do not fire, nor count as due, until the account is enabled again. Usually none.
 */
export const disabledAccountIds = (db: Executor) => db.selectFrom('accounts').select('id').where('disabled_at', 'is not', null);

/** A due reminder with what its deliveries need of it and of its account (dueRemindersQuery's columns). */
export type DueReminderRow = Awaited<ReturnType<ReturnType<typeof dueRemindersQuery>['execute']>>[number];

/** A reminder that can fire with its account: what a firing's deliveries need of both. */
const firingReminders = (db: Executor) =>
  db
    .selectFrom('reminders as r')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .select(['r.id', 'r.account_id', 'r.message', 'r.remind_at_utc', 'r.timezone', 'r.recurrence_type', 'r.next_occurrence_utc', 'r.alerts', 'a.timezone as account_timezone', 'a.locale', 'a.username'])
    .where('r.is_paused', '=', sql.lit(0))
    .where('a.disabled_at', 'is', null);

/** Up to `limit` reminders due at `nowIso`, earliest first (paused ones never). */
const dueRemindersQuery = (db: Executor, nowIso: string, limit: number) =>
  // Exactly the predicates of the partial index reminders_due_idx (literal 0, not a parameter).
  firingReminders(db)
    .select(['r.local_date', 'r.local_time', 'r.rrule', 'r.exceptions', 'r.snoozed_at_utc', 'r.next_fire_utc'])
    .where('r.next_fire_utc', 'is not', null)
    .where('r.next_fire_utc', '<=', nowIso)
    .$narrowType<{ next_fire_utc: NotNull }>()
    .orderBy('r.next_fire_utc')
    .limit(limit);

export async function selectDueReminders(db: Executor, nowIso: string, limit: number): Promise<DueReminderRow[]> {
  const query = dueRemindersQuery(db, nowIso, limit);
  // Several instances claiming at once take disjoint reminders (SQLite serializes the whole claim).
  return takesRowLocks(db) ? query.forUpdate('r').skipLocked().execute() : query.execute();
}

/** A reminder whose next alert is due, with what its deliveries need (dueAlertsQuery's columns). */
export type DueAlertRow = Awaited<ReturnType<ReturnType<typeof dueAlertsQuery>['execute']>>[number];

/** Up to `limit` reminders whose next alert (next_alert_utc) is due at `nowIso`: the predicates of reminders_alert_due_idx. */
const dueAlertsQuery = (db: Executor, nowIso: string, limit: number) =>
  firingReminders(db)
    .select('r.next_alert_utc')
    .where('r.next_alert_utc', 'is not', null)
    .where('r.next_alert_utc', '<=', nowIso)
    .$narrowType<{ next_alert_utc: NotNull }>()
    .orderBy('r.next_alert_utc')
    .limit(limit);

export async function selectDueAlerts(db: Executor, nowIso: string, limit: number): Promise<DueAlertRow[]> {
  const query = dueAlertsQuery(db, nowIso, limit);
  return takesRowLocks(db) ? query.forUpdate('r').skipLocked().execute() : query.execute();
}

/** Moves the alert pointer of reminders whose alert was just handled (null: none left before their occurrence). */
export async function setNextAlerts(db: Executor, reminderIds: string[], nextAlertUtc: string | null): Promise<void> {
  for (const part of idLists(reminderIds)) {
    await db.updateTable('reminders').set({ next_alert_utc: nextAlertUtc }).where('id', 'in', part).execute();
  }
}

/** A destination a due reminder fires to (enabledDestinationsQuery's columns). */
export type EnabledDestinationRow = Awaited<ReturnType<ReturnType<typeof enabledDestinationsQuery>['execute']>>[number];

const enabledDestinationsQuery = (db: Executor, reminderIds: string[]) =>
  db
    .selectFrom('destinations as d')
    // A "Remind me too" subscriber's destination is delivered as the subscriber's (their account,
    // language and DMs); without its subscription, or with their account disabled, it is skipped.
    .leftJoin('reminder_subscriptions as s', 's.destination_id', 'd.id')
    .leftJoin('accounts as sa', 'sa.id', 's.account_id')
    .select([
      'd.id',
      'd.reminder_id',
      'd.type',
      'd.metadata',
      'd.secret',
      's.account_id as subscriber_account_id',
      'sa.timezone as subscriber_timezone',
      'sa.locale as subscriber_locale',
      'sa.username as subscriber_username',
    ])
    .where('d.reminder_id', 'in', reminderIds)
    .where('d.disabled_at', 'is', null)
    // Paused by a manager of its Discord server (docs/servers.md): the reminder's other destinations still fire.
    .where('d.server_paused_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('d.type', '!=', 'discord_subscriber'),
        eb.and([
          eb('s.id', 'is not', null),
          eb('sa.disabled_at', 'is', null),
          // Only while a channel destination of the reminder offers the button and fires: a creator
          // who takes the option away, or a server's managers pausing or a failure disabling the
          // channel, stop the subscribers' DMs too (metadata is stored by JSON.stringify, so the
          // key and value are written exactly so).
          eb.exists(
            eb
              .selectFrom('destinations as c')
              .select('c.id')
              .whereRef('c.reminder_id', '=', 'd.reminder_id')
              .where('c.type', '=', 'discord_channel')
              .where('c.disabled_at', 'is', null)
              .where('c.server_paused_at', 'is', null)
              .where('c.metadata', 'like', '%"remind_me_too":true%'),
          ),
        ]),
      ]),
    )
    .orderBy('d.position')
    .orderBy('d.created_at');

/** The destinations of these reminders that are not disabled, in each reminder's order. */
export async function listEnabledDestinations(db: Executor, reminderIds: string[]): Promise<EnabledDestinationRow[]> {
  const out: EnabledDestinationRow[] = [];
  for (const part of idLists(reminderIds)) out.push(...(await enabledDestinationsQuery(db, part).execute()));
  return out;
}

/** A pending delivery to write to the outbox. */
export type NewDelivery = Pick<
  OutboxRow,
  'id' | 'reminder_id' | 'destination_id' | 'account_id' | 'occurrence_utc' | 'idempotency_key' | 'next_attempt_at' | 'late'
> & { concurrency_key?: string | null; alert_minutes?: number };

/**
 * Writes pending deliveries; one that already exists for its (reminder, occurrence, destination,
 * alert) is skipped. `written` holds the rows known to be in the table now: on a conflict a chunk cannot
 * tell which of its rows went in, so none of that chunk is listed (the outbox sweep reads them back).
 */
export async function insertDeliveries<T extends NewDelivery>(db: Executor, rows: T[], nowIso: string, lease?: DeliveryLease): Promise<{ inserted: number; written: T[] }> {
  let inserted = 0;
  const written: T[] = [];
  for (const part of insertChunks(rows)) {
    const res = await db
      .insertInto('deliveries')
      .values(
        part.map((d) => ({
          id: d.id,
          reminder_id: d.reminder_id,
          destination_id: d.destination_id,
          account_id: d.account_id,
          occurrence_utc: d.occurrence_utc,
          idempotency_key: d.idempotency_key,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: d.next_attempt_at,
          late: d.late,
          created_at: nowIso,
          updated_at: nowIso,
          lease_owner: lease?.owner ?? null,
          lease_expires_at: lease?.until ?? null,
          concurrency_key: d.concurrency_key ?? null,
          alert_minutes: d.alert_minutes ?? 0,
        })),
      )
      .onConflict((oc) => oc.columns(['reminder_id', 'occurrence_utc', 'destination_id', 'alert_minutes']).doNothing())
      .executeTakeFirst();
    const n = Number(res.numInsertedOrUpdatedRows ?? 0);
    inserted += n;
    if (n === part.length) written.push(...part);
  }
  return { inserted, written };
}

/**
 * Moves reminders that just fired to their next fire (null: nothing left), clearing a snooze.
 * `completed` also marks them completed.
 */
export async function advanceReminders(
  db: Executor,
  reminderIds: string[],
  next: { nextFireUtc: string | null; nextAlertUtc?: string | null; completed: boolean },
  firedAtIso: string,
): Promise<void> {
  for (const part of idLists(reminderIds)) {
    await db
      .updateTable('reminders')
      .set({
        next_fire_utc: next.nextFireUtc,
        next_occurrence_utc: next.nextFireUtc,
        next_alert_utc: next.nextAlertUtc ?? null,
        snoozed_at_utc: null,
        last_fired_at: firedAtIso,
        ...(next.completed ? { completed_at: firedAtIso } : {}),
      })
      .where('id', 'in', part)
      .execute();
  }
}

/**
 * The earliest instant a reminder that can fire is due: its next_fire_utc or its next alert
 * (next_alert_utc), one seek on each partial index.
 */
export async function nextReminderFire(db: Executor): Promise<string | null> {
  const row = await db
    .selectFrom('reminders')
    .select('next_fire_utc')
    .where('next_fire_utc', 'is not', null)
    .where('is_paused', '=', sql.lit(0))
    .where('account_id', 'not in', disabledAccountIds(db))
    .orderBy('next_fire_utc')
    .limit(1)
    .executeTakeFirst();
  const alert = await db
    .selectFrom('reminders')
    .select('next_alert_utc')
    .where('next_alert_utc', 'is not', null)
    .where('is_paused', '=', sql.lit(0))
    .where('account_id', 'not in', disabledAccountIds(db))
    .orderBy('next_alert_utc')
    .limit(1)
    .executeTakeFirst();
  const fire = row?.next_fire_utc ?? null;
  const alertAt = alert?.next_alert_utc ?? null;
  return fire === null ? alertAt : alertAt === null || fire <= alertAt ? fire : alertAt;
}

/** Reminders that are due but not claimed yet. */
export async function countDueReminders(db: Executor, nowIso: string): Promise<number> {
  const row = await db
    .selectFrom('reminders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('next_fire_utc', 'is not', null)
    .where('is_paused', '=', sql.lit(0))
    .where('next_fire_utc', '<=', nowIso)
    .where('account_id', 'not in', disabledAccountIds(db))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}