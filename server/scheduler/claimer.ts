/**
 * The claimer: one transaction turns due reminders into outbox rows. It reads the due reminders,
 * asks the planner what each firing means, writes one pending delivery per enabled destination
 * and moves each reminder to its next occurrence. Either all of it happens or none, so an
 * occurrence is never both skipped and unsent, nor claimed twice.
 */
import type { DB } from '../db/connection.ts';
import { advanceReminders, type EnabledDestinationRow, insertDeliveries, listEnabledDestinations, selectDueReminders } from '../repositories/due-reminders.ts';
import type { DeliveryLease, OutboxRow } from '../repositories/outbox.ts';
import type { Clock } from './clock.ts';
import { newMessageId, uuidv7 } from './ids.ts';
import { planBatch } from './planner.ts';

export interface ClaimResult {
  /** Reminders claimed (when equal to the limit, more may be due). */
  reminders: number;
  /** Deliveries written. */
  deliveries: number;
  /** Seconds between when each written delivery was due and the claim (the lateness histogram). */
  lateness: number[];
  /** The deliveries written that are due now, ready to send without reading them back (all of them, or fewer on a conflict). */
  rows: OutboxRow[];
  /** Deliveries written ahead of their due instant (unleased): the outbox claim takes them when due. */
  prepared: number;
}

const EMPTY: ClaimResult = { reminders: 0, deliveries: 0, lateness: [], rows: [], prepared: 0 };
const iso = (ms: number) => new Date(ms).toISOString();

/** A destination's concurrency key (the send pump's keyOf), written with each delivery. */
export type KeyOf = (type: EnabledDestinationRow['type'], destinationId: string, metadataText: string, secret: string | null) => string;

export class Claimer {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    private readonly keyOf: KeyOf | null = null,
  ) {}

  /**
   * Claims up to `limit` reminders due now or within `aheadMs`. The deliveries due now are leased
   * to `lease` (this instance sends them at once); those of a reminder due a little later are
   * prepared: written unleased with their due instant as next attempt, so the outbox claim hands
   * them to a sender at that instant without planning or inserting anything then (README.md
   * "Prepared ahead").
   */
  claim(limit: number, lateThresholdMs: number, lease?: (nowMs: number) => DeliveryLease, aheadMs = 0): Promise<ClaimResult> {
    const nowMs = this.clock.now();
    const nowIso = iso(nowMs);
    // READ COMMITTED on PostgreSQL: the claim's rows are locked (FOR UPDATE SKIP LOCKED), so
    // instances claiming at once take disjoint reminders without the serialization conflicts (and
    // retries) of the default SERIALIZABLE. SQLite runs one writer at a time whatever the level.
    return this.db.transaction().setIsolationLevel('read committed').execute(async (trx) => {
      const due = await selectDueReminders(trx, iso(nowMs + aheadMs), limit);
      if (due.length === 0) return EMPTY;
      const destinations = await listEnabledDestinations(
        trx,
        due.map((r) => r.id),
      );
      const byReminder = new Map<string, EnabledDestinationRow[]>();
      for (const d of destinations) {
        const list = byReminder.get(d.reminder_id);
        if (list) list.push(d);
        else byReminder.set(d.reminder_id, [d]);
      }

      const plan = planBatch(due, nowMs, lateThresholdMs);
      const rows: Array<OutboxRow & { concurrency_key: string | null }> = [];
      const prepared: Array<OutboxRow & { concurrency_key: string | null }> = [];
      const lateness: number[] = [];
      for (let i = 0; i < due.length; i++) {
        const r = due[i]!;
        const firing = plan.firings[i]!;
        const occurrenceUtc = iso(firing.occurrenceMs);
        const ahead = firing.dueMs > nowMs;
        const nextAttemptAt = ahead ? iso(firing.dueMs) : nowIso;
        for (const d of byReminder.get(r.id) ?? []) {
          (ahead ? prepared : rows).push({
            id: uuidv7(nowMs),
            reminder_id: r.id,
            destination_id: d.id,
            // A subscriber's DM is theirs: their account (history, DM channel) and language.
            account_id: d.subscriber_account_id ?? r.account_id,
            occurrence_utc: occurrenceUtc,
            idempotency_key: newMessageId(),
            status: 'pending',
            attempts: 0,
            next_attempt_at: nextAttemptAt,
            late: firing.late ? 1 : 0,
            message: r.message,
            recurrence_type: r.recurrence_type,
            reminder_timezone: r.timezone,
            remind_at_utc: r.remind_at_utc,
            destination_type: d.type,
            metadata: d.metadata,
            secret: d.secret,
            disabled_at: null,
            disabled_reason: null,
            account_timezone: d.subscriber_account_id ? d.subscriber_timezone! : r.account_timezone,
            locale: d.subscriber_account_id ? d.subscriber_locale : r.locale,
            username: d.subscriber_account_id ? d.subscriber_username! : r.username,
            concurrency_key: this.keyOf?.(d.type, d.id, d.metadata, d.secret) ?? null,
          });
          if (!ahead) lateness.push(Math.max(0, (nowMs - firing.dueMs) / 1000));
        }
      }

      const { inserted, written } = await insertDeliveries(trx, rows, nowIso, lease?.(nowMs));
      const ready = await insertDeliveries(trx, prepared, nowIso);
      for (const advance of plan.advances) {
        await advanceReminders(
          trx,
          advance.reminderIds,
          { nextFireUtc: advance.nextFireMs === null ? null : iso(advance.nextFireMs), completed: advance.completed },
          iso(advance.firedAtMs),
        );
      }
      return {
        reminders: due.length,
        deliveries: inserted + ready.inserted,
        lateness: inserted === rows.length ? lateness : lateness.slice(0, inserted),
        rows: written,
        prepared: ready.inserted,
      };
    });
  }
}
