/**
 * From what a reminder stores (local date, wall-clock time, zone, recurrence) to the instants the
 * scheduler and the API use. Instants are always derived from the wall clock, never the reverse
 * (README "Time").
 */
import type { RecurrenceType, Reminder } from '../db/database.ts';
import { anchorInstant, firstOccurrence, nextOccurrenceAfter, type RecurrenceRule } from '../time/recurrence.ts';

/**
 * The wizard defaults the time to "now" at minute precision, so a one-off reminder for the
 * current minute is already a few seconds old when it arrives: accept it and fire at once.
 */
export const PAST_GRACE_MS = 60_000;

export type ScheduleFields = Pick<Reminder, 'local_date' | 'local_time' | 'timezone' | 'recurrence_type'>;

export function ruleOf(r: ScheduleFields): RecurrenceRule {
  return { date: r.local_date, time: r.local_time, timeZone: r.timezone, recurrence: r.recurrence_type as RecurrenceType };
}

/** The anchor's instant (remind_at_utc). */
export const anchorOf = (r: ScheduleFields): number => anchorInstant(ruleOf(r));

/** The first occurrence the series has at all (for WORKDAYS on a Saturday: the Monday). */
export const firstOccurrenceOf = (r: ScheduleFields): number | null => firstOccurrence(ruleOf(r));

/** The first occurrence the scheduler should fire from now on, or null when a one-off is long past. */
export function firstFireFrom(r: ScheduleFields, nowMs: number): number | null {
  const rule = ruleOf(r);
  const from = Math.max(anchorInstant(rule), nowMs - PAST_GRACE_MS);
  return nextOccurrenceAfter(rule, from - 1);
}

export type ReminderStatus = 'active' | 'paused' | 'completed';

/** The one definition of a reminder's status: active while a future firing exists. */
export function reminderStatus(r: Pick<Reminder, 'is_paused' | 'next_fire_utc'>): ReminderStatus {
  if (r.is_paused) return 'paused';
  return r.next_fire_utc ? 'active' : 'completed';
}
