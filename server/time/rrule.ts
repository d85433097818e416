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
 *  - Wall-clock times (docs/time.md): the time is kept across DST changes; on a day when it
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
import { compileAnchor, parseAnchorDate } from './anchor.ts';
import { daysFromCivil, weekdayOf } from './civil.ts';
import { LAST_USEFUL_AFTER_MS } from './limits.ts';
import { applyCount, compile, compileWith, countEndWithinBudget, MAX_COUNT_WALK_STEPS, nextAfter, ruleMasks, type Compiled, type RRuleAnchor, type RuleMasks } from './rrule/expand.ts';
import { WEEKDAYS, formatByDay, formatRRule, parseRRule, type ParsedRRule, type RRuleFreq, type RRuleWeekday } from './rrule/parse.ts';

export { formatRRule, parseRRule, type RRuleAnchor };
export type { ParsedRRule, RRuleByDay, RRuleFreq, RRuleParseResult, RRuleUntil, RRuleWeekday } from './rrule/parse.ts';

/** A rule, or a preset name standing for its rule from the anchor (presetToRRule). */
export type RuleOrPreset = ParsedRRule | RecurrenceType;

function compiled(rule: RuleOrPreset, anchor: RRuleAnchor): Compiled {
  if (typeof rule === 'string') return compiledPreset(rule, anchor);
  return applyCount(compile(rule, anchor), rule, anchor);
}

function checkAfter(afterMs: number): void {
  if (Number.isNaN(afterMs)) throw new RangeError('afterMs is NaN');
}

/** First occurrence strictly after `afterMs`, or null when the series has none (ended, or never fires). */
export function nextRRuleOccurrenceAfter(rule: RuleOrPreset, anchor: RRuleAnchor, afterMs: number): number | null {
  checkAfter(afterMs);
  if (afterMs >= LAST_USEFUL_AFTER_MS) return null;
  return nextAfter(compiled(rule, anchor), afterMs);
}

