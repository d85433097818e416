/**
 * Deliveries as their owner sees them (docs/webhooks.md "Delivery history and problems"): the history of a
 * reminder with every attempt, resending one delivery, the problems list (one row per failed
 * delivery) and dismissing it, re-enabling a destination that was disabled. Another account's
 * reminder, delivery or destination is "not found".
 */
import type { FastifyInstance } from 'fastify';
import type { DestinationType } from '../db/database.ts';
import { destinationLabel } from '../destinations/validate.ts';
import { AppError } from '../errors.ts';
import { findDestinationOfAccount } from '../repositories/destinations.ts';
import {
  dismissDelivery,
  enableDestination,
  findDeliveryOfAccount,
  findReminderDelivery,
  type HistoryAttempt,
  type HistoryCursor,
  lastHttpStatusOf,
  listAttemptsOf,
  listDeliveryProblems,
  listReminderDeliveries,
  requeueDelivery,
} from '../repositories/delivery-history.ts';
import { findReminderOfAccount } from '../repositories/reminders.ts';
import { takeManualSendSlot } from './destination-actions.ts';
import { earlierResult, idempotencyScope, runOnce } from './idempotency.ts';

export type DeliveryDeps = Pick<FastifyInstance, 'db' | 'scheduler' | 'config'>;

export const HISTORY_PAGE_DEFAULT = 50;
export const HISTORY_PAGE_MAX = 200;
/** The problems list shows the latest ones; older ones stay in each reminder's history. */
const PROBLEMS_MAX = 100;

export interface AttemptView {
  attempt: number;
  at: string;
  outcome: 'ok' | 'error';
  http_status: number | null;
  code: string | null;
  error: string | null;
  duration_ms: number | null;
}

export interface DeliveryView {
  id: string;
  occurrence_utc: string;
  destination_id: string;
  destination_type: DestinationType;
  destination_label: string;
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  late: boolean;
  /** An alert this many minutes before the occurrence; null for the occurrence itself. */
  alert_minutes: number | null;
  delivered_at: string | null;
  next_attempt_at: string | null;
  attempts: AttemptView[];
}

// A cursor is the last row's key, opaque to clients: base64url of "occurrence|destination|alert"
// (the alert since alerts: one occurrence and destination may have several rows).
const encodeCursor = (c: HistoryCursor) => Buffer.from(`${c.occurrenceUtc}|${c.destinationId}|${c.alertMinutes}`).toString('base64url');

function decodeCursor(text: string): HistoryCursor {
  const [occurrenceUtc, destinationId, alert, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const alertMinutes = alert === undefined ? -1 : Number(alert);
  if (rest.length > 0 || !occurrenceUtc || !destinationId || Number.isNaN(Date.parse(occurrenceUtc)) || !Number.isInteger(alertMinutes)) {
    throw new AppError('CURSOR_INVALID', 'before must be a next_cursor of an earlier page');
  }
  return { occurrenceUtc, destinationId, alertMinutes };
}

function attemptView(a: HistoryAttempt): AttemptView {
  return {
    attempt: a.attempt,
    at: a.created_at,
    outcome: a.outcome === 'delivered' ? 'ok' : 'error',
    http_status: a.http_status,
    code: a.error_code,
    error: a.error,
    duration_ms: a.duration_ms,
  };
}

async function requireReminder(deps: Pick<DeliveryDeps, 'db'>, accountId: string, reminderId: string) {
  const reminder = await findReminderOfAccount(deps.db, accountId, reminderId);
  if (!reminder) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
  return reminder;
}

async function viewsOf(deps: Pick<DeliveryDeps, 'db'>, rows: Awaited<ReturnType<typeof listReminderDeliveries>>): Promise<DeliveryView[]> {
  const attempts = await listAttemptsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  const byDelivery = new Map<string, AttemptView[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id) ?? [];
    list.push(attemptView(a));
    byDelivery.set(a.delivery_id, list);
  }
  return rows.map((r) => ({
    id: r.id,
    occurrence_utc: r.occurrence_utc,
    destination_id: r.destination_id,
    destination_type: r.destination_type,
    destination_label: destinationLabel(r.destination_type, r.destination_metadata),
    status: r.status,
    late: !!r.late,
    alert_minutes: r.alert_minutes > 0 ? r.alert_minutes : null,
    delivered_at: r.delivered_at,
    next_attempt_at: r.next_attempt_at,
    attempts: byDelivery.get(r.id) ?? [],
  }));
}

/** A page of the reminder's deliveries, newest occurrence first; `next_cursor` null on the last page. */
export async function deliveryHistory(
  deps: Pick<DeliveryDeps, 'db'>,
  accountId: string,
  reminderId: string,
  query: { limit?: number | undefined; before?: string | undefined },
): Promise<{ deliveries: DeliveryView[]; next_cursor: string | null }> {
  const limit = query.limit ?? HISTORY_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_PAGE_MAX) {
    throw new AppError('VALIDATION_FAILED', `limit must be a whole number from 1 to ${HISTORY_PAGE_MAX}`);
  }
  const before = query.before ? decodeCursor(query.before) : null;
  await requireReminder(deps, accountId, reminderId);
  // One row more than asked says whether another page follows.
  const rows = await listReminderDeliveries(deps.db, reminderId, before, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor({ occurrenceUtc: last.occurrence_utc, destinationId: last.destination_id, alertMinutes: last.alert_minutes }) : null;
  return { deliveries: await viewsOf(deps, page), next_cursor: nextCursor };
}

