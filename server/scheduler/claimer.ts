/**
 * The claimer: one transaction turns due reminders into outbox rows. It reads the due reminders,
 * asks the planner what each firing means, writes one pending delivery per enabled destination
 * and moves each reminder to its next occurrence. Either all of it happens or none, so an
 * occurrence is never both skipped and unsent, nor claimed twice.
 */
import type { DB } from '../db/connection.ts';
import {
  advanceReminders,
  type DueAlertRow,
  type DueReminderRow,
  type EnabledDestinationRow,
  insertDeliveries,
  listEnabledDestinations,
  selectDueAlerts,
  selectDueReminders,
  setNextAlerts,
} from '../repositories/due-reminders.ts';
import type { DeliveryLease, OutboxRow } from '../repositories/outbox.ts';
import type { Clock } from './clock.ts';
import { newMessageId, uuidv7 } from './ids.ts';
import { planBatch } from './planner.ts';
import { planAlertFiring } from './alerts.ts';

export interface ClaimResult {
  /** Reminders claimed, occurrences and alerts (when at or above the limit, more may be due). */
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

type PlannedRow = OutboxRow & { concurrency_key: string | null };

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
      const untilIso = iso(nowMs + aheadMs);
      // Alerts first: an alert whose occurrence is also due is dropped (planAlertFiring), and
      // the occurrence's firing below then sets the pointer to the next occurrence's first alert.
      const dueAlerts = await selectDueAlerts(trx, untilIso, limit);
      const due = await selectDueReminders(trx, untilIso, limit);
      if (due.length === 0 && dueAlerts.length === 0) return EMPTY;
      const destinations = await listEnabledDestinations(trx, [...new Set([...dueAlerts.map((r) => r.id), ...due.map((r) => r.id)])]);
      const byReminder = new Map<string, EnabledDestinationRow[]>();
      for (const d of destinations) {
        const list = byReminder.get(d.reminder_id);
        if (list) list.push(d);
        else byReminder.set(d.reminder_id, [d]);
      }

      // Due now: leased to this instance and handed to its pump. Due within aheadMs: prepared.
      const rows: PlannedRow[] = [];
      const prepared: PlannedRow[] = [];
      const lateness: number[] = [];
      const add = (row: PlannedRow, dueMs: number) => {
        if (dueMs > nowMs) return void prepared.push(row);
        rows.push(row);
        lateness.push(Math.max(0, (nowMs - dueMs) / 1000));
      };
      const pointers = new Map<string, string[]>();
      for (const r of dueAlerts) {
        // An alert prepared ahead is planned as of its own instant.
        const alert = planAlertFiring(r, Math.max(nowMs, Date.parse(r.next_alert_utc)), lateThresholdMs);
        const key = alert.nextAlertMs === null ? '' : iso(alert.nextAlertMs);
        const group = pointers.get(key);
        if (group) group.push(r.id);
        else pointers.set(key, [r.id]);
        if (!alert.send) continue;
        const { send } = alert;
        for (const d of byReminder.get(r.id) ?? []) add(this.row(r, d, { occurrenceMs: send.occurrenceMs, late: send.late, alertMinutes: send.beforeMinutes }, nowMs, send.dueMs), send.dueMs);
      }

      const plan = planBatch(due, nowMs, lateThresholdMs);
      for (let i = 0; i < due.length; i++) {
        const r = due[i]!;
        const firing = plan.firings[i]!;
        for (const d of byReminder.get(r.id) ?? []) add(this.row(r, d, { occurrenceMs: firing.occurrenceMs, late: firing.late, alertMinutes: 0 }, nowMs, firing.dueMs), firing.dueMs);
      }

      const { inserted, written } = await insertDeliveries(trx, rows, nowIso, lease?.(nowMs));
      const ready = await insertDeliveries(trx, prepared, nowIso);
      for (const [next, ids] of pointers) await setNextAlerts(trx, ids, next === '' ? null : next);
      for (const advance of plan.advances) {
        await advanceReminders(
          trx,
          advance.reminderIds,
          {
            nextFireUtc: advance.nextFireMs === null ? null : iso(advance.nextFireMs),
            nextAlertUtc: advance.nextAlertMs === null ? null : iso(advance.nextAlertMs),
            completed: advance.completed,
          },
          iso(advance.firedAtMs),
        );
      }
      return {
        reminders: due.length + dueAlerts.length,
        deliveries: inserted + ready.inserted,
        lateness: inserted === rows.length ? lateness : lateness.slice(0, inserted),
        rows: written,
        prepared: ready.inserted,
      };
    });
  }

  /** One pending delivery of an occurrence (alertMinutes 0) or of an alert before it, to one destination. */
  private row(
    r: Pick<DueReminderRow, 'id' | 'account_id' | 'message' | 'recurrence_type' | 'timezone' | 'remind_at_utc' | 'account_timezone' | 'locale' | 'username'> | DueAlertRow,
    d: EnabledDestinationRow,
    firing: { occurrenceMs: number; late: boolean; alertMinutes: number },
    nowMs: number,
    dueMs: number,
  ): PlannedRow {
    return {
      id: uuidv7(nowMs),
      reminder_id: r.id,
      destination_id: d.id,
      // A subscriber's DM is theirs: their account (history, DM channel) and language.
      account_id: d.subscriber_account_id ?? r.account_id,
      occurrence_utc: iso(firing.occurrenceMs),
      // A key of its own per alert: a webhook receives each with a distinct webhook-id.
      idempotency_key: newMessageId(),
      status: 'pending',
      attempts: 0,
      next_attempt_at: iso(Math.max(nowMs, dueMs)),
      late: firing.late ? 1 : 0,
      alert_minutes: firing.alertMinutes,
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
    };
  }
}
