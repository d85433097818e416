/**
 * Expansion of a parsed RRULE from a wall-clock anchor (see ../rrule.ts for the rules followed).
 *
 * Every walk starts at the period (day, week, month, year; for HOURLY/MINUTELY the step) that
 * contains `after`, found by arithmetic from the anchor, and goes forward period by period. Days
 * are proleptic Gregorian day numbers (civil.ts); a month's matching days are a 31-bit mask, so a
 * month (or a year) is checked in a few operations and a sparse rule (BYMONTH=2;BYMONTHDAY=29)
 * skips whole months at a time.
 */
import { compileAnchor, type CompiledAnchor, type WallClockAnchor } from '../anchor.ts';
import { DAY, civilFromDays, daysFromCivil, localDays, localToInstant, monthLength, weekdayOf } from '../civil.ts';
import { LAST_DAY, LAST_YEAR } from '../limits.ts';
import { WEEKDAY_NUMBER, formatRRule, type ParsedRRule, type RRuleFreq } from './parse.ts';
import { BoundedMemo } from '../../lib/bounded-memo.ts';

/** The reminder's wall clock a rule expands from (anchor.ts). */
export type RRuleAnchor = WallClockAnchor;

const MINUTE = 60_000;
/** Real offsets lie within -12h..+14h; a margin for turning an instant bound into a day bound. */
const MAX_SHIFT = 15 * 3_600_000;
const ALL_DAYS = 0x7fffffff;

/** What compile derives from the rule itself: the same for every anchor with the same month, day and weekday. */
export interface RuleMasks {
  freq: RRuleFreq;
  interval: number;
  /** Allowed months, bit m-1 (all when no BYMONTH). */
  monthSet: number;
  /** BYMONTHDAY as a day mask per month length (index length - 28); null when absent. */
  mdMask: number[] | null;
  hasByDay: boolean;
  /** Per weekday of the 1st of the month (0 = Sunday), the days of the month on a plain BYDAY weekday. */
  plainMonthMask: number[];
  /** Ordinal BYDAY entries: [weekday 0-6, n]. */
  nth: Array<[number, number]>;
  /** YEARLY without BYMONTH: the ordinals count in the year, otherwise in the month. */
  yearNth: boolean;
  /** DAILY and finer: some BYxxx part filters days. */
  dayFilter: boolean;
  setPos: number[] | null;
  /** WEEKLY: offsets (0-6) from the week start of the matching weekdays. */
  weekOffsets: number[];
  /** WKST, 0 = Sunday. */
  wkst: number;
  /** UNTIL as a last local day and a last instant (LAST_DAY and Infinity without one). */
  untilDay: number;
  untilMs: number;
  /** Statically known to produce nothing (BYSETPOS other than 1/-1 on a one-occurrence period). */
  never: boolean;
}

/** A rule compiled from its anchor, as the walks read it: the masks with the anchor's numbers. */
export interface Compiled extends CompiledAnchor, Omit<RuleMasks, 'wkst' | 'untilDay' | 'untilMs'> {
  /** WEEKLY: the week start of the anchor's week. */
  weekStart0: number;
  /** Last local day and last instant an occurrence may have (UNTIL, COUNT, 9999-12-31). */
  lastDay: number;
  endMs: number;
}

/** Parses the anchor (RangeError when invalid) and prepares the rule's masks. COUNT is not applied yet. */
export function compile(rule: ParsedRRule, anchor: RRuleAnchor): Compiled {
  const a = compileAnchor(anchor);
  return compileWith(a, ruleMasks(rule, a.aMonth, a.aDay, weekdayOf(a.aDays)));
}

/**
 * The rule's masks, with the parts the rule leaves to the anchor taken from the anchor's month,
 * day of month and weekday (0 = Sunday).
 */
