/**
 * From what a reminder stores (local date, wall-clock time, zone, repetition, skipped occurrences)
 * to the instants the scheduler and the API use. Instants are always derived from the wall clock,
 * never the reverse (docs/time.md "How a reminder keeps time").
 */
import type { Reminder } from '../db/database.ts';
import { parseRRule, type ParsedRRule } from '../time/rrule.ts';
import { anchorInstant, firstOccurrence, nextOccurrenceAfter, type Series } from '../time/series.ts';
import { BoundedMemo } from '../lib/bounded-memo.ts';

/**
 * The wizard defaults the time to "now" at minute precision, so a one-off reminder for the
 * current minute is already a few seconds old when it arrives: accept it and fire at once.
 */
export const PAST_GRACE_MS = 60_000;

export type ScheduleFields = Pick<Reminder, 'local_date' | 'local_time' | 'timezone' | 'recurrence_type'> & {
  /** The rule of a CUSTOM reminder (absent or null for presets). */
  rrule?: string | null | undefined;
  /** JSON array of skipped ISO instants; absent means none. */
  exceptions?: string | undefined;
};

// Stored rules are few and read on every planning: parse each text once.
const parsedRules = new BoundedMemo<ParsedRRule>(5000);

/** A stored (already validated) rule; throws on a corrupt one, which the planner turns into a stop. */
export function storedRule(text: string): ParsedRRule {
  return parsedRules.get(text, () => {
    const parsed = parseRRule(text);
    if (!parsed.ok) throw new RangeError(`stored rrule is invalid: ${parsed.message}`);
    return parsed.rule;
  });
}

const NONE: ReadonlySet<number> = new Set();

/** The skipped instants of a reminder's `exceptions` column. */
export function skippedOf(exceptions: string | undefined): ReadonlySet<number> {
  if (!exceptions || exceptions === '[]') return NONE;
  const list = JSON.parse(exceptions) as unknown;
  if (!Array.isArray(list)) return NONE;
  return new Set(list.map((s) => Date.parse(String(s))).filter((ms) => Number.isFinite(ms)));
}

export function exceptionsOf(r: Pick<ScheduleFields, 'exceptions'>): string[] {
  return [...skippedOf(r.exceptions)].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString());
}

export function ruleOf(r: ScheduleFields): Series {
  return {
    date: r.local_date,
    time: r.local_time,
    timeZone: r.timezone,
    recurrence: r.recurrence_type,
    rrule: r.recurrence_type === 'CUSTOM' && r.rrule ? storedRule(r.rrule) : null,
    skipped: skippedOf(r.exceptions),
  };
}

/** The anchor's instant (remind_at_utc). */
export const anchorOf = (r: ScheduleFields): number => anchorInstant(ruleOf(r));

// Every list and every answer about a reminder shows its first occurrence; the same few schedules
// come back again and again (a function of the stored fields only: no clock in it).
const firstOccurrences = new BoundedMemo<number | null>(5000);

/** The first occurrence the series has at all (for WORKDAYS on a Saturday: the Monday). */
export function firstOccurrenceOf(r: ScheduleFields): number | null {
  const key = `${r.local_date}|${r.local_time}|${r.timezone}|${r.recurrence_type}|${r.rrule ?? ''}|${r.exceptions ?? ''}`;
  return firstOccurrences.get(key, () => firstOccurrence(ruleOf(r)));
}

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
