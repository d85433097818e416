/**
 * Property tests: server/time/recurrence.ts against an independent oracle written with Temporal
 * (temporal-polyfill) calendar and time-zone arithmetic, plus invariants every series must keep.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { RecurrenceType } from '../server/db/database.ts';
import { nextOccurrenceAfter, nextOccurrences, occurrencesBetween, type RecurrenceRule } from '../server/time/recurrence.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Europe/London',
  'America/Sao_Paulo',
  'UTC',
] as const;
const TYPES: RecurrenceType[] = ['ONCE', 'YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'WORKDAYS', 'WEEKEND'];

// ---------------------------------------------------------------------------------------------
// Oracle: the product rules, spelled out with Temporal.

const instant = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

/** A wall-clock date+time in a zone: a gap maps to the transition instant, an overlap to the earlier instant. */
function oracleResolve(date: Temporal.PlainDate, time: Temporal.PlainTime, zone: string): number {
  const pdt = date.toPlainDateTime(time);
  const zdt = pdt.toZonedDateTime(zone, { disambiguation: 'compatible' }); // compatible = earlier in an overlap
  if (Temporal.PlainDateTime.compare(zdt.toPlainDateTime(), pdt) === 0) return zdt.epochMilliseconds;
  const transition = pdt.toZonedDateTime(zone, { disambiguation: 'earlier' }).getTimeZoneTransition('next');
  if (!transition) throw new Error('gap without a transition');
  return transition.epochMilliseconds;
}

function dayMatches(type: RecurrenceType, date: Temporal.PlainDate, anchorDate: Temporal.PlainDate): boolean {
  switch (type) {
    case 'DAILY':
      return true;
    case 'WEEKLY':
      return date.dayOfWeek === anchorDate.dayOfWeek;
    case 'WORKDAYS':
      return date.dayOfWeek <= 5; // ISO: 1 = Monday ... 7 = Sunday
    case 'WEEKEND':
      return date.dayOfWeek >= 6;
    default:
      throw new Error(type);
  }
}

function oracleNext(rule: RecurrenceRule, after: number): number | null {
  const { anchorMs, timeZone: zone, recurrence: type } = rule;
  if (type === 'ONCE') return anchorMs > after ? anchorMs : null;
  const anchor = instant(anchorMs).toZonedDateTimeISO(zone);

  if (type === 'HOURLY') {
    let k = after < anchorMs ? 0 : Math.max(0, Math.floor(instant(after).since(anchor.toInstant()).total({ unit: 'hours' })) - 1);
    for (;;) {
      const t = anchor.add({ hours: k }).epochMilliseconds;
      if (t > after) return t;
      k++;
    }
  }

  const anchorDate = anchor.toPlainDate();
  const anchorTime = anchor.toPlainTime();
  const occurrence = (d: Temporal.PlainDate) => (d.equals(anchorDate) ? anchorMs : oracleResolve(d, anchorTime, zone));
  const afterDate = after < anchorMs ? anchorDate : instant(after).toZonedDateTimeISO(zone).toPlainDate();

  if (type === 'MONTHLY' || type === 'YEARLY') {
    const unit = type === 'MONTHLY' ? 'months' : 'years';
    const diff = anchorDate.until(afterDate, { largestUnit: unit });
    let k = Math.max(0, (type === 'MONTHLY' ? diff.months : diff.years) - 1);
    for (;;) {
      const d = anchorDate.add(type === 'MONTHLY' ? { months: k } : { years: k }, { overflow: 'constrain' });
      const t = occurrence(d);
      if (t > after && t >= anchorMs) return t;
      k++;
    }
  }

  // Day-based: walk days from a little before the local date of `after` (never before the anchor's).
  let d = afterDate.subtract({ days: 2 });
  if (Temporal.PlainDate.compare(d, anchorDate) < 0) d = anchorDate;
  for (;;) {
    if (dayMatches(type, d, anchorDate)) {
      const t = occurrence(d);
      if (t > after && t >= anchorMs) return t;
    }
    d = d.add({ days: 1 });
  }
}