export function ruleMasks(rule: ParsedRRule, month: number, day: number, weekday: number): RuleMasks {
  const { freq } = rule;

  // Defaults taken from the anchor (RFC 5545, as python-dateutil): YEARLY without BYDAY/BYMONTHDAY
  // fires on the anchor's month (unless BYMONTH) and day, MONTHLY on the anchor's day, WEEKLY on
  // the anchor's weekday.
  let byMonth = rule.byMonth;
  let byMonthDay = rule.byMonthDay;
  let plain = 0;
  const nth: Array<[number, number]> = [];
  for (const d of rule.byDay ?? []) {
    if (d.n === null) plain |= 1 << WEEKDAY_NUMBER[d.weekday];
    else nth.push([WEEKDAY_NUMBER[d.weekday], d.n]);
  }
  let hasByDay = rule.byDay !== null;
  if (!rule.byDay && !rule.byMonthDay) {
    if (freq === 'YEARLY') {
      byMonth ??= [month];
      byMonthDay = [day];
    } else if (freq === 'MONTHLY') {
      byMonthDay = [day];
    } else if (freq === 'WEEKLY') {
      plain = 1 << weekday;
      hasByDay = true;
    }
  }

  let monthSet = 0xfff;
  if (byMonth) {
    monthSet = 0;
    for (const m of byMonth) monthSet |= 1 << (m - 1);
  }
  let mdMask: number[] | null = null;
  if (byMonthDay) {
    mdMask = [0, 0, 0, 0];
    for (let len = 28; len <= 31; len++) {
      let mask = 0;
      for (const v of byMonthDay) {
        if (v > 0 && v <= len) mask |= 1 << (v - 1);
        else if (v < 0 && -v <= len) mask |= 1 << (len + v);
      }
      mdMask[len - 28] = mask;
    }
  }

  const wkst = WEEKDAY_NUMBER[rule.wkst];
  const weekOffsets: number[] = [];
  for (let j = 0; j < 7; j++) if ((plain >> ((wkst + j) % 7)) & 1) weekOffsets.push(j);

  const fine = freq === 'DAILY' || freq === 'HOURLY' || freq === 'MINUTELY';
  // On DAILY and finer a period holds one occurrence: BYSETPOS 1 or -1 keeps it, anything else nothing.
  const never = fine && rule.bySetPos !== null && !rule.bySetPos.includes(1) && !rule.bySetPos.includes(-1);

  let untilDay = LAST_DAY;
  let untilMs = Infinity;
  if (rule.until?.kind === 'date') {
    const [y, m, d] = rule.until.date.split('-').map(Number) as [number, number, number];
    untilDay = Math.min(untilDay, daysFromCivil(y, m, d));
  } else if (rule.until?.kind === 'utc') {
    untilMs = rule.until.ms;
    untilDay = Math.min(untilDay, Math.floor((untilMs + MAX_SHIFT) / DAY) + 1);
  }

  return {
    freq,
    interval: rule.interval,
    monthSet,
    mdMask,
    hasByDay,
    plainMonthMask: plainMonthMasks(plain),
    nth,
    yearNth: freq === 'YEARLY' && !byMonth,
    dayFilter: fine && (rule.byMonth !== null || rule.byMonthDay !== null || rule.byDay !== null),
    setPos: fine ? null : rule.bySetPos,
    weekOffsets,
    wkst,
    untilDay,
    untilMs,
    never,
  };
}

/** The compiled rule from a compiled anchor and masks made for its month, day and weekday (ruleMasks). */
export function compileWith(a: CompiledAnchor, m: RuleMasks): Compiled {
  // Written out, not spread: this object is read on every step of every walk, and V8 gives a
  // spread object of this size a slower shape.
  return {
    zone: a.zone,
    cache: a.cache,
    anchorMs: a.anchorMs,
    aDays: a.aDays,
    aYear: a.aYear,
    aMonth: a.aMonth,
    aDay: a.aDay,
    timeOfDay: a.timeOfDay,
    freq: m.freq,
    interval: m.interval,
    monthSet: m.monthSet,
    mdMask: m.mdMask,
    hasByDay: m.hasByDay,
    plainMonthMask: m.plainMonthMask,
    nth: m.nth,
    yearNth: m.yearNth,
    dayFilter: m.dayFilter,
    setPos: m.setPos,
    weekOffsets: m.weekOffsets,
    weekStart0: a.aDays - ((weekdayOf(a.aDays) - m.wkst + 7) % 7),
    lastDay: m.untilDay,
    endMs: m.untilMs,
    never: m.never,
  };
}

/** Per set of plain BYDAY weekdays (bit w, 0 = Sunday), compile's plainMonthMask, built on first use and shared (read only). */
const PLAIN_MONTH_MASKS: Array<number[] | undefined> = [];

