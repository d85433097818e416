/**
 * The planner: what firing a due reminder means (which occurrence, late or not, the next fire).
 * Pure: no database, no clock (time comes in as `nowMs`). The claimer runs it inside the claim
 * transaction, between reading the due reminders and writing the outbox.
 */
import type { StoredRecurrence } from '../db/database.ts';
import { ruleOf } from '../reminders/schedule.ts';
import { nextOccurrenceAfter, type Series } from '../time/series.ts';
import { nextAlertMs, parseStoredAlerts } from './alerts.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** What the planner reads of a reminder: its wall-clock anchor and where its schedule stands. */
export interface DueReminder {
  id: string;
  local_date: string;
  local_time: string;
  timezone: string;
  recurrence_type: StoredRecurrence;
  rrule?: string | null | undefined;
  /** Skipped occurrences (JSON array of ISO instants). */
  exceptions?: string | undefined;
  snoozed_at_utc: string | null;
  next_fire_utc: string;
  next_occurrence_utc: string | null;
  /** The alerts before each occurrence (JSON minute counts; absent or `[]`: none). */
  alerts?: string | undefined;
}

export interface FiringPlan {
  /** The scheduled occurrence this firing stands for (goes into deliveries.occurrence_utc). */
  occurrenceMs: number;
  /** When it was due: the occurrence, or the snooze instant when snoozed. */
  dueMs: number;
  late: boolean;
  nextFireMs: number | null;
  completed: boolean;
}

/**
 * The latest occurrence in [occurrenceMs, nowMs]. Looks back through growing windows so that a
 * long downtime costs a handful of calls, not one per missed occurrence.
 */
export function latestOccurrenceAtOrBefore(rule: Series, occurrenceMs: number, nowMs: number): number {
  for (const window of [HOUR + 1, DAY + HOUR, 8 * DAY, 32 * DAY, 367 * DAY, 4 * 367 * DAY, Number.POSITIVE_INFINITY]) {
    const from = Math.max(occurrenceMs, nowMs - window);
    let n = nextOccurrenceAfter(rule, from);
    if (n === null || n > nowMs) {
      if (from === occurrenceMs) return occurrenceMs;
      continue;
    }
    let latest = n;
    while ((n = nextOccurrenceAfter(rule, latest)) !== null && n <= nowMs) latest = n;
    return latest;
  }
  return occurrenceMs;
}

/**
 * What one firing of a due reminder means:
 *  - snoozed: see planSnoozeFiring;
 *  - missed recurring occurrences (downtime): ONE catch-up for the most recent of them, never a flood;
 *  - the next fire is the first occurrence after max(now, fired occurrence), so nothing fires twice.
 */
export function planFiring(reminder: DueReminder, nowMs: number, lateThresholdMs: number): FiringPlan {
  const rule: Series = ruleOf(reminder);
  const fireMs = Date.parse(reminder.next_fire_utc);
  if (reminder.snoozed_at_utc !== null) return planSnoozeFiring(reminder, rule, fireMs, nowMs, lateThresholdMs);
  const scheduledMs = reminder.next_occurrence_utc ? Date.parse(reminder.next_occurrence_utc) : fireMs;
  if (reminder.recurrence_type === 'ONCE') {
    const dueMs = Math.max(fireMs, scheduledMs);
    return { occurrenceMs: scheduledMs, dueMs, late: nowMs - dueMs > lateThresholdMs, nextFireMs: null, completed: true };
  }
  // The usual case (fired on time): the occurrence after the scheduled one is still ahead, so
  // nothing was missed and it is the next fire. One recurrence call instead of three.
  const following = nextOccurrenceAfter(rule, scheduledMs);
  let occurrenceMs = scheduledMs;
  let nextFireMs: number | null = following;
  if (following !== null && following <= nowMs) {
    occurrenceMs = latestOccurrenceAtOrBefore(rule, following, nowMs);
    nextFireMs = nextOccurrenceAfter(rule, Math.max(nowMs, occurrenceMs));
  }
  const dueMs = Math.max(fireMs, occurrenceMs);
  return { occurrenceMs, dueMs, late: nowMs - dueMs > lateThresholdMs, nextFireMs, completed: nextFireMs === null };
}

