import { type NotNull, sql } from 'kysely';
import type { Executor } from './executor.ts';
import { idLists, takesRowLocks } from './statement-batches.ts';
import { deliveriesWithTargets } from './delivery-joins.ts';

/*
 * The outbox: open deliveries (pending or retrying), each leased to the instance sending it.
 */

/** An open delivery with what a send needs of its reminder, destination and account (loadOutboxRows' columns). */
export type OutboxRow = Awaited<ReturnType<ReturnType<typeof outboxRowsQuery>['execute']>>[number];

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

/**
 * Leases up to `limit` deliveries ready to send (due, not leased or their lease run out, not of a
 * key in `skipKeys`), earliest first, to `lease.owner`, and answers them with everything a send
 * needs. The lease is ONE statement (UPDATE ... WHERE id IN (SELECT ... LIMIT n) RETURNING id; on
 * PostgreSQL the inner select skips rows another instance is leasing at that moment), the way
 * pg-boss and graphile-worker take jobs; the rows are then read by id. Run it in a transaction:
 * if the read fails, the leases must go with it.
 */
export async function claimDueDeliveries(
  db: Executor,
  nowIso: string,
  limit: number,
  lease: DeliveryLease,
  skipKeys: readonly string[] = [],
  /** A first attempt due before this instant is marked late (a delivery prepared ahead whose sender stalled or died). */
  lateBeforeIso: string | null = null,
): Promise<OutboxRow[]> {
  if (limit <= 0) return [];
  let due = db
    .selectFrom('deliveries as d')
    .select('d.id')
    .where(isOpen)
    .where('d.next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('d.lease_owner', 'is', null), eb('d.lease_expires_at', '<=', nowIso)]))
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(limit);
  if (skipKeys.length > 0) due = due.where((eb) => eb.or([eb('d.concurrency_key', 'is', null), eb('d.concurrency_key', 'not in', [...skipKeys])]));
  if (takesRowLocks(db)) due = due.forUpdate().skipLocked();
  const leased = await db
    .updateTable('deliveries')
    .set((eb) => ({
      lease_owner: lease.owner,
      lease_expires_at: lease.until,
      ...(lateBeforeIso === null
        ? {}
        : { late: eb.case().when(eb.and([eb('attempts', '=', 0), eb('next_attempt_at', '<', lateBeforeIso)])).then(1).else(eb.ref('late')).end() }),
    }))
    .where('id', 'in', due)
    .returning('id')
    .execute();
  return loadOutboxRows(
    db,
    leased.map((r) => r.id),
  );
}

/** The earliest instant a delivery not leased (nor of a key in `skipKeys`) becomes due: when the timer next claims one. */
export async function nextClaimableAttempt(db: Executor, skipKeys: readonly string[] = []): Promise<string | null> {
  let best: string | null = null;
  // One seek per status: an IN over both would sort every open row.
  for (const status of ['pending', 'retrying'] as const) {
    let q = db
      .selectFrom('deliveries as d')
      .select('d.next_attempt_at')
      .where(isOpen)
      .where('d.status', '=', sql.lit(status))
      .where('d.next_attempt_at', 'is not', null)
      .where('d.lease_owner', 'is', null)
      .orderBy('d.next_attempt_at')
      .limit(1);
    if (skipKeys.length > 0) q = q.where((eb) => eb.or([eb('d.concurrency_key', 'is', null), eb('d.concurrency_key', 'not in', [...skipKeys])]));
    const row = await q.executeTakeFirst();
    if (row?.next_attempt_at && (best === null || row.next_attempt_at < best)) best = row.next_attempt_at;
  }
  return best;
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

/** Extends this owner's leases on these deliveries (the rows in its memory). */
export async function renewDeliveryLeases(db: Executor, ids: readonly string[], lease: DeliveryLease): Promise<void> {
  for (const part of idLists([...ids])) {
    await db.updateTable('deliveries').set({ lease_expires_at: lease.until }).where('id', 'in', part).where('lease_owner', '=', lease.owner).execute();
  }
}

/** Open deliveries by id (`ids`, one statement's worth), with what a send needs of their reminder, destination and account. */
const outboxRowsQuery = (db: Executor, ids: string[]) =>
  deliveriesWithTargets(db)
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
      'd.alert_minutes',
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
    .where('d.id', 'in', ids)
    // Only open deliveries are leased, and an open delivery always has its next attempt's time.
    .$narrowType<{ next_attempt_at: NotNull }>();

/** Open deliveries by id, earliest first. */
async function loadOutboxRows(db: Executor, ids: string[]): Promise<OutboxRow[]> {
  const out: OutboxRow[] = [];
  for (const part of idLists(ids)) out.push(...(await outboxRowsQuery(db, part).execute()));
  return out.sort((a, b) => (a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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

/**
 * Drops the deliveries of a reminder prepared ahead (scheduler option prepareAheadMs) that were
 * never tried and are not due yet: pending, no attempt, not leased, next attempt after `nowIso`.
 * For an edit, which derives the whole schedule again from what the user chose: whatever is still
 * due is prepared again from the new fields.
 */
export async function discardPreparedDeliveries(db: Executor, reminderId: string, nowIso: string): Promise<number> {
  const res = await db
    .deleteFrom('deliveries')
    .where('reminder_id', '=', reminderId)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('lease_owner', 'is', null)
    .where('next_attempt_at', '>', nowIso)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