/**
 * Queues a new attempt of one delivery now, with the same idempotency key (webhook-id), so a
 * receiver that already has it can tell. Counts against the account's hand-sent budget. With an
 * Idempotency-Key, the same resend sent again (its answer was lost) queues nothing more and takes
 * no budget: it answers the delivery as it is now (idempotency.ts). Discord and email receivers
 * cannot tell a second copy from the first, so this is what keeps a retry from posting twice.
 */
export async function resendDelivery(
  deps: DeliveryDeps,
  accountId: string,
  reminderId: string,
  deliveryId: string,
  options: { idempotencyKey?: string | undefined } = {},
): Promise<DeliveryView & { replayed?: boolean }> {
  const now = Date.now();
  const scope = idempotencyScope(accountId, options.idempotencyKey, 'deliveries.resend', { reminderId, deliveryId }, now);
  if (await earlierResult(deps.db, scope)) return { ...(await deliveryView(deps, reminderId, deliveryId)), replayed: true };
  await requireReminder(deps, accountId, reminderId);
  const delivery = await findDeliveryOfAccount(deps.db, accountId, deliveryId);
  if (!delivery || delivery.reminder_id !== reminderId) throw new AppError('DELIVERY_NOT_FOUND', 'Delivery not found');
  if (delivery.destination_disabled_at) {
    throw new AppError('DESTINATION_DISABLED', 'This destination is disabled. Re-enable it first, then resend.');
  }
  await takeManualSendSlot(deps, accountId);
  const outcome = await runOnce(
    deps.db,
    scope,
    async (trx) => {
      const requeued = await requeueDelivery(trx, deliveryId, new Date(now).toISOString());
      if (!requeued) throw new AppError('DELIVERY_IN_PROGRESS', 'This delivery is being sent right now. Wait for its result, then resend.');
    },
    () => ({ delivery_id: deliveryId }),
  );
  if (outcome.replayed) return { ...(await deliveryView(deps, reminderId, deliveryId)), replayed: true };
  deps.scheduler.wake();
  return deliveryView(deps, reminderId, deliveryId);
}

async function deliveryView(deps: DeliveryDeps, reminderId: string, deliveryId: string): Promise<DeliveryView> {
  const row = await findReminderDelivery(deps.db, reminderId, deliveryId);
  if (!row) throw new AppError('DELIVERY_NOT_FOUND', 'Delivery not found');
  return (await viewsOf(deps, [row]))[0]!;
}

export interface ProblemView {
  /** Kept for older clients: the delivery's id, as `delivery_id`. */
  id: string;
  delivery_id: string;
  reminder_id: string;
  reminder_message: string;
  destination_id: string;
  destination_type: DestinationType;
  destination_label: string;
  occurrence_utc: string;
  status: 'failed' | 'retrying';
  attempts: number;
  next_attempt_at: string | null;
  http_status: number | null;
  code: string | null;
  error: string | null;
  updated_at: string;
}

/** Failed and retrying deliveries of the account that were not dismissed: one row per delivery. */
export async function deliveryProblems(deps: Pick<DeliveryDeps, 'db'>, accountId: string): Promise<ProblemView[]> {
  const rows = await listDeliveryProblems(deps.db, accountId, PROBLEMS_MAX);
  const statuses = await lastHttpStatusOf(
    deps.db,
    rows.map((r) => r.delivery_id),
  );
  return rows.map(({ destination_metadata, ...r }) => ({
    id: r.delivery_id,
    ...r,
    status: r.status === 'retrying' ? 'retrying' : 'failed',
    destination_label: destinationLabel(r.destination_type, destination_metadata),
    http_status: statuses.get(r.delivery_id) ?? null,
  }));
}

/** Hides one problem; the reminder's history keeps it. */
export async function dismissProblem(deps: Pick<DeliveryDeps, 'db'>, accountId: string, deliveryId: string): Promise<void> {
  if (!(await dismissDelivery(deps.db, accountId, deliveryId, new Date().toISOString()))) {
    throw new AppError('DELIVERY_NOT_FOUND', 'Delivery problem not found');
  }
}

/** Turns a disabled destination back on; the next occurrences are delivered to it again. */
export async function reenableDestination(deps: DeliveryDeps, accountId: string, reminderId: string, destinationId: string): Promise<void> {
  const found = await findDestinationOfAccount(deps.db, accountId, reminderId, destinationId);
  if (!found) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
  if (!found.destination) throw new AppError('DESTINATION_NOT_FOUND', 'Destination not found');
  if (found.destination.disabled_at) {
    await enableDestination(deps.db, destinationId);
    deps.scheduler.destinationEnabled(destinationId);
  }
}