/**
 * A snooze fires once at the snooze instant. Which occurrence it stands for depends on when it
 * was asked for:
 *  - the pending occurrence was due at or before the snooze time (snoozed before it was sent,
 *    e.g. "remind me in 10 minutes instead"): the snooze delivers that occurrence, then the
 *    recurrence goes on after it;
 *  - the pending occurrence is still ahead (the usual case: "Snooze 10 min" pressed on a reminder
 *    that was just delivered, whose schedule already moved on): the snooze is a firing of its own,
 *    keyed by the snooze instant so the delivery log does not take it for the earlier delivery,
 *    and the schedule keeps its next occurrence.
 * A one-off is done after its snooze fires.
 */
function planSnoozeFiring(reminder: DueReminder, rule: Series, fireMs: number, nowMs: number, lateThresholdMs: number): FiringPlan {
  const pendingMs = reminder.next_occurrence_utc ? Date.parse(reminder.next_occurrence_utc) : null;
  const late = nowMs - fireMs > lateThresholdMs;
  if (reminder.recurrence_type === 'ONCE') {
    return { occurrenceMs: pendingMs ?? fireMs, dueMs: fireMs, late, nextFireMs: null, completed: true };
  }
  if (pendingMs !== null && pendingMs > fireMs) {
    return { occurrenceMs: fireMs, dueMs: fireMs, late, nextFireMs: pendingMs, completed: false };
  }
  const occurrenceMs = pendingMs ?? fireMs;
  const nextFireMs = nextOccurrenceAfter(rule, Math.max(nowMs, occurrenceMs));
  return { occurrenceMs, dueMs: fireMs, late, nextFireMs, completed: nextFireMs === null };
}

/**
 * planFiring that never throws: a rule the recurrence code refuses (a zone this runtime no longer
 * knows, a corrupt anchor) fires what was scheduled, then stops, rather than blocking the claim of
 * every other due reminder.
 */
export function planFiringOrStop(reminder: DueReminder, nowMs: number, lateThresholdMs: number): FiringPlan {
  try {
    return planFiring(reminder, nowMs, lateThresholdMs);
  } catch {
    const at = Date.parse(reminder.next_occurrence_utc ?? reminder.next_fire_utc);
    return { occurrenceMs: at, dueMs: Date.parse(reminder.next_fire_utc), late: nowMs - at > lateThresholdMs, nextFireMs: null, completed: true };
  }
}

/** Reminders that move to the same state: one UPDATE for all of them. */
export interface ReminderAdvance {
  nextFireMs: number | null;
  /** The first alert of the next occurrence still ahead (scheduler/alerts.ts), null when none. */
  nextAlertMs: number | null;
  completed: boolean;
  /** When the firing happens: now, or its due instant when it is prepared ahead (last_fired_at, completed_at). */
  firedAtMs: number;
  reminderIds: string[];
}

export interface BatchPlan {
  /** One plan per reminder, in the order given. */
  firings: FiringPlan[];
  /** Where each reminder moves, grouped by destination state. */
  advances: ReminderAdvance[];
}

/** Plans every reminder of a claim and groups the reminders that end up in the same state. */
export function planBatch(reminders: readonly DueReminder[], nowMs: number, lateThresholdMs: number): BatchPlan {
  const firings: FiringPlan[] = [];
  const groups = new Map<string, ReminderAdvance>();
  for (const r of reminders) {
    const plan = planFiringOrStop(r, nowMs, lateThresholdMs);
    firings.push(plan);
    const firedAtMs = Math.max(nowMs, plan.dueMs);
    // The next occurrence is nextFireMs (advanceReminders writes it to next_occurrence_utc too);
    // its alerts still ahead of the firing are its pointer's.
    const alertMs = nextAlertMs(parseStoredAlerts(r.alerts), plan.nextFireMs, firedAtMs);
    const key = `${plan.nextFireMs}|${alertMs}|${plan.completed}|${firedAtMs}`;
    const group = groups.get(key);
    if (group) group.reminderIds.push(r.id);
    else groups.set(key, { nextFireMs: plan.nextFireMs, nextAlertMs: alertMs, completed: plan.completed, firedAtMs, reminderIds: [r.id] });
  }
  return { firings, advances: [...groups.values()] };
}
