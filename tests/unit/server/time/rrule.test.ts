/**
 * server/time/rrule.ts by hand: the parsing/validation table (every supported part, every refused
 * one with the part named) and expansions checked on a calendar, including DST gap and overlap
 * days in Europe/Paris, Australia/Lord_Howe, Pacific/Chatham and America/Santiago, and leap days.
 */
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import {
  checkRRuleFires,
  firesAtLeastOnce,
  firstRRuleOccurrence,
  formatRRule,
  nextRRuleOccurrenceAfter,
  parseRRule,
  type ParsedRRule,
  type RRuleAnchor,
} from '../../../../server/time/rrule.ts';
import { rruleOccurrences, rruleOccurrencesBetween } from '../../../helpers/rrule-listing.ts';

const DAY = 86_400_000;

const at = (iso: string) => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`bad test date ${iso}`);
  return t;
};

/** An instant as local time with its offset in a zone: '2026-03-29T03:00:00+02:00'. */
const show = (t: number | null, zone: string) =>
  t === null ? null : Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone).toString({ timeZoneName: 'never' });

function rule(text: string): ParsedRRule {
  const p = parseRRule(text);
  if (!p.ok) throw new Error(`${text}: ${p.part}: ${p.message}`);
  return p.rule;
}

const anchor = (date: string, time: string, timeZone = 'Europe/Paris'): RRuleAnchor => ({ date, time, timeZone });

/** The first n occurrences of the series, shown in the anchor's zone. */
const series = (text: string, a: RRuleAnchor, n: number) => rruleOccurrences(rule(text), a, -Infinity, n).map((t) => show(t, a.timeZone));

/** Local dates only, for calendar checks. */
const dates = (text: string, a: RRuleAnchor, n: number) => series(text, a, n).map((s) => s!.slice(0, 10));

// ---------------------------------------------------------------------------------------------

