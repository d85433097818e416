import { sql } from 'kysely';
import type { DeliveryStatus, DestinationType, StoredRecurrence } from '../db/database.ts';
import type { Executor } from './executor.ts';
import { idLists, takesRowLocks } from './statement-shapes.ts';
import { deliveriesWithTargets } from './delivery-joins.ts';

/*
 * The outbox: open deliveries (pending or retrying), each leased to the instance sending it.
 */

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
  let q = deliveriesWithTargets(db)
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