function plainMonthMasks(plain: number): number[] {
  let masks = PLAIN_MONTH_MASKS[plain];
  if (!masks) {
    masks = [0, 1, 2, 3, 4, 5, 6].map((w0) => {
      let mask = 0;
      for (let i = 0; i < 31; i++) if ((plain >> ((w0 + i) % 7)) & 1) mask |= 1 << i;
      return mask;
    });
    PLAIN_MONTH_MASKS[plain] = masks;
  }
  return masks;
}

// ---------------------------------------------------------------------------------------------
// Days

/** The days of a month that match the rule, as a mask (bit 0 = the 1st). */
function monthMask(c: Compiled, y: number, m: number, yearDays: number[] | null): number {
  if (!((c.monthSet >> (m - 1)) & 1)) return 0;
  const len = monthLength(y, m);
  let mask = ALL_DAYS >>> (31 - len);
  if (c.mdMask) mask &= c.mdMask[len - 28]!;
  if (c.hasByDay && mask) {
    const first = daysFromCivil(y, m, 1);
    const w0 = weekdayOf(first);
    let wd = c.plainMonthMask[w0]!;
    if (yearDays) {
      for (const d of yearDays) if (d >= first && d < first + len) wd |= 1 << (d - first);
    } else {
      for (const [w, n] of c.nth) {
        const firstW = 1 + ((w - w0 + 7) % 7);
        const d = n > 0 ? firstW + 7 * (n - 1) : firstW + 7 * Math.floor((len - firstW) / 7) + 7 * (n + 1);
        if (d >= 1 && d <= len) wd |= 1 << (d - 1);
      }
    }
    mask &= wd;
  }
  return mask;
}

/** YEARLY without BYMONTH: the days of year y that the ordinal BYDAY entries name (the 20th Monday...). */
function yearNthDays(c: Compiled, y: number): number[] {
  const jan1 = daysFromCivil(y, 1, 1);
  const dec31 = daysFromCivil(y, 12, 31);
  const out: number[] = [];
  for (const [w, n] of c.nth) {
    if (n > 0) {
      const d = jan1 + ((w - weekdayOf(jan1) + 7) % 7) + 7 * (n - 1);
      if (d <= dec31) out.push(d);
    } else {
      const d = dec31 - ((weekdayOf(dec31) - w + 7) % 7) + 7 * (n + 1);
      if (d >= jan1) out.push(d);
    }
  }
  return out;
}

/** Pushes first + i for every bit i of mask, ascending. */
function pushBits(out: number[], first: number, mask: number): void {
  while (mask) {
    const low = mask & -mask;
    out.push(first + 31 - Math.clz32(low));
    mask ^= low;
  }
}

/**
 * First day >= d that matches the day filters and lies on the DAILY grid (aDays + k * step), or
 * Infinity past the last day.
 */
function nextMatchingDay(c: Compiled, d: number, step: number): number {
  d = alignUp(c.aDays, d, step);
  while (d <= c.lastDay) {
    const [y, m, dd] = civilFromDays(d);
    const first = d - dd + 1;
    const len = monthLength(y, m);
    const mask = monthMask(c, y, m, null);
    if (mask) {
      if (step === 1) {
        const rest = mask & ~((1 << (dd - 1)) - 1);
        if (rest) return first + 31 - Math.clz32(rest & -rest);
      } else {
        for (let j = dd - 1; j < len; j += step) if ((mask >> j) & 1) return first + j;
      }
    }
    d = alignUp(c.aDays, first + len, step);
  }
  return Infinity;
}

/** Smallest base + k * step >= d (k >= 0). */
const alignUp = (base: number, d: number, step: number) => (d <= base ? base : base + Math.ceil((d - base) / step) * step);

// ---------------------------------------------------------------------------------------------
// Walks: call visit(t) for each occurrence t > after, ascending, while it returns true.

export type Visit = (t: number) => boolean;

const instantOf = (c: Compiled, d: number) => (d === c.aDays ? c.anchorMs : localToInstant(c, d * DAY + c.timeOfDay));

