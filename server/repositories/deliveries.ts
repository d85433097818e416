import { PostgresAdapter, sql } from 'kysely';
import type { AttemptOutcome, DeliveryStatus, DestinationType, StoredRecurrence } from '../db/database.ts';
import type { Executor } from './executor.ts';

/**
 * Multi-row statements come in a few fixed shapes only, so the prepared-statement cache keeps
 * hitting instead of compiling (and holding on to) one statement per batch size:
 *  - rows to insert: chunks whose sizes are powers of two up to `max`;
 *  - ids for `in (...)`: lists padded to a power of two by repeating the last id (harmless in IN).
 */
function insertChunks<T>(items: T[], max = 256): T[][] {
  const out: T[][] = [];
  let i = 0;
  while (i < items.length) {
    let size = max;
    while (size > items.length - i) size >>= 1;
    out.push(items.slice(i, i + size));
    i += size;
  }
  return out;
}

function idLists(ids: string[], max = 512): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += max) {
    const part = ids.slice(i, i + max);
    let size = 1;
    while (size < part.length) size <<= 1;
    while (part.length < size) part.push(part[part.length - 1]!);
    out.push(part);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Claiming due reminders: the primitives the claimer (server/scheduler/claimer.ts) runs in one
// transaction, with the planner in between.

/** A due reminder with what its deliveries need of it and of its account. */
export interface DueReminderRow {
  id: string;
  account_id: string;
  message: string;
  local_date: string;
  local_time: string;
  remind_at_utc: string;
  timezone: string;
  recurrence_type: StoredRecurrence;
  rrule: string | null;
  exceptions: string;
  snoozed_at_utc: string | null;
  next_fire_utc: string;
  next_occurrence_utc: string | null;
  account_timezone: string;
  locale: string | null;
  username: string;
}

/** Up to `limit` reminders due at `nowIso`, earliest first (paused ones never); only `onlyIds` when given. */
export async function selectDueReminders(db: Executor, nowIso: string, limit: number, onlyIds?: string[]): Promise<DueReminderRow[]> {
  // Exactly the predicates of the partial index reminders_due_idx (literal 0, not a parameter).
  const query = db
    .selectFrom('reminders as r')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .select([
      'r.id',
      'r.account_id',
      'r.message',
      'r.local_date',
      'r.local_time',
      'r.remind_at_utc',
      'r.timezone',
      'r.recurrence_type',
      'r.rrule',
      'r.exceptions',
      'r.snoozed_at_utc',
      'r.next_fire_utc',
      'r.next_occurrence_utc',
      'a.timezone as account_timezone',
      'a.locale',
      'a.username',
    ])
    .where('r.next_fire_utc', 'is not', null)
    .where('r.is_paused', '=', sql.lit(0))
    .where('r.next_fire_utc', '<=', nowIso)
    .$if(onlyIds !== undefined, (q) => q.where('r.id', 'in', onlyIds!))
    .orderBy('r.next_fire_utc')
    .limit(limit);
  // Several instances claiming at once take disjoint reminders (SQLite serializes the whole claim).
  const rows = takesRowLocks(db) ? await query.forUpdate('r').skipLocked().execute() : await query.execute();
  return rows as DueReminderRow[];
}

/** The ids of due reminders `offset` on, earliest first (read only: what a claim could take). */
export async function selectDueReminderIds(db: Executor, nowIso: string, limit: number, offset: number): Promise<string[]> {
  const rows = await db
    .selectFrom('reminders')
    .select('id')
    .where('next_fire_utc', 'is not', null)
    .where('is_paused', '=', sql.lit(0))
    .where('next_fire_utc', '<=', nowIso)
    .orderBy('next_fire_utc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => r.id);
}

export interface EnabledDestinationRow {
  id: string;
  reminder_id: string;
  type: DestinationType;
  metadata: string;
  secret: string | null;
}

/** The destinations of these reminders that are not disabled, in each reminder's order. */
export async function listEnabledDestinations(db: Executor, reminderIds: string[]): Promise<EnabledDestinationRow[]> {
  const out: EnabledDestinationRow[] = [];
  for (const part of idLists(reminderIds)) {
    const rows = await db
      .selectFrom('destinations')
      .select(['id', 'reminder_id', 'type', 'metadata', 'secret'])
      .where('reminder_id', 'in', part)
      .where('disabled_at', 'is', null)
      .orderBy('position')
      .execute();
    for (const row of rows) out.push(row);
  }
  return out;
}

/** A pending delivery to write to the outbox. */
export interface NewDelivery {
  id: string;
  reminder_id: string;
  destination_id: string;
  account_id: string;
  occurrence_utc: string;
  idempotency_key: string;
  next_attempt_at: string;
  late: number;
}

/**
 * Writes pending deliveries; one that already exists for its (reminder, occurrence, destination)
 * is skipped. `written` holds the rows known to be in the table now: on a conflict a chunk cannot
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
        })),
      )
      .onConflict((oc) => oc.columns(['reminder_id', 'occurrence_utc', 'destination_id']).doNothing())
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
  next: { nextFireUtc: string | null; completed: boolean },
  nowIso: string,
): Promise<void> {
  for (const part of idLists(reminderIds)) {
    await db
      .updateTable('reminders')
      .set({
        next_fire_utc: next.nextFireUtc,
        next_occurrence_utc: next.nextFireUtc,
        snoozed_at_utc: null,
        last_fired_at: nowIso,
        ...(next.completed ? { completed_at: nowIso } : {}),
      })
      .where('id', 'in', part)
      .execute();
  }
}

// ---------------------------------------------------------------------------------------------
// The outbox

export interface OutboxCursor {
  at: string;
  id: string;
}

export interface OutboxRow {
  id: string;
  reminder_id: string;
  destination_id: string;
  account_id: string;
  occurrence_utc: string;
  idempotency_key: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  late: number;
  message: string;
  recurrence_type: StoredRecurrence;
  reminder_timezone: string;
  remind_at_utc: string;
  destination_type: DestinationType;
  metadata: string;
  secret: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  account_timezone: string;
  locale: string | null;
  username: string;
}

/**
 * Open deliveries: exactly the predicate of the partial index deliveries_open_partial_idx
 * (literals, so SQLite can prove the query is covered by it).
 */
const isOpen = sql<boolean>`d.status in ('pending', 'retrying')`;

/** Who is sending a delivery, and until when unless renewed (see migration 2026-11-23-011). */
export interface DeliveryLease {
  owner: string;
  until: string;
}

/** PostgreSQL takes row locks: concurrent claimers skip each other's rows instead of waiting. */
const takesRowLocks = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * One page of deliveries ready to send, in (next_attempt_at, id) order after `cursor`, that no
 * other instance holds: each is leased to `lease.owner` in the same transaction. Rows this owner
 * already holds are read again (they may be in its memory: the pump skips those).
 */
export async function claimOutboxPage(
  db: Executor,
  status: 'pending' | 'retrying',
  nowIso: string,
  cursor: OutboxCursor | null,
  limit: number,
  lease: DeliveryLease,
): Promise<OutboxRow[]> {
  // Locked rows decide who sends what (see the claimer): READ COMMITTED, no serialization retries.
  return db.transaction().setIsolationLevel('read committed').execute(async (trx) => {
    const rows = await loadOutboxPage(trx, status, nowIso, cursor, limit, lease.owner);
    for (const part of idLists(rows.map((r) => r.id))) {
      await trx.updateTable('deliveries').set({ lease_owner: lease.owner, lease_expires_at: lease.until }).where('id', 'in', part).execute();
    }
    return rows;
  });
}

/** Gives leased rows back (no room in memory, shutdown): another instance may take them at once. */
export async function releaseDeliveryLeases(db: Executor, ids: string[], owner: string): Promise<void> {
  for (const part of idLists(ids)) {
    await db.updateTable('deliveries').set({ lease_owner: null, lease_expires_at: null }).where('id', 'in', part).where('lease_owner', '=', owner).execute();
  }
}

/** Whether some open delivery's lease ran out (its instance died): the outbox must be read again. */
export async function hasExpiredLeases(db: Executor, nowIso: string): Promise<boolean> {
  const row = await db.selectFrom('deliveries as d').select('d.id').where(isOpen).where('d.lease_expires_at', '<=', nowIso).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Gives back every lease of this owner (shutdown): what it did not send, another instance may. */
export async function releaseOwnerLeases(db: Executor, owner: string): Promise<void> {
  await db.updateTable('deliveries as d').set({ lease_owner: null, lease_expires_at: null }).where(isOpen).where('d.lease_owner', '=', owner).execute();
}

/** Extends every lease this owner holds on open deliveries (the rows in its memory). */
export async function renewDeliveryLeases(db: Executor, lease: DeliveryLease): Promise<number> {
  const res = await db
    .updateTable('deliveries as d')
    .set({ lease_expires_at: lease.until })
    .where(isOpen)
    .where('d.lease_owner', '=', lease.owner)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** One page of sendable deliveries that `owner` may take (unleased, expired, or its own). */
async function loadOutboxPage(
  db: Executor,
  status: 'pending' | 'retrying',
  nowIso: string,
  cursor: OutboxCursor | null,
  limit: number,
  owner: string,
): Promise<OutboxRow[]> {
  let q = db
    .selectFrom('deliveries as d')
    .innerJoin('reminders as r', 'r.id', 'd.reminder_id')
    .innerJoin('destinations as ds', 'ds.id', 'd.destination_id')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select([
      'd.id',
      'd.reminder_id',
      'd.destination_id',
      'd.account_id',
      'd.occurrence_utc',
      'd.idempotency_key',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.late',
      'r.message',
      'r.recurrence_type',
      'r.timezone as reminder_timezone',
      'r.remind_at_utc',
      'ds.type as destination_type',
      'ds.metadata',
      'ds.secret',
      'ds.disabled_at',
      'ds.disabled_reason',
      'a.timezone as account_timezone',
      'a.locale',
      'a.username',
    ])
    .where(isOpen)
    .where('d.status', '=', sql.lit(status))
    .where('d.next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('d.lease_expires_at', 'is', null), eb('d.lease_expires_at', '<=', nowIso), eb('d.lease_owner', '=', owner)]));
  if (cursor) q = q.where(sql<boolean>`(d.next_attempt_at, d.id) > (${cursor.at}, ${cursor.id})`);
  q = q.orderBy('d.next_attempt_at').orderBy('d.id').limit(limit);
  const rows = takesRowLocks(db) ? await q.forUpdate('d').skipLocked().execute() : await q.execute();
  return rows as OutboxRow[];
}

/** After a restart: every unfinished delivery is sent again, with its original idempotency key. */
export async function recoverOutbox(db: Executor, nowIso: string): Promise<number> {
  const res = await db
    .updateTable('deliveries')
    .set({ next_attempt_at: nowIso })
    .where('status', 'in', ['pending', 'retrying'])
    .where('next_attempt_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The next instant a delivery becomes due, strictly after `afterIso`. */
export async function nextDeliveryAttemptAfter(db: Executor, afterIso: string): Promise<string | null> {
  let best: string | null = null;
  // One seek per status: an IN over both would sort every open row after afterIso.
  for (const status of ['pending', 'retrying'] as const) {
    const row = await db
      .selectFrom('deliveries as d')
      .select('d.next_attempt_at')
      .where(isOpen)
      .where('d.status', '=', sql.lit(status))
      .where('d.next_attempt_at', '>', afterIso)
      .orderBy('d.next_attempt_at')
      .limit(1)
      .executeTakeFirst();
    if (row?.next_attempt_at && (best === null || row.next_attempt_at < best)) best = row.next_attempt_at;
  }
  return best;
}

/** The earliest next_fire_utc over reminders that can fire (uses the partial due index). */
export async function nextReminderFire(db: Executor): Promise<string | null> {
  const row = await db
    .selectFrom('reminders')
    .select('next_fire_utc')
    .where('next_fire_utc', 'is not', null)
    .where('is_paused', '=', sql.lit(0))
    .orderBy('next_fire_utc')
    .limit(1)
    .executeTakeFirst();
  return row?.next_fire_utc ?? null;
}

/** Reminders that are due but not claimed yet. */
export async function countDueReminders(db: Executor, nowIso: string): Promise<number> {
  const row = await db
    .selectFrom('reminders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('next_fire_utc', 'is not', null)
    .where('is_paused', '=', sql.lit(0))
    .where('next_fire_utc', '<=', nowIso)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Writing attempt results

export interface AttemptRecord {
  deliveryId: string;
  reminderId: string;
  destinationId: string;
  accountId: string;
  occurrenceUtc: string;
  /** 1-based attempt number (deliveries.attempts after this attempt). */
  attempt: number;
  outcome: AttemptOutcome;
  /** Readable detail of a failure; null when delivered. */
  error: string | null;
  /** Stable machine code of a failure (WEBHOOK_HTTP_5XX, DISCORD_CANNOT_DM...); null when delivered. */
  errorCode: string | null;
  httpStatus: number | null;
  durationMs: number;
  startedAt: string;
  finishedAt: string;
  /** Set when outcome is 'retrying'. */
  nextAttemptAt: string | null;
  /** Set when the target is gone for good. */
  disableReason: string | null;
}

/**
 * Writes a batch of attempt results in one transaction: the attempt log rows and the new state of
 * each delivery. Deliveries deleted meanwhile (reminder deleted) are skipped.
 */
export async function writeAttemptResults(db: Executor, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  // READ COMMITTED on PostgreSQL: every write here is keyed by id, and under SERIALIZABLE a batch
  // of a thousand results conflicted with other instances' claims (40001) until retries ran out.
  // A reminder deleted meanwhile fails the batch on its foreign key; the recorder writes it again.
  await db.transaction().setIsolationLevel('read committed').execute(async (trx) => {
    const existing = new Set<string>();
    for (const part of idLists(records.map((r) => r.deliveryId))) {
      for (const row of await trx.selectFrom('deliveries').select('id').where('id', 'in', part).execute()) existing.add(row.id);
    }
    const live = records.filter((r) => existing.has(r.deliveryId));
    if (live.length === 0) return;

    for (const part of insertChunks(live, 128)) {
      await trx
        .insertInto('delivery_attempts')
        .values(
          part.map((r) => ({
            delivery_id: r.deliveryId,
            reminder_id: r.reminderId,
            destination_id: r.destinationId,
            account_id: r.accountId,
            occurrence_utc: r.occurrenceUtc,
            attempt: r.attempt,
            outcome: r.outcome,
            error: r.error,
            http_status: r.httpStatus,
            error_code: r.errorCode,
            duration_ms: r.durationMs,
            created_at: r.startedAt,
          })),
        )
        .execute();
    }

    // Successful deliveries of one batch share a statement per attempt number.
    const delivered = new Map<number, AttemptRecord[]>();
    for (const r of live) {
      if (r.outcome !== 'delivered') continue;
      const list = delivered.get(r.attempt);
      if (list) list.push(r);
      else delivered.set(r.attempt, [r]);
    }
    for (const [attempt, list] of delivered) {
      const at = list.reduce((max, r) => (r.finishedAt > max ? r.finishedAt : max), list[0]!.finishedAt);
      for (const part of idLists(list.map((r) => r.deliveryId))) {
        await trx
          .updateTable('deliveries')
          .set({
            status: 'delivered',
            attempts: attempt,
            delivered_at: at,
            updated_at: at,
            next_attempt_at: null,
            last_error: null,
            last_error_code: null,
            lease_owner: null,
            lease_expires_at: null,
          })
          .where('id', 'in', part)
          .execute();
      }
    }

    for (const r of live) {
      if (r.outcome === 'delivered') continue;
      await trx
        .updateTable('deliveries')
        .set({
          status: r.outcome,
          attempts: r.attempt,
          next_attempt_at: r.outcome === 'retrying' ? r.nextAttemptAt : null,
          last_error: r.error,
          last_error_code: r.errorCode,
          updated_at: r.finishedAt,
          lease_owner: null,
          lease_expires_at: null,
        })
        .where('id', '=', r.deliveryId)
        .execute();
      if (r.disableReason) {
        await trx
          .updateTable('destinations')
          .set({ disabled_at: r.finishedAt, disabled_reason: r.disableReason, disabled_code: r.errorCode })
          .where('id', '=', r.destinationId)
          .where('disabled_at', 'is', null)
          .execute();
      }
    }

    // A destination whose last FAILING_STREAK deliveries all failed after every retry stops
    // (README "Delivery history and problems"): its owner sees why and can re-enable it.
    const failedDestinations = new Map<string, string>();
    for (const r of live) if (r.outcome === 'failed' && !r.disableReason) failedDestinations.set(r.destinationId, r.finishedAt);
    for (const [destinationId, at] of failedDestinations) {
      const last = await trx
        .selectFrom('deliveries')
        .select('status')
        .where('destination_id', '=', destinationId)
        .where('status', 'in', ['delivered', 'failed'])
        .orderBy('occurrence_utc', 'desc')
        .limit(FAILING_STREAK)
        .execute();
      if (last.length < FAILING_STREAK || last.some((d) => d.status !== 'failed')) continue;
      await trx
        .updateTable('destinations')
        .set({ disabled_at: at, disabled_reason: `The last ${FAILING_STREAK} deliveries failed`, disabled_code: 'DESTINATION_FAILING' })
        .where('id', '=', destinationId)
        .where('disabled_at', 'is', null)
        .execute();
    }
  });
}

/** Failed deliveries in a row (each after all its retries) that disable a destination. */
export const FAILING_STREAK = 5;

// ---------------------------------------------------------------------------------------------
// Retention

/** Deletes the delivery log older than `cutoffIso` in small batches; returns rows deleted. */
export async function pruneDeliveryLog(db: Executor, cutoffIso: string, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await db
      .deleteFrom('delivery_attempts')
      .where('id', 'in', (eb) => eb.selectFrom('delivery_attempts').select('id').where('created_at', '<', cutoffIso).limit(batch))
      .executeTakeFirst();
    const n = Number(res.numDeletedRows);
    total += n;
    if (n < batch) break;
  }
  for (;;) {
    const res = await db
      .deleteFrom('deliveries')
      .where('id', 'in', (eb) =>
        eb.selectFrom('deliveries').select('id').where('status', 'in', ['delivered', 'failed']).where('updated_at', '<', cutoffIso).limit(batch),
      )
      .executeTakeFirst();
    const n = Number(res.numDeletedRows);
    total += n;
    if (n < batch) break;
  }
  return total;
}

/**
 * Whether a send of this reminder (other than `exceptDeliveryId`) failed with `code` since
 * `sinceIso`: the owner was told then (the channel failure notice is sent once per day).
 */
export async function hasFailedAttemptSince(db: Executor, input: { reminderId: string; code: string; sinceIso: string; exceptDeliveryId: string }): Promise<boolean> {
  const row = await db
    .selectFrom('delivery_attempts')
    .select('id')
    .where('reminder_id', '=', input.reminderId)
    .where('error_code', '=', input.code)
    .where('created_at', '>=', input.sinceIso)
    .where('delivery_id', '!=', input.exceptDeliveryId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