describe('parseRRule: supported parts', () => {
  it.each<[string, Partial<ParsedRRule>]>([
    ['FREQ=MINUTELY;INTERVAL=5', { freq: 'MINUTELY', interval: 5 }],
    ['FREQ=HOURLY', { freq: 'HOURLY', interval: 1 }],
    ['FREQ=DAILY', { freq: 'DAILY', byDay: null, byMonthDay: null, byMonth: null, bySetPos: null, count: null, until: null, wkst: 'MO' }],
    ['FREQ=WEEKLY;INTERVAL=2;BYDAY=WE,MO', { freq: 'WEEKLY', interval: 2, byDay: [{ weekday: 'MO', n: null }, { weekday: 'WE', n: null }] }],
    ['FREQ=MONTHLY', { freq: 'MONTHLY' }],
    ['FREQ=YEARLY', { freq: 'YEARLY' }],
    ['FREQ=MONTHLY;BYDAY=1MO', { byDay: [{ weekday: 'MO', n: 1 }] }],
    ['FREQ=MONTHLY;BYDAY=+2TU,-1FR', { byDay: [{ weekday: 'TU', n: 2 }, { weekday: 'FR', n: -1 }] }],
    ['FREQ=MONTHLY;BYDAY=MO,-1MO,1MO', { byDay: [{ weekday: 'MO', n: null }, { weekday: 'MO', n: 1 }, { weekday: 'MO', n: -1 }] }],
    ['FREQ=YEARLY;BYDAY=20MO,-53SU', { byDay: [{ weekday: 'MO', n: 20 }, { weekday: 'SU', n: -53 }] }],
    ['FREQ=YEARLY;BYMONTH=3;BYDAY=-5SU', { byMonth: [3], byDay: [{ weekday: 'SU', n: -5 }] }],
    ['FREQ=MONTHLY;BYMONTHDAY=-1,15,1,-31,31', { byMonthDay: [1, 15, 31, -1, -31] }],
    ['FREQ=YEARLY;BYMONTH=12,1,6', { byMonth: [1, 6, 12] }],
    ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1,1,366,-366', { bySetPos: [1, 366, -1, -366] }],
    ['FREQ=DAILY;COUNT=10', { count: 10 }],
    ['FREQ=DAILY;COUNT=100000', { count: 100_000 }],
    ['FREQ=DAILY;UNTIL=20270301T000000Z', { until: { kind: 'utc', ms: at('2027-03-01T00:00:00Z') } }],
    ['FREQ=DAILY;UNTIL=20270301', { until: { kind: 'date', date: '2027-03-01' } }],
    ['FREQ=DAILY;UNTIL=20280229T235959Z', { until: { kind: 'utc', ms: at('2028-02-29T23:59:59Z') } }],
    ['FREQ=WEEKLY;WKST=SU', { wkst: 'SU' }],
    ['freq=weekly;byday=mo;wkst=su', { freq: 'WEEKLY', byDay: [{ weekday: 'MO', n: null }], wkst: 'SU' }],
    ['INTERVAL=3;FREQ=DAILY', { freq: 'DAILY', interval: 3 }],
    ['FREQ=DAILY;', { freq: 'DAILY' }],
    ['  FREQ=DAILY  ', { freq: 'DAILY' }],
    ['FREQ=DAILY;INTERVAL=100000', { interval: 100_000 }],
  ])('%s', (text, expected) => {
    const p = parseRRule(text);
    expect(p).toMatchObject({ ok: true, rule: expected });
  });

  it.each([
    ['byday=we,mo;freq=weekly;interval=2', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE'],
    ['FREQ=DAILY;INTERVAL=1;WKST=MO', 'FREQ=DAILY'],
    ['UNTIL=20270301T000000Z;BYDAY=MO,WE;INTERVAL=2;FREQ=WEEKLY', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20270301T000000Z'],
    ['COUNT=10;BYDAY=1MO;FREQ=MONTHLY', 'FREQ=MONTHLY;BYDAY=1MO;COUNT=10'],
    ['FREQ=YEARLY;BYSETPOS=-1;BYMONTHDAY=29,28;BYMONTH=2;WKST=SU;UNTIL=20300101', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1;WKST=SU;UNTIL=20300101'],
    ['FREQ=MONTHLY;BYDAY=-1FR,MO,+1MO', 'FREQ=MONTHLY;BYDAY=MO,1MO,-1FR'],
  ])('formatRRule(%s) = %s, and parses back to the same rule', (text, canonical) => {
    expect(formatRRule(rule(text))).toBe(canonical);
    expect(rule(canonical)).toEqual(rule(text));
  });
});

describe('parseRRule: refused, naming the part', () => {
  it.each([
    // Parts Chime does not support.
    ['FREQ=DAILY;BYHOUR=9', 'BYHOUR'],
    ['FREQ=DAILY;BYMINUTE=30', 'BYMINUTE'],
    ['FREQ=DAILY;BYSECOND=0', 'BYSECOND'],
    ['FREQ=YEARLY;BYYEARDAY=100', 'BYYEARDAY'],
    ['FREQ=YEARLY;BYWEEKNO=20', 'BYWEEKNO'],
    ['RSCALE=HEBREW;FREQ=YEARLY', 'RSCALE'],
    ['FREQ=MONTHLY;RSCALE=GREGORIAN;SKIP=FORWARD', 'RSCALE'],
    ['FREQ=DAILY;SKIP=BACKWARD', 'SKIP'],
    ['FREQ=DAILY;X-NAME=1', 'X-NAME'],
    ['FREQ=DAILY;BYEASTER=0', 'BYEASTER'],
    ['FREQ=DAILY;DTSTART=20260101T090000Z', 'DTSTART'],
    ['FREQ=DAILY;TZID=Europe/Paris', 'TZID'],
    // Duplicates, and COUNT with UNTIL (the later one is named).
    ['FREQ=DAILY;FREQ=WEEKLY', 'FREQ'],
    ['FREQ=WEEKLY;BYDAY=MO;BYDAY=TU', 'BYDAY'],
    ['FREQ=DAILY;COUNT=2;COUNT=3', 'COUNT'],
    ['FREQ=DAILY;COUNT=5;UNTIL=20270101T000000Z', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=20270101;COUNT=5', 'COUNT'],
    ['FREQ=WEEKLY;BYDAY=MO,MO', 'BYDAY'],
    ['FREQ=MONTHLY;BYMONTHDAY=1,1', 'BYMONTHDAY'],
    ['FREQ=YEARLY;BYMONTH=2,2', 'BYMONTH'],
    ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1,1', 'BYSETPOS'],
    // FREQ
    ['INTERVAL=2', 'FREQ'],
    ['FREQ=SECONDLY', 'FREQ'],
    ['FREQ=FORTNIGHTLY', 'FREQ'],
    // INTERVAL
    ['FREQ=MINUTELY', 'INTERVAL'],
    ['FREQ=MINUTELY;INTERVAL=4', 'INTERVAL'],
    ['FREQ=DAILY;INTERVAL=0', 'INTERVAL'],
    ['FREQ=DAILY;INTERVAL=-1', 'INTERVAL'],
    ['FREQ=DAILY;INTERVAL=1.5', 'INTERVAL'],
    ['FREQ=DAILY;INTERVAL=two', 'INTERVAL'],
    ['FREQ=DAILY;INTERVAL=100001', 'INTERVAL'],
    // BYDAY
    ['FREQ=WEEKLY;BYDAY=XX', 'BYDAY'],
    ['FREQ=WEEKLY;BYDAY=MON', 'BYDAY'],
    ['FREQ=WEEKLY;BYDAY=MO,', 'BYDAY'],
    ['FREQ=MONTHLY;BYDAY=0MO', 'BYDAY'],
    ['FREQ=WEEKLY;BYDAY=1MO', 'BYDAY'],
    ['FREQ=DAILY;BYDAY=-1FR', 'BYDAY'],
    ['FREQ=HOURLY;BYDAY=2MO', 'BYDAY'],
    ['FREQ=MONTHLY;BYDAY=6MO', 'BYDAY'],
    ['FREQ=YEARLY;BYMONTH=1;BYDAY=-6MO', 'BYDAY'],
    ['FREQ=YEARLY;BYDAY=54MO', 'BYDAY'],
    // BYMONTHDAY
    ['FREQ=MONTHLY;BYMONTHDAY=0', 'BYMONTHDAY'],
    ['FREQ=MONTHLY;BYMONTHDAY=32', 'BYMONTHDAY'],
    ['FREQ=MONTHLY;BYMONTHDAY=-32', 'BYMONTHDAY'],
    ['FREQ=MONTHLY;BYMONTHDAY=first', 'BYMONTHDAY'],
    ['FREQ=WEEKLY;BYMONTHDAY=1', 'BYMONTHDAY'],
    // BYMONTH
    ['FREQ=YEARLY;BYMONTH=0', 'BYMONTH'],
    ['FREQ=YEARLY;BYMONTH=13', 'BYMONTH'],
    ['FREQ=YEARLY;BYMONTH=-1', 'BYMONTH'],
    // BYSETPOS
    ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0', 'BYSETPOS'],
    ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367', 'BYSETPOS'],
    ['FREQ=MONTHLY;BYSETPOS=1', 'BYSETPOS'],
    // COUNT
    ['FREQ=DAILY;COUNT=0', 'COUNT'],
    ['FREQ=DAILY;COUNT=-3', 'COUNT'],
    ['FREQ=DAILY;COUNT=100001', 'COUNT'],
    // UNTIL
    ['FREQ=DAILY;UNTIL=20270301T000000', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=2027-03-01', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=20270230', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=20270301T240000Z', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=20270301T000060Z', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=20270301T0000Z', 'UNTIL'],
    // WKST
    ['FREQ=WEEKLY;WKST=XX', 'WKST'],
    ['FREQ=WEEKLY;WKST=1', 'WKST'],
    // The rule as a whole.
    ['', 'RRULE'],
    ['   ', 'RRULE'],
    ['RRULE:FREQ=DAILY', 'RRULE'],
    ['FREQ=DAILY;;COUNT=2', 'RRULE'],
    [';FREQ=DAILY', 'RRULE'],
    ['FREQ', 'FREQ'],
    ['FREQ=', 'FREQ'],
    ['FREQ=DAILY;COUNT', 'COUNT'],
    ['FREQ=DAILY;=3', 'RRULE'],
    ['FREQ=DAILY;BY DAY=MO', 'BY DAY'],
    [`FREQ=DAILY;BYMONTHDAY=${'1,'.repeat(1500)}1`, 'RRULE'],
  ])('%s -> %s', (text, part) => {
    const p = parseRRule(text);
    expect(p.ok, JSON.stringify(p)).toBe(false);
    if (p.ok) return;
    expect(p.part).toBe(part);
    expect(p.message.length).toBeGreaterThan(5);
    if (part !== 'RRULE') expect(p.message).toContain(part);
  });

  it('a value that is not a string is refused', () => {
    expect(parseRRule(42 as unknown as string)).toMatchObject({ ok: false, part: 'RRULE' });
  });
});

// ---------------------------------------------------------------------------------------------

describe('expansion, checked on a calendar', () => {
  it('the first Monday of the month', () => {
    expect(series('FREQ=MONTHLY;BYDAY=1MO', anchor('2026-01-01', '10:00'), 5)).toEqual([
      '2026-01-05T10:00:00+01:00',
      '2026-02-02T10:00:00+01:00',
      '2026-03-02T10:00:00+01:00',
      '2026-04-06T10:00:00+02:00',
      '2026-05-04T10:00:00+02:00',
    ]);
  });

  it('the last Friday of the month, at 17:00', () => {
    expect(dates('FREQ=MONTHLY;BYDAY=-1FR', anchor('2026-01-01', '17:00'), 6)).toEqual(['2026-01-30', '2026-02-27', '2026-03-27', '2026-04-24', '2026-05-29', '2026-06-26']);
  });

  it('the second-to-last Sunday of March, yearly', () => {
    expect(dates('FREQ=YEARLY;BYMONTH=3;BYDAY=-2SU', anchor('2026-01-01', '09:00'), 3)).toEqual(['2026-03-22', '2027-03-21', '2028-03-19']);
  });

  it('the 20th Monday of the year (YEARLY ordinals count in the year without BYMONTH)', () => {
    expect(dates('FREQ=YEARLY;BYDAY=20MO', anchor('2026-01-01', '09:00'), 3)).toEqual(['2026-05-18', '2027-05-17', '2028-05-15']);
    expect(dates('FREQ=YEARLY;BYDAY=-1MO', anchor('2026-01-01', '09:00'), 2)).toEqual(['2026-12-28', '2027-12-27']);
  });

  it('every 2 weeks on Monday and Wednesday: weeks counted from the anchor\'s week', () => {
    // Anchored on a Thursday: that week's Monday and Wednesday are before it, the next week is skipped.
    expect(dates('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE', anchor('2026-01-01', '09:00'), 6)).toEqual(['2026-01-12', '2026-01-14', '2026-01-26', '2026-01-28', '2026-02-09', '2026-02-11']);
    expect(dates('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE', anchor('2026-01-05', '09:00'), 4)).toEqual(['2026-01-05', '2026-01-07', '2026-01-19', '2026-01-21']);
    // With the week starting on Sunday, Sunday the 11th opens the anchor's second week (skipped).
    expect(dates('FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=SU', anchor('2026-01-05', '09:00'), 4)).toEqual(['2026-01-05', '2026-01-18', '2026-01-19', '2026-02-01']);
    expect(dates('FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO', anchor('2026-01-05', '09:00'), 4)).toEqual(['2026-01-05', '2026-01-11', '2026-01-19', '2026-01-25']);
  });

  it('BYMONTHDAY=31 skips the months without a 31st; -1 is the last day', () => {
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=31', anchor('2026-01-31', '09:00'), 7)).toEqual(['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31', '2026-08-31', '2026-10-31', '2026-12-31']);
    // Plain MONTHLY from the 31st is the same (the anchor's day of month), unlike the MONTHLY preset.
    expect(dates('FREQ=MONTHLY', anchor('2026-01-31', '09:00'), 3)).toEqual(['2026-01-31', '2026-03-31', '2026-05-31']);
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=-1', anchor('2027-11-15', '09:00'), 5)).toEqual(['2027-11-30', '2027-12-31', '2028-01-31', '2028-02-29', '2028-03-31']);
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=-3', anchor('2027-02-01', '09:00'), 2)).toEqual(['2027-02-26', '2027-03-29']);
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=1,-1', anchor('2027-02-01', '09:00'), 4)).toEqual(['2027-02-01', '2027-02-28', '2027-03-01', '2027-03-31']);
  });

  it('BYSETPOS=-1: the last weekday of the month', () => {
    expect(dates('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', anchor('2026-01-01', '09:00'), 6)).toEqual(['2026-01-30', '2026-02-27', '2026-03-31', '2026-04-30', '2026-05-29', '2026-06-30']);
    expect(dates('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1', anchor('2026-05-01', '09:00'), 4)).toEqual(['2026-05-01', '2026-05-29', '2026-06-01', '2026-06-30']);
    // Positions count in the whole month, before the days before the anchor are dropped.
    expect(dates('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1', anchor('2026-05-05', '09:00'), 2)).toEqual(['2026-06-01', '2026-07-01']);
  });

  it('BYSETPOS past either end of the set picks nothing (a one-element set is picked once)', () => {
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=1,-1;BYSETPOS=-3,3', anchor('2026-01-01', '09:00'), 3)).toEqual([]);
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=1,-1;BYSETPOS=-3,-2', anchor('2026-01-01', '09:00'), 3)).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=15;BYSETPOS=1,-1', anchor('2026-01-01', '09:00'), 3)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15']);
    expect(dates('FREQ=DAILY;BYDAY=MO;BYSETPOS=1,-1', anchor('2026-01-01', '09:00'), 2)).toEqual(['2026-01-05', '2026-01-12']);
    expect(dates('FREQ=DAILY;BYDAY=MO;BYSETPOS=2', anchor('2026-01-01', '09:00'), 2)).toEqual([]);
  });

  it('WEEKLY with BYSETPOS counts in the whole first week (RFC 5545; dateutil counts from the anchor)', () => {
    // 2024-11-10 is a Sunday; with WKST=WE its week is Wed 6 - Tue 12: {We 6, Mo 11, Tu 12}; the 1st is the 6th, before the anchor.
    const a = anchor('2024-11-10', '09:00');
    expect(dates('FREQ=WEEKLY;WKST=WE;BYSETPOS=1;BYDAY=MO,TU,WE', a, 3)).toEqual(['2024-11-13', '2024-11-20', '2024-11-27']);
    expect(dates('FREQ=WEEKLY;WKST=WE;BYSETPOS=-1;BYDAY=MO,TU,WE', a, 3)).toEqual(['2024-11-12', '2024-11-19', '2024-11-26']);
  });

  it('BYDAY mixing plain and ordinal weekdays is their union (RFC 5545; dateutil intersects them)', () => {
    expect(dates('FREQ=MONTHLY;BYDAY=MO,-1FR', anchor('2026-01-01', '09:00'), 6)).toEqual(['2026-01-05', '2026-01-12', '2026-01-19', '2026-01-26', '2026-01-30', '2026-02-02']);
    expect(dates('FREQ=MONTHLY;BYDAY=1MO,MO', anchor('2026-01-01', '09:00'), 2)).toEqual(['2026-01-05', '2026-01-12']);
  });

  it('BYDAY with BYMONTHDAY: both must hold (Friday the 13th)', () => {
    expect(dates('FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13', anchor('2026-01-01', '09:00'), 3)).toEqual(['2026-02-13', '2026-03-13', '2026-11-13']);
  });

  it('DAILY with filters: weekdays of some months', () => {
    expect(dates('FREQ=DAILY;BYMONTH=1,7;BYDAY=SA,SU', anchor('2026-06-29', '09:00'), 4)).toEqual(['2026-07-04', '2026-07-05', '2026-07-11', '2026-07-12']);
    expect(dates('FREQ=DAILY;INTERVAL=10;BYMONTHDAY=1,11,21', anchor('2026-01-01', '09:00'), 4)).toEqual(['2026-01-01', '2026-01-11', '2026-01-21', '2026-04-01']);
  });

  it('the anchor is the first occurrence only when it matches; COUNT counts from the first match', () => {
    // 2026-01-03 is a Saturday.
    const a = anchor('2026-01-03', '09:00');
    expect(dates('FREQ=WEEKLY;BYDAY=MO;COUNT=2', a, 10)).toEqual(['2026-01-05', '2026-01-12']);
    expect(show(firstRRuleOccurrence(rule('FREQ=WEEKLY;BYDAY=MO;COUNT=2'), a), a.timeZone)).toBe('2026-01-05T09:00:00+01:00');
    expect(dates('FREQ=WEEKLY;BYDAY=SA;COUNT=2', a, 10)).toEqual(['2026-01-03', '2026-01-10']);
  });

  it('COUNT ends the series, wherever the question starts', () => {
    const r = rule('FREQ=MONTHLY;BYDAY=1MO;COUNT=3');
    const a = anchor('2026-01-01', '10:00');
    const all = rruleOccurrences(r, a, -Infinity, 10);
    expect(all.map((t) => show(t, a.timeZone))).toEqual(['2026-01-05T10:00:00+01:00', '2026-02-02T10:00:00+01:00', '2026-03-02T10:00:00+01:00']);
    expect(nextRRuleOccurrenceAfter(r, a, all[1]!)).toBe(all[2]);
    expect(nextRRuleOccurrenceAfter(r, a, all[2]!)).toBeNull();
    expect(nextRRuleOccurrenceAfter(r, a, at('2030-01-01T00:00Z'))).toBeNull();
    expect(rruleOccurrencesBetween(r, a, at('2026-02-01T00:00Z'), at('2027-01-01T00:00Z'))).toEqual(all.slice(1));
    expect(dates('FREQ=MINUTELY;INTERVAL=5;COUNT=100000', anchor('2026-01-01', '00:00', 'UTC'), 1)).toEqual(['2026-01-01']);
    expect(show(nextRRuleOccurrenceAfter(rule('FREQ=MINUTELY;INTERVAL=5;COUNT=100000'), anchor('2026-01-01', '00:00', 'UTC'), at('2030-01-01T00:00Z')), 'UTC')).toBeNull();
    expect(show(nextRRuleOccurrenceAfter(rule('FREQ=MINUTELY;INTERVAL=5;COUNT=100000'), anchor('2026-01-01', '00:00', 'UTC'), at('2026-12-14T00:00Z')), 'UTC')).toBe('2026-12-14T00:05:00+00:00');
    // The 100,000th: 99,999 steps of 5 minutes after the anchor.
    expect(nextRRuleOccurrenceAfter(rule('FREQ=MINUTELY;INTERVAL=5;COUNT=100000'), anchor('2026-01-01', '00:00', 'UTC'), at('2026-01-01T00:00Z') + 99_998 * 300_000)).toBe(at('2026-01-01T00:00Z') + 99_999 * 300_000);
  });

  it('UNTIL is inclusive: an instant, or a whole local day', () => {
    const a = anchor('2026-01-01', '09:00'); // 08:00Z
    expect(dates('FREQ=DAILY;UNTIL=20260105T080000Z', a, 10)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05']);
    expect(dates('FREQ=DAILY;UNTIL=20260105T075959Z', a, 10)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);
    expect(dates('FREQ=DAILY;UNTIL=20260105', a, 10)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05']);
    // The date is the reminder's local date: 23:30 in Paris on the 5th is 22:30Z, still the 5th.
    expect(dates('FREQ=DAILY;UNTIL=20260105', anchor('2026-01-01', '23:30'), 10)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05']);
    expect(dates('FREQ=HOURLY;INTERVAL=6;UNTIL=20260102', a, 10)).toEqual(['2026-01-01', '2026-01-01', '2026-01-01', '2026-01-02', '2026-01-02', '2026-01-02', '2026-01-02']);
    expect(dates('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20270301T000000Z', anchor('2027-01-01', '09:00'), 20)).toEqual([
      '2027-01-11', '2027-01-13', '2027-01-25', '2027-01-27', '2027-02-08', '2027-02-10', '2027-02-22', '2027-02-24',
    ]);
  });

  it('MINUTELY every 15 minutes steps in absolute time across the Paris gap and overlap', () => {
    expect(series('FREQ=MINUTELY;INTERVAL=15', anchor('2026-03-29', '01:30'), 5)).toEqual([
      '2026-03-29T01:30:00+01:00',
      '2026-03-29T01:45:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T03:15:00+02:00',
      '2026-03-29T03:30:00+02:00',
    ]);
    expect(series('FREQ=MINUTELY;INTERVAL=15', anchor('2026-10-25', '02:30'), 5)).toEqual([
      '2026-10-25T02:30:00+02:00',
      '2026-10-25T02:45:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T02:15:00+01:00',
      '2026-10-25T02:30:00+01:00',
    ]);
  });

  it('HOURLY every 2 hours stays 2 hours apart across DST; BYDAY keeps the steps on matching local days', () => {
    expect(series('FREQ=HOURLY;INTERVAL=2', anchor('2026-03-29', '00:00'), 3)).toEqual(['2026-03-29T00:00:00+01:00', '2026-03-29T03:00:00+02:00', '2026-03-29T05:00:00+02:00']);
    const sat = series('FREQ=HOURLY;INTERVAL=5;BYDAY=SA', anchor('2026-01-01', '09:00'), 6);
    expect(sat).toEqual([
      '2026-01-03T01:00:00+01:00',
      '2026-01-03T06:00:00+01:00',
      '2026-01-03T11:00:00+01:00',
      '2026-01-03T16:00:00+01:00',
      '2026-01-03T21:00:00+01:00',
      '2026-01-10T03:00:00+01:00',
    ]);
  });

  it('leap days: BYMONTHDAY=29 of February fires in leap years only; -1 every year', () => {
    expect(dates('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', anchor('2026-01-01', '09:00'), 3)).toEqual(['2028-02-29', '2032-02-29', '2036-02-29']);
    expect(dates('FREQ=YEARLY', anchor('2028-02-29', '09:00'), 3)).toEqual(['2028-02-29', '2032-02-29', '2036-02-29']);
    expect(dates('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1', anchor('2027-01-01', '09:00'), 3)).toEqual(['2027-02-28', '2028-02-29', '2029-02-28']);
    expect(dates('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1', anchor('2028-02-29', '09:00'), 3)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28']);
    // Century years: 2100 is not a leap year, 2400 is.
    expect(dates('FREQ=YEARLY;INTERVAL=100;BYMONTH=2;BYMONTHDAY=29', anchor('2000-01-01', '09:00'), 2)).toEqual(['2000-02-29', '2400-02-29']);
    expect(dates('FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=29', anchor('2024-02-29', '09:00'), 2)).toEqual(['2024-02-29', '2028-02-29']);
  });

  it('far from the anchor, the answer is the same as walking there', () => {
    const r = rule('FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,WE,FR');
    const a = anchor('2001-05-09', '07:45', 'America/New_York');
    const all = rruleOccurrences(r, a, -Infinity, 100);
    let after = all[99]!;
    for (let i = 0; i < 2000; i++) after = nextRRuleOccurrenceAfter(r, a, after)!;
    const far = nextRRuleOccurrenceAfter(r, a, after);
    expect(far).not.toBeNull();
    // 3 occurrences per period of 3 weeks: the 2001st after all[99] is 667 periods later, the same weekday.
    expect(Math.round((far! - all[99]!) / (7 * DAY))).toBe(667 * 3);
    expect(show(far, a.timeZone)!.slice(11, 16)).toBe('07:45');
  });

  it('nothing after 9999-12-31', () => {
    expect(dates('FREQ=YEARLY', anchor('9998-06-01', '09:00'), 5)).toEqual(['9998-06-01', '9999-06-01']);
    expect(series('FREQ=HOURLY;INTERVAL=12', anchor('9999-12-31', '00:00', 'UTC'), 5)).toEqual(['9999-12-31T00:00:00+00:00', '9999-12-31T12:00:00+00:00']);
    expect(nextRRuleOccurrenceAfter(rule('FREQ=DAILY'), anchor('2026-01-01', '09:00'), 8.64e15)).toBeNull();
    expect(firesAtLeastOnce(rule('FREQ=WEEKLY;BYDAY=MO'), anchor('9999-12-31', '09:00'))).toBe(false); // a Friday
  });

  it('between, limits and bad input', () => {
    const r = rule('FREQ=DAILY');
    const a = anchor('2026-01-01', '09:00');
    expect(rruleOccurrencesBetween(r, a, at('2026-01-03T08:00Z'), at('2026-01-06T08:00Z')).map((t) => show(t, 'Europe/Paris')!.slice(0, 10))).toEqual(['2026-01-03', '2026-01-04', '2026-01-05']);
    expect(rruleOccurrencesBetween(r, a, at('2026-01-01T00:00Z'), at('2027-01-01T00:00Z'), 2)).toHaveLength(2);
    expect(rruleOccurrencesBetween(rule('FREQ=MINUTELY;INTERVAL=5'), a, 0, 8.64e15, 1e9)).toHaveLength(10_000);
    expect(rruleOccurrences(r, a, 0, 1000)).toHaveLength(100);
    expect(rruleOccurrences(r, a, 0, 0)).toEqual([]);
    expect(() => nextRRuleOccurrenceAfter(r, a, NaN)).toThrow(RangeError);
    expect(() => rruleOccurrencesBetween(r, a, NaN, 0)).toThrow(RangeError);
    expect(() => nextRRuleOccurrenceAfter(r, anchor('2026-02-30', '09:00'), 0)).toThrow(RangeError);
    expect(() => nextRRuleOccurrenceAfter(r, anchor('2026-01-01', '24:00'), 0)).toThrow(RangeError);
    expect(() => nextRRuleOccurrenceAfter(r, anchor('2026-01-01', '09:00', 'Mars/Olympus'), 0)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------

describe('wall-clock times on DST days', () => {
  it('Europe/Paris: 02:30 fires at 03:00 on the spring-forward day, then 02:30; once on the fall-back day', () => {
    expect(series('FREQ=DAILY', anchor('2026-03-28', '02:30'), 3)).toEqual(['2026-03-28T02:30:00+01:00', '2026-03-29T03:00:00+02:00', '2026-03-30T02:30:00+02:00']);
    expect(series('FREQ=WEEKLY;BYDAY=SU', anchor('2026-10-18', '02:30'), 3)).toEqual(['2026-10-18T02:30:00+02:00', '2026-10-25T02:30:00+02:00', '2026-11-01T02:30:00+01:00']);
    // The last Sunday of March, when the clocks change: 02:30 is in the gap every year.
    expect(series('FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', anchor('2026-01-01', '02:30'), 2)).toEqual(['2026-03-29T03:00:00+02:00', '2027-03-28T03:00:00+02:00']);
    // Between the two 02:30s of 25 October, the next is the 26th.
    const r = rule('FREQ=DAILY');
    const a = anchor('2026-10-24', '02:30');
    expect(show(nextRRuleOccurrenceAfter(r, a, at('2026-10-25T00:30Z')), a.timeZone)).toBe('2026-10-26T02:30:00+01:00');
    expect(show(nextRRuleOccurrenceAfter(r, a, at('2026-10-25T01:15Z')), a.timeZone)).toBe('2026-10-26T02:30:00+01:00');
  });

  it('Australia/Lord_Howe (30-minute shift): 02:15 fires at 02:30 on 4 October; 01:45 once on 5 April', () => {
    const zone = 'Australia/Lord_Howe';
    expect(series('FREQ=DAILY', anchor('2026-10-03', '02:15', zone), 3)).toEqual(['2026-10-03T02:15:00+10:30', '2026-10-04T02:30:00+11:00', '2026-10-05T02:15:00+11:00']);
    expect(series('FREQ=DAILY', anchor('2026-04-04', '01:45', zone), 3)).toEqual(['2026-04-04T01:45:00+11:00', '2026-04-05T01:45:00+11:00', '2026-04-06T01:45:00+10:30']);
    expect(series('FREQ=MONTHLY;BYDAY=1SU', anchor('2026-09-01', '02:00', zone), 2)).toEqual(['2026-09-06T02:00:00+10:30', '2026-10-04T02:30:00+11:00']);
  });

  it('Pacific/Chatham (+12:45/+13:45): 03:00 fires at 03:45 on 27 September; once on 5 April', () => {
    const zone = 'Pacific/Chatham';
    expect(series('FREQ=WEEKLY;BYDAY=SU', anchor('2026-09-20', '03:00', zone), 3)).toEqual(['2026-09-20T03:00:00+12:45', '2026-09-27T03:45:00+13:45', '2026-10-04T03:00:00+13:45']);
    expect(series('FREQ=DAILY', anchor('2026-04-04', '03:00', zone), 3)).toEqual(['2026-04-04T03:00:00+13:45', '2026-04-05T03:00:00+13:45', '2026-04-06T03:00:00+12:45']);
  });

  it('America/Santiago (changes at midnight): 00:30 fires at 01:00 on 6 September; 23:30 once on 4 April', () => {
    const zone = 'America/Santiago';
    expect(series('FREQ=DAILY', anchor('2026-09-05', '00:30', zone), 3)).toEqual(['2026-09-05T00:30:00-04:00', '2026-09-06T01:00:00-03:00', '2026-09-07T00:30:00-03:00']);
    expect(series('FREQ=DAILY', anchor('2026-04-03', '23:30', zone), 3)).toEqual(['2026-04-03T23:30:00-03:00', '2026-04-04T23:30:00-03:00', '2026-04-05T23:30:00-04:00']);
    // An anchor in the gap itself fires at the gap end that day, then at the chosen time.
    expect(series('FREQ=MONTHLY;BYMONTHDAY=6,7', anchor('2026-09-06', '00:15', zone), 3)).toEqual(['2026-09-06T01:00:00-03:00', '2026-09-07T00:15:00-03:00', '2026-10-06T00:15:00-03:00']);
    // HOURLY is absolute: from 22:00 on 5 September, 2 steps of 1 hour are 23:00 and 01:00.
    expect(series('FREQ=HOURLY', anchor('2026-09-05', '22:00', zone), 3)).toEqual(['2026-09-05T22:00:00-04:00', '2026-09-05T23:00:00-04:00', '2026-09-06T01:00:00-03:00']);
    // ...and BYDAY=SA reads the local date: 23:00 (-04) on the 4th of April happens twice, both Saturday.
    expect(series('FREQ=HOURLY;BYDAY=SA', anchor('2026-04-04', '22:00', zone), 4)).toEqual([
      '2026-04-04T22:00:00-03:00',
      '2026-04-04T23:00:00-03:00',
      '2026-04-04T23:00:00-04:00',
      '2026-04-11T00:00:00-04:00',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('rules that never fire', () => {
  it.each([
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 'BYMONTHDAY'],
    ['FREQ=YEARLY;BYMONTH=4,6,9,11;BYMONTHDAY=31', 'BYMONTHDAY'],
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31', 'BYMONTHDAY'],
    ['FREQ=MONTHLY;INTERVAL=2;BYMONTH=2', 'BYMONTH'], // from January: Jan, Mar, May...
    ['FREQ=MONTHLY;BYMONTHDAY=1;BYDAY=-1MO', 'BYMONTHDAY'],
    ['FREQ=DAILY;INTERVAL=7;BYDAY=MO', 'BYDAY'], // from a Thursday: every 7 days is always a Thursday
    ['FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2', 'BYSETPOS'],
    ['FREQ=MONTHLY;BYMONTHDAY=1,-1;BYSETPOS=3', 'BYSETPOS'],
    ['FREQ=HOURLY;BYDAY=MO;BYSETPOS=2', 'BYSETPOS'],
    ['FREQ=DAILY;UNTIL=20251231', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=20260101T075959Z', 'UNTIL'],
  ])('%s from 2026-01-01 09:00 Paris: %s', (text, part) => {
    const r = rule(text);
    const a = anchor('2026-01-01', '09:00');
    expect(firesAtLeastOnce(r, a)).toBe(false);
    expect(firstRRuleOccurrence(r, a)).toBeNull();
    expect(rruleOccurrences(r, a, -Infinity, 5)).toEqual([]);
    const check = checkRRuleFires(r, a);
    expect(check).toMatchObject({ ok: false, part });
    if (!check.ok) expect(check.message).toMatch(/never fires|before the first/);
  });

  it('a rule that fires says its first occurrence; UNTIL at the anchor itself still fires', () => {
    const a = anchor('2026-01-01', '09:00');
    expect(checkRRuleFires(rule('FREQ=DAILY;UNTIL=20260101T080000Z'), a)).toEqual({ ok: true, first: at('2026-01-01T08:00Z') });
    expect(checkRRuleFires(rule('FREQ=DAILY;UNTIL=20260101'), a)).toEqual({ ok: true, first: at('2026-01-01T08:00Z') });
    expect(checkRRuleFires(rule('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'), a)).toEqual({ ok: true, first: at('2028-02-29T08:00Z') });
  });

  it('deciding that a rule never fires is quick even when it means looking up to 9999', () => {
    const a = anchor('2026-01-01', '09:00');
    const started = performance.now();
    for (const text of ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'FREQ=WEEKLY;BYDAY=MO;BYSETPOS=3', 'FREQ=MONTHLY;BYMONTH=4;BYMONTHDAY=31', 'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=31']) {
      expect(firesAtLeastOnce(rule(text), a), text).toBe(false);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});


describe('the largest rules the parser accepts', () => {
  it('a COUNT whose last step lies past 9999 does not end the series: the same occurrences as without COUNT', () => {
    for (const extra of [';BYDAY=MO,FR', ';BYMONTH=2', ';BYMONTHDAY=1,15']) {
      const counted = parseRRule(`FREQ=MINUTELY;INTERVAL=100000;COUNT=100000${extra}`);
      const endless = parseRRule(`FREQ=MINUTELY;INTERVAL=100000${extra}`);
      if (!counted.ok || !endless.ok) throw new Error(`refused: ${extra}`);
      for (const timeZone of ['Pacific/Kiritimati', 'Europe/Paris']) {
        const anchor = { date: '2030-07-01', time: '09:00', timeZone };
        expect(rruleOccurrences(counted.rule, anchor, Date.UTC(2500, 0, 1), 5), `${extra} ${timeZone}`).toEqual(rruleOccurrences(endless.rule, anchor, Date.UTC(2500, 0, 1), 5));
        expect(nextRRuleOccurrenceAfter(counted.rule, anchor, Date.UTC(9000, 0, 1)), `${extra} ${timeZone}`).toBe(nextRRuleOccurrenceAfter(endless.rule, anchor, Date.UTC(9000, 0, 1)));
      }
    }
    // A COUNT that the steps do reach before 9999 still ends the series there.
    const short = parseRRule('FREQ=MINUTELY;INTERVAL=100000;COUNT=3;BYDAY=MO,FR');
    if (!short.ok) throw new Error('refused');
    expect(rruleOccurrences(short.rule, { date: '2030-07-01', time: '09:00', timeZone: 'UTC' }, -Infinity, 10)).toHaveLength(3);
  });

  // Found by the API fuzz test: COUNT x INTERVAL of an HOURLY rule landed beyond what Date can
  // represent, and asking the zone about that instant threw (a 500 at create).
  it.each(['MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'])('FREQ=%s with INTERVAL and COUNT at their maximum never throws', (freq) => {
    for (const extra of ['', ';BYDAY=MO,FR', ';BYMONTH=2']) {
      const parsed = parseRRule(`FREQ=${freq};INTERVAL=100000;COUNT=100000${extra}`);
      if (!parsed.ok) continue;
      for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC', 'Europe/Paris']) {
        for (const date of ['1970-01-01', '2030-07-01', '9999-12-31']) {
          const anchor = { date, time: '09:00', timeZone };
          expect(() => checkRRuleFires(parsed.rule, anchor)).not.toThrow();
          expect(() => nextRRuleOccurrenceAfter(parsed.rule, anchor, Date.UTC(2031, 0, 1))).not.toThrow();
          expect(() => rruleOccurrences(parsed.rule, anchor, Date.UTC(2020, 0, 1), 5)).not.toThrow();
        }
      }
    }
  });
});