/** The first occurrence of the series: the anchor when it matches the rule, else the first match after it. */
export function firstRRuleOccurrence(rule: RuleOrPreset, anchor: RRuleAnchor): number | null {
  const c = compiled(rule, anchor);
  return nextAfter(c, c.anchorMs - 1);
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
// The eight presets are rules: series.ts expands a preset as the rule given here, with the engine
// of custom rules, and the calendar feed and ICS export write that rule out.

const WEEKDAY_OF_NUMBER: readonly RRuleWeekday[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const WORKDAYS: readonly RRuleWeekday[] = WEEKDAYS.slice(0, 5);
const WEEKEND: readonly RRuleWeekday[] = ['SA', 'SU'];

/** A rule as parseRRule gives it (same parts in the same order), INTERVAL 1, no end but `count`. */
function presetRule(freq: RRuleFreq, byDay: readonly RRuleWeekday[] | null, byMonth: number | null, byMonthDay: number[] | null, bySetPos: number[] | null, count: number | null = null): ParsedRRule {
  return {
    freq,
    interval: 1,
    byDay: byDay && byDay.map((weekday) => ({ weekday, n: null })),
    byMonthDay,
    byMonth: byMonth === null ? null : [byMonth],
    bySetPos,
    count,
    until: null,
    wkst: 'MO',
  };
}

/** The days 28 .. last, for "the last of them the month has". */
const upTo = (last: number) => Array.from({ length: last - 27 }, (_, i) => 28 + i);

/** The rule of a preset from an anchor on this month, day of month and weekday (0 = Sunday). */
function presetRuleOn(preset: RecurrenceType, month: number, day: number, weekday: number): ParsedRRule {
  switch (preset) {
    case 'ONCE':
      return presetRule('DAILY', null, null, null, null, 1);
    case 'HOURLY':
      return presetRule('HOURLY', null, null, null, null);
    case 'DAILY':
      return presetRule('DAILY', null, null, null, null);
    case 'WEEKLY':
      return presetRule('WEEKLY', [WEEKDAY_OF_NUMBER[weekday]!], null, null, null);
    case 'WORKDAYS':
      return presetRule('WEEKLY', WORKDAYS, null, null, null);
    case 'WEEKEND':
      return presetRule('WEEKLY', WEEKEND, null, null, null);
    case 'MONTHLY':
      if (day <= 28) return presetRule('MONTHLY', null, null, [day], null);
      return day === 31 ? presetRule('MONTHLY', null, null, [-1], null) : presetRule('MONTHLY', null, null, upTo(day), [-1]);
    case 'YEARLY':
      return month === 2 && day === 29 ? presetRule('YEARLY', null, 2, [28, 29], [-1]) : presetRule('YEARLY', null, month, [day], null);
    default:
      throw new RangeError(`invalid recurrence: ${String(preset)}`);
  }
}

/**
 * The rule of a preset from this anchor (its date, from which the weekday and the day of month
 * come). What each preset means (docs/time.md "How a reminder keeps time"):
 *  - ONCE      the anchor only: FREQ=DAILY;COUNT=1.
 *  - HOURLY    the anchor's instant + k hours of absolute time: FREQ=HOURLY.
 *  - DAILY     every day at the anchor's wall-clock time: FREQ=DAILY.
 *  - WEEKLY    the anchor's weekday: FREQ=WEEKLY;BYDAY=<it>.
 *  - WORKDAYS  Monday-Friday, WEEKEND Saturday and Sunday: FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR or
 *              SA,SU. Anchored on a day outside the set, the anchor is not an occurrence: the
 *              series starts on the next matching day (as every rule does, rrule.ts).
 *  - MONTHLY   the anchor's day of month; on the 29th-31st, the last day of shorter months and
 *              back to the anchor's day after (Jan 31, Feb 28/29, Mar 31, Apr 30). Up to the 28th:
 *              BYMONTHDAY=<day>. The 31st: BYMONTHDAY=-1. The 29th/30th: the last of the days
 *              28..29 (28..30) the month has, BYMONTHDAY=28,29(,30);BYSETPOS=-1.
 *  - YEARLY    the anchor's month and day: BYMONTH=<m>;BYMONTHDAY=<d>; Feb 29 fires on Feb 28 in
 *              other years: BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1.
 * Built as parseRRule would give the text (a test checks it), without parsing: series.ts asks for
 * it on every call.
 */
export function presetToRRule(preset: RecurrenceType, anchor: RRuleAnchor): ParsedRRule {
  const [year, month, day] = parseAnchorDate(anchor.date);
  return presetRuleOn(preset, month, day, weekdayOf(daysFromCivil(year, month, day)));
}

/**
 * A preset's rule and masks depend on the anchor's month, day and weekday only: made once for each
 * and kept (at most a few hundred), so expanding a preset costs no more than parsing its anchor.
 */
const PRESET_INDEX: Readonly<Record<RecurrenceType, number>> = { ONCE: 0, HOURLY: 1, DAILY: 2, WEEKLY: 3, WORKDAYS: 4, WEEKEND: 5, MONTHLY: 6, YEARLY: 7 };
const presetPlans = new Map<number, { rule: ParsedRRule; masks: RuleMasks }>();

function compiledPreset(preset: RecurrenceType, anchor: RRuleAnchor): Compiled {
  const a = compileAnchor(anchor);
  const index = PRESET_INDEX[preset];
  if (typeof index !== 'number') throw new RangeError(`invalid recurrence: ${String(preset)}`);
  // Only what the preset reads from the anchor goes into the key.
  const weekday = preset === 'WEEKLY' ? weekdayOf(a.aDays) : 0;
  const month = preset === 'YEARLY' ? a.aMonth : 0;
  const day = preset === 'MONTHLY' || preset === 'YEARLY' ? a.aDay : 0;
  const key = ((index * 13 + month) * 32 + day) * 7 + weekday;
  let plan = presetPlans.get(key);
  if (!plan) {
    const rule = presetRuleOn(preset, month, day, weekday);
    plan = { rule, masks: ruleMasks(rule, a.aMonth, a.aDay, weekdayOf(a.aDays)) };
    presetPlans.set(key, plan);
  }
  const c = compileWith(a, plan.masks);
  return plan.rule.count === null ? c : applyCount(c, plan.rule, anchor);
}