// ---------------------------------------------------------------------------------------------
// Generators.

const FIRST_DAY = Temporal.PlainDate.from('2020-01-01');
const SPAN_DAYS = FIRST_DAY.until(Temporal.PlainDate.from('2035-12-31')).days;

/** Local wall-clock times biased towards DST-change hours (00:xx-03:xx, 23:xx). */
const timeArb = fc
  .record({
    hour: fc.oneof(fc.constantFrom(0, 1, 2, 3, 23), fc.integer({ min: 0, max: 23 })),
    minute: fc.oneof(fc.constantFrom(0, 15, 30, 45), fc.integer({ min: 0, max: 59 })),
    second: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 59 }) }),
    millisecond: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 999 }) }),
  })
  .map((t) => new Temporal.PlainTime(t.hour, t.minute, t.second, t.millisecond));

const ruleArb = fc
  .record({
    zone: fc.constantFrom(...ZONES),
    type: fc.constantFrom(...TYPES),
    // Month ends and Feb 29 get extra weight.
    day: fc.oneof(
      fc.integer({ min: 0, max: SPAN_DAYS }),
      fc.constantFrom(...['2020-02-29', '2024-02-29', '2028-02-29', '2032-02-29', '2026-01-31', '2027-08-31', '2030-03-30', '2029-05-29'].map((s) => FIRST_DAY.until(Temporal.PlainDate.from(s)).days)),
    ),
    time: timeArb,
    // 'later' makes an ambiguous anchor the second of the two instants.
    disambiguation: fc.constantFrom('compatible', 'later') as fc.Arbitrary<'compatible' | 'later'>,
  })
  .map(({ zone, type, day, time, disambiguation }): RecurrenceRule => ({
    timeZone: zone,
    recurrence: type,
    anchorMs: FIRST_DAY.add({ days: day }).toPlainDateTime(time).toZonedDateTime(zone, { disambiguation }).epochMilliseconds,
  }));

/** Next DST transition of the zone after an instant (null for zones without DST). */
function transitionAfter(zone: string, ms: number): number | null {
  return instant(ms).toZonedDateTimeISO(zone).getTimeZoneTransition('next')?.epochMilliseconds ?? null;
}

/** An `after` for a rule: anywhere from 3 days before the anchor to ~6 years after, or right around a DST change. */
const caseArb = ruleArb.chain((rule) =>
  fc
    .oneof(
      fc.integer({ min: -3 * DAY, max: 6 * 365 * DAY }).map((delta) => rule.anchorMs + delta),
      fc.record({ days: fc.integer({ min: 0, max: 2200 }), jitter: fc.constantFrom(-1, 0, 1, -HOUR, HOUR) }).map(({ days, jitter }) => rule.anchorMs + days * DAY + jitter),
      fc.record({ start: fc.integer({ min: 0, max: 5 * 365 * DAY }), jitter: fc.integer({ min: -3 * DAY, max: DAY }) }).map(({ start, jitter }) => {
        const t = transitionAfter(rule.timeZone, rule.anchorMs + start);
        return (t ?? rule.anchorMs + start) + jitter;
      }),
    )
    .map((after) => ({ rule, after })),
);

const describeCase = (rule: RecurrenceRule, after: number) =>
  `${rule.recurrence} ${rule.timeZone} anchor=${new Date(rule.anchorMs).toISOString()} after=${new Date(after).toISOString()}`;

// ---------------------------------------------------------------------------------------------

