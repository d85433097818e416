/**
 * Occurrences of a recurring reminder.
 *
 * Every occurrence is derived from the ANCHOR: the local date and wall-clock time the user chose,
 * in the rule's zone (a reminder stores them; instants are derived, never read back). Nothing is
 * ever computed by adding to the previous fire time, so there is no drift, and no occurrence is
 * ever before the anchor.
 *
 *  - ONCE      the anchor only.
 *  - HOURLY    the anchor's instant + k hours of absolute time (k >= 0): DST does not move it.
 *  - DAILY     every day at the anchor's wall-clock time.
 *  - WEEKLY    every week on the anchor's weekday, at its wall-clock time.
 *  - WORKDAYS  Monday-Friday, WEEKEND Saturday+Sunday, at the anchor's wall-clock time. The first
 *              occurrence is the first matching day on or after the anchor's date. When the anchor
 *              itself is on a non-matching day (a WORKDAYS reminder anchored on a Saturday), the
 *              anchor is NOT an occurrence: the first one is the next matching day (the Monday).
 *  - MONTHLY   on the anchor's day of month; on the 29th-31st it fires on the last day of shorter
 *              months and goes back to the anchor's day afterwards (Jan 31, Feb 28/29, Mar 31, Apr 30).
 *  - YEARLY    on the anchor's month and day; Feb 29 fires on Feb 28 in non-leap years.
 *
 * Wall-clock times follow zoned.ts, day by day: a time that does not exist (spring-forward gap)
 * fires at the instant the gap ends on that day only, and the next days return to the chosen time;
 * a time that happens twice (fall-back) fires once, at the earlier instant.
 *
 * Nothing is produced after 9999-12-31 (local date; for HOURLY, the local date of the instant).
 *
 * Speed: each call jumps straight to the right day/month/year/hour by arithmetic, so the cost does
 * not depend on how long ago the anchor was. Zone offsets are read through a small cache (civil.ts) of
 * offsets sampled on a 6-hour UTC grid: when the offsets at the grid points around an instant
 * agree, the offset is taken as constant there (this assumes no zone changes its offset and back
 * within 6 hours); otherwise the exact Intl-based helpers of zoned.ts are used.
 */
import type { RecurrenceType } from '../db/database.ts';
import { compileAnchor, type CompiledAnchor, type WallClockAnchor } from './anchor.ts';
import { civilFromDays, DAY, daysFromCivil, HOUR, localDays, localToInstant, monthLength, weekdayOf } from './civil.ts';
import { DEFAULT_OCCURRENCES_IN_RANGE, LAST_DAY, LAST_USEFUL_AFTER_MS, LAST_YEAR, MAX_NEXT_OCCURRENCES, MAX_OCCURRENCES_IN_RANGE } from './limits.ts';

export interface RecurrenceRule extends WallClockAnchor {
  recurrence: RecurrenceType;
}

interface Compiled extends CompiledAnchor {
  type: RecurrenceType;
}

function compile(rule: RecurrenceRule): Compiled {
  const c = compileAnchor(rule) as Compiled;
  if (!STEPPERS.has(rule.recurrence)) throw new RangeError(`invalid recurrence: ${String(rule.recurrence)}`);
  // Added in place: a copy of the anchor on every call would cost more than the rest of the call.
  c.type = rule.recurrence;
  return c;
}

// ---------------------------------------------------------------------------------------------
// Per-type "next after" (after is already >= anchorMs - 1 and finite).

/** First day >= days on which the rule fires. */
function matchingDayFrom(c: Compiled, days: number): number {
  switch (c.type) {
    case 'WEEKLY':
      return days + ((((c.aDays - days) % 7) + 7) % 7);
    case 'WORKDAYS': {
      const wd = weekdayOf(days);
      return wd === 0 ? days + 1 : wd === 6 ? days + 2 : days;
    }
    case 'WEEKEND': {
      const wd = weekdayOf(days);
      return wd === 0 || wd === 6 ? days : days + 6 - wd;
    }
    default:
      return days;
  }
}

function nextByDay(c: Compiled, after: number): number | null {
  let days = after < c.anchorMs ? c.aDays : Math.max(c.aDays, localDays(c, after));
  for (;;) {
    days = matchingDayFrom(c, days);
    if (days > LAST_DAY) return null;
    const t = days === c.aDays ? c.anchorMs : localToInstant(c, days * DAY + c.timeOfDay);
    if (t > after && t >= c.anchorMs) return t;
    days++;
  }
}