/** DAILY: the matching days >= from on the grid aDays + k * INTERVAL. */
function walkDailyDays(c: Compiled, from: number, visit: (day: number) => boolean): void {
  const step = c.interval;
  let d = alignUp(c.aDays, from, step);
  for (;;) {
    if (c.dayFilter) d = nextMatchingDay(c, d, step);
    if (d > c.lastDay || !visit(d)) return;
    d += step;
  }
}

/** HOURLY and MINUTELY: the anchor's instant + k steps of absolute time, on days the filters allow. */
function walkFine(c: Compiled, after: number, visit: Visit): void {
  const step = c.interval * (c.freq === 'HOURLY' ? 60 : 1) * MINUTE;
  let k = after < c.anchorMs ? 0 : Math.floor((after - c.anchorMs) / step) + 1;
  let okDay = NaN;
  for (;;) {
    const t = c.anchorMs + k * step;
    if (t <= after) {
      k++; // float safety for huge fractional inputs
      continue;
    }
    if (t > c.endMs) return;
    // Before the last day's UTC midnight, an instant is on or before that day in every zone: the
    // zone is asked only to filter days or near the end.
    if (c.dayFilter || t >= c.lastDay * DAY) {
      const d = localDays(c, t);
      if (d > c.lastDay) return;
      if (c.dayFilter && d !== okDay) {
        const next = nextMatchingDay(c, d, 1);
        if (next === Infinity) return;
        if (next !== d) {
          // Go to the first instant of that local day (its midnight, or the end of a gap at midnight).
          const start = localToInstant(c, next * DAY);
          k = Math.max(k + 1, Math.ceil((start - c.anchorMs) / step));
          continue;
        }
        okDay = d;
      }
    }
    if (!visit(t)) return;
    k++;
  }
}

/** The sorted days of period p (WEEKLY, MONTHLY, YEARLY) after BYSETPOS; returns the period's first day. */
function fillPeriod(c: Compiled, p: number, out: number[]): number {
  out.length = 0;
  let start: number;
  if (c.freq === 'WEEKLY') {
    start = c.weekStart0 + 7 * c.interval * p;
    for (const off of c.weekOffsets) {
      const d = start + off;
      if (c.monthSet !== 0xfff && !((c.monthSet >> (civilFromDays(d)[1] - 1)) & 1)) continue;
      out.push(d);
    }
  } else if (c.freq === 'MONTHLY') {
    const index = c.aYear * 12 + c.aMonth - 1 + c.interval * p;
    const y = Math.floor(index / 12);
    const m = index - y * 12 + 1;
    start = daysFromCivil(y, m, 1);
    if (y > LAST_YEAR) return start;
    pushBits(out, start, monthMask(c, y, m, null));
  } else {
    const y = c.aYear + c.interval * p;
    start = daysFromCivil(y, 1, 1);
    if (y > LAST_YEAR) return start;
    const yearDays = c.yearNth && c.nth.length > 0 ? yearNthDays(c, y) : null;
    for (let m = 1; m <= 12; m++) {
      if (!((c.monthSet >> (m - 1)) & 1)) continue;
      pushBits(out, daysFromCivil(y, m, 1), monthMask(c, y, m, yearDays));
    }
  }
  if (c.setPos && out.length > 0) {
    const n = out.length;
    const chosen: number[] = [];
    for (const pos of c.setPos) {
      const i = pos > 0 ? pos - 1 : n + pos;
      if (i >= 0 && i < n && !chosen.includes(out[i]!)) chosen.push(out[i]!);
    }
    chosen.sort((a, b) => a - b);
    out.length = 0;
    out.push(...chosen);
  }
  return start;
}

function periodOf(c: Compiled, day: number): number {
  if (c.freq === 'WEEKLY') return Math.floor((day - c.weekStart0) / (7 * c.interval));
  const [y, m] = civilFromDays(day);
  if (c.freq === 'MONTHLY') return Math.floor((y * 12 + m - (c.aYear * 12 + c.aMonth)) / c.interval);
  return Math.floor((y - c.aYear) / c.interval);
}

/** WEEKLY, MONTHLY, YEARLY: the days >= from (and >= the anchor's) of the periods from the one holding `from`. */
function walkPeriodDays(c: Compiled, from: number, visit: (day: number) => boolean, days: number[] = []): void {
  for (let p = Math.max(0, periodOf(c, from)); ; p++) {
    if (fillPeriod(c, p, days) > c.lastDay) return;
    for (const d of days) {
      if (d < from) continue; // before DTSTART, or before the asked day
      if (d > c.lastDay || !visit(d)) return;
    }
  }
}

