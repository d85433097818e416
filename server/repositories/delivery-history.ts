/**
 * What the owner reads and does about deliveries (docs/webhooks.md "Delivery history and problems"): the
 * history of a reminder with every attempt, resending one, the problems list and dismissing it.
 * The scheduler's own outbox queries are in outbox.ts, due-reminders.ts and attempt-results.ts.
 */
import { sql } from 'kysely';
import type { DeliveryStatus, DestinationType } from '../db/database.ts';
import type { Executor } from './executor.ts';
import { deliveriesWithTargets } from './delivery-joins.ts';

export interface HistoryCursor {
  occurrenceUtc: string;
  destinationId: string;
  /** The row's alert (deliveries.alert_minutes); -1 for a cursor written before alerts (all of its key's rows were on its page). */
  alertMinutes: number;
}

export interface HistoryDelivery {
  id: string;
  occurrence_utc: string;
  destination_id: string;
  destination_type: DestinationType;
  destination_metadata: string;
  status: DeliveryStatus;
  late: number;
  alert_minutes: number;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

function historyQuery(db: Executor, reminderId: string) {
  return db
    .selectFrom('deliveries as d')
    .innerJoin('destinations as ds', 'ds.id', 'd.destination_id')
    .select([
      'd.id',
      'd.occurrence_utc',
      'd.destination_id',
      'ds.type as destination_type',
      'ds.metadata as destination_metadata',
      'd.status',
      'd.late',
      'd.alert_minutes',
      'd.delivered_at',
      'd.next_attempt_at',
    ])
    .where('d.reminder_id', '=', reminderId);
}

/** One delivery of the reminder, as the history shows it. */
export async function findReminderDelivery(db: Executor, reminderId: string, deliveryId: string): Promise<HistoryDelivery | undefined> {
  return historyQuery(db, reminderId).where('d.id', '=', deliveryId).executeTakeFirst();
}

/**
 * One page of a reminder's deliveries, newest occurrence first, after `before`. Ordered by the
 * unique key (reminder, occurrence, destination) so the page walks an index.
 */
export async function listReminderDeliveries(db: Executor, reminderId: string, before: HistoryCursor | null, limit: number): Promise<HistoryDelivery[]> {
  let q = historyQuery(db, reminderId);
  if (before) q = q.where(sql<boolean>`(d.occurrence_utc, d.destination_id, d.alert_minutes) < (${before.occurrenceUtc}, ${before.destinationId}, ${before.alertMinutes})`);
  return q.orderBy('d.occurrence_utc', 'desc').orderBy('d.destination_id', 'desc').orderBy('d.alert_minutes', 'desc').limit(limit).execute();
}

export interface HistoryAttempt {
  delivery_id: string;
  attempt: number;
  outcome: 'delivered' | 'failed' | 'retrying';
  created_at: string;
  http_status: number | null;
  error_code: string | null;
  error: string | null;
  duration_ms: number | null;
}

/** Every logged attempt of these deliveries, in attempt order. */
export async function listAttemptsOf(db: Executor, deliveryIds: string[]): Promise<HistoryAttempt[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('delivery_attempts')
    .select(['delivery_id', 'attempt', 'outcome', 'created_at', 'http_status', 'error_code', 'error', 'duration_ms'])
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('attempt')
    .orderBy('id')
    .execute();
}

export interface OwnedDelivery {
  id: string;
  reminder_id: string;
  destination_id: string;
  status: DeliveryStatus;
  next_attempt_at: string | null;
  destination_disabled_at: string | null;
}

/** A delivery of the account's reminder; undefined when it is another account's or unknown. */
export async function findDeliveryOfAccount(db: Executor, accountId: string, deliveryId: string): Promise<OwnedDelivery | undefined> {
  return db
    .selectFrom('deliveries as d')
    .innerJoin('destinations as ds', 'ds.id', 'd.destination_id')
    .select(['d.id', 'd.reminder_id', 'd.destination_id', 'd.status', 'd.next_attempt_at', 'ds.disabled_at as destination_disabled_at'])
    .where('d.id', '=', deliveryId)
    .where('d.account_id', '=', accountId)
    .executeTakeFirst();
}

/**
 * Queues one more attempt now, keeping the idempotency key (webhook-id) and the attempt count.
 * Only a finished delivery, or one waiting for a retry, is requeued: one being sent stays as it
 * is. Answers whether it was requeued.
 */
export async function requeueDelivery(db: Executor, deliveryId: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('deliveries')
    .set({ status: 'pending', next_attempt_at: now, dismissed_at: null, updated_at: now, lease_owner: null, lease_expires_at: null })
    .where('id', '=', deliveryId)
    .where((eb) => eb.or([eb('status', 'in', ['delivered', 'failed']), eb.and([eb('status', '=', 'retrying'), eb('next_attempt_at', '>', now)])]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export interface DeliveryProblem {
  delivery_id: string;
  reminder_id: string;
  reminder_message: string;
  destination_id: string;
  destination_type: DestinationType;
  destination_metadata: string;
  occurrence_utc: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  code: string | null;
  error: string | null;
  updated_at: string;
}

/**
 * The account's failed and retrying deliveries that were not dismissed, newest first: one row per
 * delivery, however many attempts it took. The status literals match deliveries_problems_idx.
 */
export async function listDeliveryProblems(db: Executor, accountId: string, limit: number): Promise<DeliveryProblem[]> {
  return deliveriesWithTargets(db)
    .select([
      'd.id as delivery_id',
      'd.reminder_id',
      'r.message as reminder_message',
      'd.destination_id',
      'ds.type as destination_type',
      'ds.metadata as destination_metadata',
      'd.occurrence_utc',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_error_code as code',
      'd.last_error as error',
      'd.updated_at',
    ])
    .where('d.account_id', '=', accountId)
    .where(sql<boolean>`d.status in ('failed', 'retrying')`)
    .where('d.dismissed_at', 'is', null)
    .orderBy('d.updated_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}

/** The HTTP status of each delivery's latest attempt (the problems list shows it). */
export async function lastHttpStatusOf(db: Executor, deliveryIds: string[]): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  if (deliveryIds.length === 0) return out;
  const rows = await db
    .selectFrom('delivery_attempts')
    .select(['delivery_id', 'http_status', 'attempt'])
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempt')
    .orderBy('id')
    .execute();
  for (const row of rows) out.set(row.delivery_id, row.http_status);
  return out;
}

/** Hides a failed or retrying delivery of the account from the problems list; false when there is none. */
export async function dismissDelivery(db: Executor, accountId: string, deliveryId: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('deliveries')
    .set({ dismissed_at: now })
    .where('id', '=', deliveryId)
    .where('account_id', '=', accountId)
    .where('status', 'in', ['failed', 'retrying'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Turns a disabled destination back on. */
export async function enableDestination(db: Executor, destinationId: string): Promise<void> {
  await db.updateTable('destinations').set({ disabled_at: null, disabled_reason: null, disabled_code: null }).where('id', '=', destinationId).execute();
}
