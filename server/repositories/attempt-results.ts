import type { AttemptOutcome } from '../db/database.ts';
import type { Executor } from './executor.ts';
import { idLists, insertChunks } from './statement-batches.ts';

/*
 * Writing attempt results: the attempt log and each delivery's new state, in batches.
 */

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
  /** Set when the destination stops (the retry policy decided): its reason and code. */
  disableReason: string | null;
  disableCode: string | null;
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
          .set({ disabled_at: r.finishedAt, disabled_reason: r.disableReason, disabled_code: r.disableCode })
          .where('id', '=', r.destinationId)
          .where('disabled_at', 'is', null)
          .execute();
      }
    }
  });
}

/** The final statuses (delivered, failed) of a destination's latest `limit` deliveries, newest first. */
export async function latestFinalStatuses(db: Executor, destinationId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('deliveries')
    .select('status')
    .where('destination_id', '=', destinationId)
    .where('status', 'in', ['delivered', 'failed'])
    .orderBy('occurrence_utc', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.status);
}

/** Stops sending to a destination (unless it already stopped), with the reason and code given. */
export async function disableDestination(db: Executor, destinationId: string, atIso: string, reason: string, code: string): Promise<void> {
  await db
    .updateTable('destinations')
    .set({ disabled_at: atIso, disabled_reason: reason, disabled_code: code })
    .where('id', '=', destinationId)
    .where('disabled_at', 'is', null)
    .execute();
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