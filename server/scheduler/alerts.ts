/**
 * Alerts before a reminder's time ("1 day and 15 minutes before", docs/time.md "Alerts before").
 * Pure: no database, no clock. A reminder stores the minute counts the user chose
 * (reminders.alerts) and one derived pointer, next_alert_utc: the next alert instant of its
 * pending occurrence (next_occurrence_utc) still to send. Every writer of next_occurrence_utc sets
 * the pointer through nextAlertMs, and the claimer fires it through planAlertFiring, so an alert
 * is computed from the occurrence (itself computed in the reminder's zone), never from a wall clock.
 */

const MINUTE = 60_000;

/** At most this many alerts per reminder. */
export const MAX_ALERTS = 3;
/** The longest alert: 28 days before. */
export const MAX_ALERT_MINUTES = 40_320;

/** The stored alerts (JSON text of minute counts), largest first; anything unreadable counts as none. */
export function parseStoredAlerts(text: string | null | undefined): number[] {
  if (!text || text === '[]') return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    const minutes = value.filter((m): m is number => Number.isInteger(m) && m >= 1 && m <= MAX_ALERT_MINUTES);
    return [...new Set(minutes)].sort((a, b) => b - a);
  } catch {
    return [];
  }
}

/** The stored text of valid alerts (largest first, the order they fire in). */
export const storedAlertsText = (minutes: readonly number[]) => JSON.stringify([...new Set(minutes)].sort((a, b) => b - a));

/**
 * The earliest alert instant of the occurrence at `occurrenceMs` that is still after `afterMs`
 * (null: none, or no occurrence). Alerts whose time passed before `afterMs` (the reminder was set
 * or edited later than them, or they were sent) are never sent.
 */
export function nextAlertMs(alerts: readonly number[], occurrenceMs: number | null, afterMs: number): number | null {
  if (occurrenceMs === null || alerts.length === 0) return null;
  let best: number | null = null;
  for (const m of alerts) {
    const at = occurrenceMs - m * MINUTE;
    if (at > afterMs && (best === null || at < best)) best = at;
  }
  return best;
}

/** nextAlertMs on stored columns (the writers' form): ISO in, ISO out. */
export function nextAlertUtc(alertsText: string | null | undefined, nextOccurrenceUtc: string | null, nowMs: number): string | null {
  const at = nextAlertMs(parseStoredAlerts(alertsText), nextOccurrenceUtc ? Date.parse(nextOccurrenceUtc) : null, nowMs);
  return at === null ? null : new Date(at).toISOString();
}

/** What the claimer reads of a reminder whose next_alert_utc is due. */
export interface DueAlert {
  alerts: string;
  next_alert_utc: string;
  next_occurrence_utc: string | null;
}

export interface AlertPlan {
  /** The alert to send now (null: nothing, e.g. its occurrence has passed already). */
  send: { beforeMinutes: number; occurrenceMs: number; dueMs: number; late: boolean } | null;
  /** The reminder's next pointer. */
  nextAlertMs: number | null;
}

/**
 * One due alert pointer:
 *  - its occurrence has come (downtime, or the claim of the occurrence is due too): nothing is sent,
 *    never "in 15 minutes" after the event; the occurrence's own firing sets the next pointer;
 *  - else the latest alert of the occurrence at or before now is sent (after a downtime that
 *    covered several of them, one catch-up, not a flood) and the pointer moves to the next alert
 *    still ahead of now, or null until the occurrence fires.
 */
export function planAlertFiring(reminder: DueAlert, nowMs: number, lateThresholdMs: number): AlertPlan {
  const occurrenceMs = reminder.next_occurrence_utc ? Date.parse(reminder.next_occurrence_utc) : null;
  if (occurrenceMs === null || Number.isNaN(occurrenceMs) || occurrenceMs <= nowMs) return { send: null, nextAlertMs: null };
  const alerts = parseStoredAlerts(reminder.alerts);
  const pointerMs = Date.parse(reminder.next_alert_utc);
  let send: AlertPlan['send'] = null;
  for (const m of alerts) {
    const at = occurrenceMs - m * MINUTE;
    // Between the pointer and now: alerts before the pointer were sent or passed when it was set.
    if (at >= pointerMs && at <= nowMs && (send === null || at > send.dueMs)) send = { beforeMinutes: m, occurrenceMs, dueMs: at, late: nowMs - at > lateThresholdMs };
  }
  return { send, nextAlertMs: nextAlertMs(alerts, occurrenceMs, nowMs) };
}
