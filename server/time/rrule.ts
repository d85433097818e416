/**
 * Custom recurrence rules: RFC 5545 RRULE values, parsed, validated and expanded from a reminder's
 * wall-clock anchor `{ date, time, timeZone }` (DTSTART = that date and time in that zone).
 *
 * Supported parts: FREQ (MINUTELY with INTERVAL >= 5, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY),
 * INTERVAL, BYDAY (ordinals such as 1MO or -1FR with MONTHLY/YEARLY only), BYMONTHDAY (1..31,
 * -31..-1 from the month end), BYMONTH, BYSETPOS, COUNT, UNTIL (`YYYYMMDDTHHMMSSZ` or `YYYYMMDD`)
 * and WKST. Anything else is refused by parseRRule with the part named (BYHOUR, BYMINUTE,
 * BYSECOND, BYYEARDAY, BYWEEKNO, RSCALE, unknown parts, a part given twice, COUNT with UNTIL, bad
 * values). RFC 5545's own "MUST NOT"s are refused too: BYMONTHDAY with WEEKLY, BYSETPOS without
 * another BYxxx part.
 *
 * Expansion follows RFC 5545 as python-dateutil implements it, on the local calendar of the zone:
 *  - Parts absent take the anchor's: WEEKLY fires on its weekday, MONTHLY on its day of month,
 *    YEARLY on its month and day (unless BYDAY/BYMONTHDAY/BYMONTH say otherwise); the time of
 *    day is always the anchor's.
 *  - A day that does not exist is skipped, never moved: BYMONTHDAY=31 fires only in 31-day
 *    months, BYMONTH=2;BYMONTHDAY=29 only in leap years (BYMONTHDAY=-1 is "the last day").
 *  - BYxxx parts filter or expand as RFC 5545's table says; BYSETPOS then picks among the sorted
 *    occurrences of each period (week, month, year; on DAILY and finer a period holds one
 *    occurrence, so only 1 and -1 keep it).
 *  - The anchor (DTSTART) is an occurrence only when it matches the rule, and nothing before it
 *    is one. RFC 5545 says DTSTART is always the first instance; python-dateutil (and the `rrule`
 *    npm package) leave a non-matching DTSTART out. Chime follows dateutil: a
 *    FREQ=WEEKLY;BYDAY=MO rule anchored on a Saturday first fires on the Monday, like the
 *    WORKDAYS preset. COUNT counts the occurrences from the first one that matches.
 *  - UNTIL is inclusive. In UTC form it is an instant; as a date (RFC 5545 allows a date UNTIL
 *    only with a date DTSTART, Chime takes it anyway) it means up to the end of that local day.
 *  - Wall-clock times, as in recurrence.ts: the time is kept across DST changes; on a day when it
 *    falls in a gap it fires at the end of the gap (later days return to the chosen time); when
 *    it happens twice it fires once, at the first.
 *  - HOURLY and MINUTELY step in absolute time from the anchor's instant (every 2 hours stays 2
 *    hours apart across a DST change); BYDAY/BYMONTHDAY/BYMONTH then keep the steps whose local
 *    date matches.
 *  - Nothing is produced after 9999-12-31 (local date).
 *
 * Where Chime differs from python-dateutil (both are bugs there, by RFC 5545's text):
 *  - BYDAY mixing plain and ordinal weekdays (BYDAY=MO,-1FR with MONTHLY) is the union (every
 *    Monday and the last Friday). dateutil and the `rrule` npm package intersect the two lists
 *    and fire never (jkbrzt/rrule issue #71).
 *  - With WEEKLY and BYSETPOS the first week is the whole week around the anchor (WKST-based),
 *    and positions count in it before the days before the anchor are dropped, as in every other
 *    period. dateutil counts positions only from the anchor's day in the first week
 *    (dateutil issue #1398).
 *
 * Speed: each call jumps to the period containing the asked instant by arithmetic from the anchor
 * and walks forward; a month's matching days are one bit mask. A COUNT series' end is found by
 * arithmetic for the regular shapes, otherwise by one walk from the start (at most COUNT
 * occurrences), and cached. bench/rrule-bench.ts: about 2 us per call, parsing aside.
 */
import type { RecurrenceType } from '../db/database.ts';
import { parseAnchorDate } from './anchor.ts';
import { daysFromCivil, weekdayOf } from './civil.ts';
import { LAST_USEFUL_AFTER_MS } from './limits.ts';
import { applyCount, compile, countEndWithinBudget, MAX_COUNT_WALK_STEPS, walk, type RRuleAnchor } from './rrule/expand.ts';
import { WEEKDAYS, formatByDay, formatRRule, parseRRule, type ParsedRRule, type RRuleWeekday } from './rrule/parse.ts';

export { formatRRule, parseRRule, type RRuleAnchor };
export type { ParsedRRule, RRuleByDay, RRuleFreq, RRuleParseResult, RRuleUntil, RRuleWeekday } from './rrule/parse.ts';

function compiled(rule: ParsedRRule, anchor: RRuleAnchor) {
  return applyCount(compile(rule, anchor), rule, anchor);
}

function checkAfter(afterMs: number): void {
  if (Number.isNaN(afterMs)) throw new RangeError('afterMs is NaN');
}

/** First occurrence strictly after `afterMs`, or null when the series has none (ended, or never fires). */
export function nextRRuleOccurrenceAfter(rule: ParsedRRule, anchor: RRuleAnchor, afterMs: number): number | null {
  checkAfter(afterMs);
  if (afterMs >= LAST_USEFUL_AFTER_MS) return null;
  const c = compiled(rule, anchor);
  let found: number | null = null;
  walk(c, afterMs, (t) => {
    found = t;
    return false;
  });
  return found;
}