/** Occurrence k months (MONTHLY) or k years (YEARLY) after the anchor, or null past 9999. */
function byCalendar(c: Compiled, k: number): number | null {
  if (k === 0) return c.anchorMs;
  let year: number;
  let month: number;
  if (c.type === 'MONTHLY') {
    const index = c.aYear * 12 + (c.aMonth - 1) + k;
    year = Math.floor(index / 12);
    month = index - year * 12 + 1;
  } else {
    year = c.aYear + k;
    month = c.aMonth;
  }
  if (year > LAST_YEAR) return null;
  const day = Math.min(c.aDay, monthLength(year, month));
  return localToInstant(c, daysFromCivil(year, month, day) * DAY + c.timeOfDay);
}

function nextByCalendar(c: Compiled, after: number): number | null {
  let k = 0;
  if (after >= c.anchorMs) {
    const [year, month] = civilFromDays(localDays(c, after));
    k = Math.max(0, c.type === 'MONTHLY' ? (year - c.aYear) * 12 + (month - c.aMonth) : year - c.aYear);
  }
  for (;;) {
    const t = byCalendar(c, k);
    if (t === null) return null;
    if (t > after && t >= c.anchorMs) return t;
    k++;
  }
}

const LAST_HOURLY_CHECK = daysFromCivil(LAST_YEAR, 12, 30) * DAY;

function nextHourly(c: Compiled, after: number): number | null {
  const k = after < c.anchorMs ? 0 : Math.floor((after - c.anchorMs) / HOUR) + 1;
  let t = c.anchorMs + k * HOUR;
  if (t <= after) t += HOUR; // float safety for huge fractional inputs
  if (t >= LAST_HOURLY_CHECK && localDays(c, t) > LAST_DAY) return null;
  return t;
}

type Stepper = (c: Compiled, after: number) => number | null;
const STEPPERS = new Map<RecurrenceType, Stepper>([
  ['ONCE', (c, after) => (c.anchorMs > after ? c.anchorMs : null)],
  ['HOURLY', nextHourly],
  ['DAILY', nextByDay],
  ['WEEKLY', nextByDay],
  ['WORKDAYS', nextByDay],
  ['WEEKEND', nextByDay],
  ['MONTHLY', nextByCalendar],
  ['YEARLY', nextByCalendar],
]);

function next(c: Compiled, afterMs: number): number | null {
  if (Number.isNaN(afterMs)) throw new RangeError('afterMs is NaN');
  if (c.aDays > LAST_DAY || afterMs >= LAST_USEFUL_AFTER_MS) return null;
  const after = afterMs < c.anchorMs ? Math.max(afterMs, c.anchorMs - 1) : afterMs;
  return STEPPERS.get(c.type)!(c, after);
}

// ---------------------------------------------------------------------------------------------

/** The instant of the anchor's wall clock in its zone (gap -> gap end, overlap -> earlier). */
export function anchorInstant(rule: RecurrenceRule): number {
  return compile(rule).anchorMs;
}

/** The first occurrence of the series (the anchor, or for WORKDAYS/WEEKEND the first matching day); null past 9999. */
export function firstOccurrence(rule: RecurrenceRule): number | null {
  const c = compile(rule);
  return next(c, c.anchorMs - 1);
}

/** First occurrence strictly after `afterMs`; null if none (ONCE whose anchor <= afterMs). The anchor itself is occurrence #0. */
export function nextOccurrenceAfter(rule: RecurrenceRule, afterMs: number): number | null {
  return next(compile(rule), afterMs);
}

/** Up to `count` occurrences strictly after afterMs (ascending). count is capped at 100. */
export function nextOccurrences(rule: RecurrenceRule, afterMs: number, count: number): number[] {
  const c = compile(rule);
  const n = Math.min(MAX_NEXT_OCCURRENCES, Math.floor(count));
  const out: number[] = [];
  let after = afterMs;
  while (out.length < n) {
    const t = next(c, after);
    if (t === null) break;
    out.push(t);
    after = t;
  }
  return out;
}

/**
 * All occurrences in [fromMs, toMs) — for the dashboard calendar; capped at `limit` (default 1000,
 * never more than 10,000).
 */
export function occurrencesBetween(rule: RecurrenceRule, fromMs: number, toMs: number, limit: number = DEFAULT_OCCURRENCES_IN_RANGE): number[] {
  const c = compile(rule);
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) throw new RangeError('fromMs/toMs is NaN');
  const n = Math.min(MAX_OCCURRENCES_IN_RANGE, Math.floor(limit));
  const out: number[] = [];
  let after = fromMs - 1;
  while (out.length < n) {
    const t = next(c, after);
    if (t === null || t >= toMs) break;
    if (t >= fromMs) out.push(t);
    after = t;
  }
  return out;
}