describe('recurrence vs Temporal oracle', () => {
  it('nextOccurrenceAfter equals the oracle', () => {
    fc.assert(
      fc.property(caseArb, ({ rule, after }) => {
        const expected = oracleNext(rule, after);
        expect(nextOccurrenceAfter(rule, after), describeCase(rule, after)).toBe(expected);
        if (expected !== null) {
          // Boundaries: just before an occurrence gives it; at it gives the one after.
          expect(nextOccurrenceAfter(rule, expected - 1), describeCase(rule, expected - 1)).toBe(expected);
          expect(nextOccurrenceAfter(rule, expected), describeCase(rule, expected)).toBe(oracleNext(rule, expected));
        }
      }),
      { numRuns: 800 },
    );
  });

  it('nextOccurrences is the oracle chained', () => {
    fc.assert(
      fc.property(caseArb, ({ rule, after }) => {
        const expected: number[] = [];
        let t: number | null = after;
        while (expected.length < 6 && (t = oracleNext(rule, t)) !== null) expected.push(t);
        expect(nextOccurrences(rule, after, 6), describeCase(rule, after)).toEqual(expected);
      }),
      { numRuns: 250 },
    );
  });
});

describe('recurrence invariants', () => {
  it('series are strictly increasing, after `after`, never before the anchor, at the wall-clock time of the anchor', () => {
    fc.assert(
      fc.property(caseArb, ({ rule, after }) => {
        const label = describeCase(rule, after);
        const list = nextOccurrences(rule, after, 40);
        const zone = rule.timeZone;
        const anchor = instant(rule.anchorMs).toZonedDateTimeISO(zone);
        const seenDates = new Set<string>();
        let previous = after;
        for (const t of list) {
          expect(t, label).toBeGreaterThan(previous);
          expect(t, label).toBeGreaterThanOrEqual(rule.anchorMs);
          previous = t;
          if (rule.recurrence === 'HOURLY') {
            expect((t - rule.anchorMs) % HOUR, label).toBe(0);
            continue;
          }
          const local = instant(t).toZonedDateTimeISO(zone);
          const date = local.toPlainDate();
          if (!local.toPlainTime().equals(anchor.toPlainTime())) {
            // Only allowed when the anchor's time does not exist that day: then it is the gap's end.
            const wanted = date.toPlainDateTime(anchor.toPlainTime());
            const compatible = wanted.toZonedDateTime(zone, { disambiguation: 'compatible' });
            expect(Temporal.PlainDateTime.compare(compatible.toPlainDateTime(), wanted), `${label} ${local.toString()} is not in a gap`).not.toBe(0);
            expect(t, label).toBe(wanted.toZonedDateTime(zone, { disambiguation: 'earlier' }).getTimeZoneTransition('next')?.epochMilliseconds);
          }
          // Fires once per local date (a fall-back never doubles it).
          expect(seenDates.has(date.toString()), `${label} twice on ${date.toString()}`).toBe(false);
          seenDates.add(date.toString());
          const anchorDate = anchor.toPlainDate();
          if (rule.recurrence === 'WORKDAYS') expect(date.dayOfWeek, label).toBeLessThanOrEqual(5);
          if (rule.recurrence === 'WEEKEND') expect(date.dayOfWeek, label).toBeGreaterThanOrEqual(6);
          if (rule.recurrence === 'WEEKLY') expect(date.dayOfWeek, label).toBe(anchorDate.dayOfWeek);
          if (rule.recurrence === 'MONTHLY' || rule.recurrence === 'YEARLY') {
            expect(date.day, label).toBe(Math.min(anchorDate.day, date.daysInMonth));
            if (rule.recurrence === 'YEARLY') expect(date.month, label).toBe(anchorDate.month);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('occurrencesBetween agrees with nextOccurrences', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 60 * DAY }), ({ rule, after }, span) => {
        const from = after;
        const to = after + span;
        const between = occurrencesBetween(rule, from, to);
        const chained = nextOccurrences(rule, from - 1, 100).filter((t) => t < to);
        expect(between.slice(0, chained.length), describeCase(rule, after)).toEqual(chained);
        for (const t of between) {
          expect(t).toBeGreaterThanOrEqual(from);
          expect(t).toBeLessThan(to);
        }
      }),
      { numRuns: 200 },
    );
  });
});