/** The first occurrence of the series: the anchor when it matches the rule, else the first match after it. */
export function firstRRuleOccurrence(rule: ParsedRRule, anchor: RRuleAnchor): number | null {
  const c = compiled(rule, anchor);
  let found: number | null = null;
  walk(c, c.anchorMs - 1, (t) => {
    found = t;
    return false;
  });
  return found;
}

/** Whether the rule has at least one occurrence from this anchor (on or before 9999-12-31). */
export function firesAtLeastOnce(rule: ParsedRRule, anchor: RRuleAnchor): boolean {
  return firstRRuleOccurrence(rule, anchor) !== null;
}

/**
 * For the API: the first occurrence, or why there is none, naming the part to blame (UNTIL
 * before the first occurrence, a BYSETPOS that picks nothing, BYxxx parts no date satisfies).
 */
export function checkRRuleFires(rule: ParsedRRule, anchor: RRuleAnchor): { ok: true; first: number } | { ok: false; part: string; message: string } {
  if (!countEndWithinBudget(rule)) {
    return {
      ok: false,
      part: 'COUNT',
      message: `COUNT=${rule.count} with FREQ=${rule.freq} and days left out is too long to count (more than ${MAX_COUNT_WALK_STEPS.toLocaleString('en-US')} steps or 50 years): give an end date (UNTIL) or a smaller COUNT`,
    };
  }
  const first = firstRRuleOccurrence(rule, anchor);
  if (first !== null) return { ok: true, first };
  if (rule.until && firesAtLeastOnce({ ...rule, until: null }, anchor)) {
    return { ok: false, part: 'UNTIL', message: `UNTIL is before the first occurrence: the rule never fires from ${anchor.date} ${anchor.time}` };
  }
  if (rule.bySetPos && firesAtLeastOnce({ ...rule, bySetPos: null }, anchor)) {
    return { ok: false, part: 'BYSETPOS', message: `BYSETPOS=${rule.bySetPos.join(',')} picks nothing in any period: the rule never fires` };
  }
  const by = [
    rule.byMonth && `BYMONTH=${rule.byMonth.join(',')}`,
    rule.byMonthDay && `BYMONTHDAY=${rule.byMonthDay.join(',')}`,
    rule.byDay && `BYDAY=${rule.byDay.map(formatByDay).join(',')}`,
  ].filter((s): s is string => typeof s === 'string');
  const part = rule.byMonthDay ? 'BYMONTHDAY' : rule.byDay ? 'BYDAY' : rule.byMonth ? 'BYMONTH' : 'RRULE';
  const what = by.length > 0 ? `no date matches ${by.join(' with ')}` : 'no occurrence is left before 9999-12-31';
  return { ok: false, part, message: `the rule never fires: ${what}` };
}

// ---------------------------------------------------------------------------------------------
// The eight presets as rules (for the calendar feed, and presets given an end).

const WEEKDAY_OF_NUMBER: readonly RRuleWeekday[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * The rule equivalent to a preset from this anchor: same occurrences, from the same anchor.
 *  - ONCE: FREQ=DAILY;COUNT=1 (the anchor only).
 *  - MONTHLY on the 29th/30th: the preset fires on the last day of shorter months, which is the
 *    last of the days 28..29 (or 28..30) the month has: BYMONTHDAY=28,29(,30);BYSETPOS=-1. On the
 *    31st: BYMONTHDAY=-1. YEARLY on Feb 29 likewise: BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1.
 */
export function presetToRRule(preset: RecurrenceType, anchor: RRuleAnchor): ParsedRRule {
  const [year, month, day] = parseAnchorDate(anchor.date);
  const weekday = WEEKDAY_OF_NUMBER[weekdayOf(daysFromCivil(year, month, day))]!;
  const upTo = (last: number) => Array.from({ length: last - 27 }, (_, i) => 28 + i).join(',');
  let text: string;
  switch (preset) {
    case 'ONCE':
      text = 'FREQ=DAILY;COUNT=1';
      break;
    case 'HOURLY':
      text = 'FREQ=HOURLY';
      break;
    case 'DAILY':
      text = 'FREQ=DAILY';
      break;
    case 'WEEKLY':
      text = `FREQ=WEEKLY;BYDAY=${weekday}`;
      break;
    case 'WORKDAYS':
      text = `FREQ=WEEKLY;BYDAY=${WEEKDAYS.slice(0, 5).join(',')}`;
      break;
    case 'WEEKEND':
      text = 'FREQ=WEEKLY;BYDAY=SA,SU';
      break;
    case 'MONTHLY':
      text = day <= 28 ? `FREQ=MONTHLY;BYMONTHDAY=${day}` : day === 31 ? 'FREQ=MONTHLY;BYMONTHDAY=-1' : `FREQ=MONTHLY;BYMONTHDAY=${upTo(day)};BYSETPOS=-1`;
      break;
    case 'YEARLY':
      text = month === 2 && day === 29 ? 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1' : `FREQ=YEARLY;BYMONTH=${month};BYMONTHDAY=${day}`;
      break;
    default:
      throw new RangeError(`invalid recurrence: ${String(preset)}`);
  }
  const parsed = parseRRule(text);
  if (!parsed.ok) throw new Error(`presetToRRule built an invalid rule: ${text}`);
  return parsed.rule;
}