/** The days the rule fires on, from `from` (>= the anchor's day) on, ascending, while visit returns true. */
function walkDays(c: Compiled, from: number, visit: (day: number) => boolean, days?: number[]): void {
  if (c.freq === 'DAILY') walkDailyDays(c, from, visit);
  else walkPeriodDays(c, from, visit, days);
}

/** The first day whose occurrence may be after `after`: a day before the local day of `after` has its occurrence before it (wall clock -> instant is monotonic). */
const firstDayFor = (c: Compiled, after: number) => (after < c.anchorMs ? c.aDays : Math.max(c.aDays, localDays(c, after)));

/** Every occurrence > after, ascending, while visit returns true (COUNT applied when compiled with applyCount). */
export function walk(c: Compiled, after: number, visit: Visit): void {
  if (c.never || c.aDays > c.lastDay) return;
  if (c.freq === 'HOURLY' || c.freq === 'MINUTELY') return walkFine(c, after, visit);
  walkDays(c, firstDayFor(c, after), (d) => {
    const t = instantOf(c, d);
    if (t > c.endMs) return false;
    return t <= after || visit(t);
  });
}

// nextAfter's walk, without a closure a call (the scheduler asks for every firing): one at a time,
// and nothing in a walk of days calls back out of this module.
let nextC: Compiled | null = null;
let nextAfterMs = 0;
let nextFound: number | null = null;
const nextPeriod: number[] = [];

function keepNext(d: number): boolean {
  const t = instantOf(nextC!, d);
  if (t > nextC!.endMs) return false;
  if (t <= nextAfterMs) return true;
  nextFound = t;
  return false;
}

function keepNextStep(t: number): boolean {
  nextFound = t;
  return false;
}

/** The first occurrence > after, or null: walk's first visit. */
export function nextAfter(c: Compiled, after: number): number | null {
  nextFound = null;
  if (c.never || c.aDays > c.lastDay) return null;
  if (c.freq === 'HOURLY' || c.freq === 'MINUTELY') {
    walkFine(c, after, keepNextStep);
  } else {
    nextC = c;
    nextAfterMs = after;
    walkDays(c, firstDayFor(c, after), keepNext, nextPeriod);
    nextC = null;
  }
  return nextFound;
}

// ---------------------------------------------------------------------------------------------
// COUNT: the COUNT-th occurrence ends the series, like an UNTIL. It is found by arithmetic for the
// regular shapes (DAILY, WEEKLY without BYMONTH/BYSETPOS, HOURLY and MINUTELY without filters),
// otherwise by walking the days (or steps) from the start once, at most COUNT of them; a walk's
// result is cached (arithmetic costs less than the cache key).

const countEnds = new BoundedMemo<number>(20_000);

/**
 * Where the count-th occurrence is: for HOURLY/MINUTELY its instant, for DAILY and coarser its
 * local day (one occurrence a day, so the series ends with that day: no zone arithmetic needed).
 * Infinity when the series has fewer (before 9999); undefined when only a walk can tell.
 */
function countEndByArithmetic(c: Compiled, count: number): number | undefined {
  if (c.never) return Infinity;
  if (c.freq === 'HOURLY' || c.freq === 'MINUTELY') {
    const step = c.interval * (c.freq === 'HOURLY' ? 60 : 1) * MINUTE;
    if (!c.dayFilter) {
      const last = c.anchorMs + (count - 1) * step;
      // Past the last instant that can fall on 9999-12-31 anywhere, the zone is not even asked
      // (a huge COUNT x INTERVAL lands beyond what Date can represent).
      if (last < LAST_CHECK) return last;
      return last < LAST_POSSIBLE && localDays(c, last) <= c.lastDay ? last : Infinity;
    }
    // The count-th step (matching or not) already lies past the last day any zone reaches: the
    // series ends at that limit before its COUNT, and no walk is needed to know it.
    return (LAST_POSSIBLE - c.anchorMs) / step < count - 1 ? Infinity : undefined;
  }
  let day: number;
  if (c.freq === 'DAILY' && !c.dayFilter) {
    day = c.aDays + (count - 1) * c.interval;
  } else if (c.freq === 'WEEKLY' && c.monthSet === 0xfff && !c.setPos) {
    // Every week of the series has the same days; the anchor's week only those from the anchor on.
    const perWeek = c.weekOffsets.length;
    const first = c.weekOffsets.filter((off) => c.weekStart0 + off >= c.aDays);
    if (count <= first.length) day = c.weekStart0 + first[count - 1]!;
    else {
      const rest = count - first.length - 1;
      day = c.weekStart0 + 7 * c.interval * (1 + Math.floor(rest / perWeek)) + c.weekOffsets[rest % perWeek]!;
    }
  } else {
    return undefined;
  }
  return day > c.lastDay ? Infinity : day;
}

/** The same by walking the occurrences from the start (the shapes countEndByArithmetic leaves). */
function countEndByWalk(c: Compiled, count: number): number {
  let n = 0;
  if (c.freq === 'HOURLY' || c.freq === 'MINUTELY') {
    let last = Infinity;
    walkFine(c, c.anchorMs - 1, (t) => {
      if (++n < count) return true;
      last = t;
      return false;
    });
    return last;
  }
  let day = Infinity;
  walkDays(c, c.aDays, (d) => {
    if (++n < count) return true;
    day = d;
    return false;
  });
  return day > c.lastDay ? Infinity : day;
}

/** Instants before this are surely on or before 9999-12-30 in any zone. */
const LAST_CHECK = (LAST_DAY - 1) * DAY;
/** Instants from this one on are after 9999-12-31 in every zone. */
const LAST_POSSIBLE = (LAST_DAY + 2) * DAY;

/**
 * An HOURLY or MINUTELY rule that filters days (BYDAY, BYMONTH, BYMONTHDAY) finds its COUNT end
 * by walking every step from the anchor, matching or not, and a step years ahead asks the zone
 * data afresh: FREQ=HOURLY;INTERVAL=25;BYDAY=MO;COUNT=100000 took 8 s of CPU in the API's thread.
 * A new rule may need at most this many steps, over at most this many days (a fraction of a
 * second for a rule that starts this century); UNTIL, or no end, costs nothing to find.
 */
export const MAX_COUNT_WALK_STEPS = 25_000;
export const MAX_COUNT_WALK_DAYS = 50 * 366;

/** Whether the rule's COUNT end is cheap to find: by arithmetic, or by a walk within the bounds above. */
export function countEndWithinBudget(rule: ParsedRRule): boolean {
  if (rule.count === null || (rule.freq !== 'HOURLY' && rule.freq !== 'MINUTELY')) return true;
  const weekdays = rule.byDay ? new Set(rule.byDay.map((d) => d.weekday)).size / 7 : 1;
  const months = rule.byMonth ? new Set(rule.byMonth).size / 12 : 1;
  const monthDays = rule.byMonthDay ? Math.min(1, new Set(rule.byMonthDay).size / 30.44) : 1;
  const share = weekdays * months * monthDays;
  if (share === 1) return true;
  const stepDays = (rule.interval * (rule.freq === 'HOURLY' ? 60 : 1)) / 1440;
  // A step of a day or more lands on a new day each time; finer steps stay on an allowed day and
  // jump over the others.
  const steps = stepDays >= 1 ? rule.count / share : rule.count * (1 + stepDays / share);
  return steps <= MAX_COUNT_WALK_STEPS && steps * stepDays <= MAX_COUNT_WALK_DAYS;
}

export function applyCount(c: Compiled, rule: ParsedRRule, anchor: RRuleAnchor): Compiled {
  const count = rule.count;
  if (count === null) return c;
  const end = countEndByArithmetic(c, count) ?? countEnds.get(`${formatRRule(rule)}|${anchor.date}|${anchor.time}|${c.zone}`, () => countEndByWalk(c, count));
  if (end === Infinity) return c;
  if (c.freq === 'HOURLY' || c.freq === 'MINUTELY') {
    c.endMs = Math.min(c.endMs, end);
    c.lastDay = Math.min(c.lastDay, Math.floor((end + MAX_SHIFT) / DAY) + 1);
  } else {
    c.lastDay = Math.min(c.lastDay, end);
  }
  return c;
}
