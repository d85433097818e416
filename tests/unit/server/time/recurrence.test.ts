import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { RecurrenceType } from '../../../../server/db/database.ts';
import { anchorInstant, firstOccurrence, nextOccurrenceAfter, nextOccurrences, occurrencesBetween, type RecurrenceRule } from '../../../../server/time/series.ts';
import { wallClockToInstant, zonedParts } from '../../../../server/time/zoned.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Instant of an ISO string with an explicit offset, e.g. '2026-03-29T03:00+02:00'. */
const at = (iso: string) => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`bad test date ${iso}`);
  return t;
};

/** An instant shown as local time with its offset in a zone: '2026-03-29T03:00:00+02:00'. */
const show = (t: number | null, zone: string) =>
  t === null ? null : Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone).toString({ timeZoneName: 'never' });

/** A rule anchored on the wall clock the user chose: local date, local time, zone. */
const rule = (date: string, time: string, timeZone: string, recurrence: RecurrenceType): RecurrenceRule => ({ date, time, timeZone, recurrence });

/** The first n occurrences of the series (from just before the anchor), shown in the rule's zone. */
const series = (r: RecurrenceRule, n: number) => nextOccurrences(r, anchorInstant(r) - 1, n).map((t) => show(t, r.timeZone));

describe('ONCE', () => {
  const r = rule('2026-05-01', '09:00', 'Europe/Paris', 'ONCE');
  it('fires at the anchor only', () => {
    expect(anchorInstant(r)).toBe(at('2026-05-01T09:00+02:00'));
    expect(firstOccurrence(r)).toBe(anchorInstant(r));
    expect(nextOccurrenceAfter(r, anchorInstant(r) - 1)).toBe(anchorInstant(r));
    expect(nextOccurrenceAfter(r, 0)).toBe(anchorInstant(r));
    expect(nextOccurrenceAfter(r, anchorInstant(r))).toBeNull();
    expect(nextOccurrenceAfter(r, anchorInstant(r) + 1)).toBeNull();
    expect(nextOccurrences(r, 0, 10)).toEqual([anchorInstant(r)]);
  });
});

describe('DAILY', () => {
  it('keeps 09:00 Paris across both DST changes', () => {
    const r = rule('2026-03-27', '09:00', 'Europe/Paris', 'DAILY');
    expect(series(r, 4)).toEqual(['2026-03-27T09:00:00+01:00', '2026-03-28T09:00:00+01:00', '2026-03-29T09:00:00+02:00', '2026-03-30T09:00:00+02:00']);
    expect(nextOccurrences(r, at('2026-10-24T09:00+02:00'), 2).map((t) => show(t, 'Europe/Paris'))).toEqual([
      '2026-10-25T09:00:00+01:00',
      '2026-10-26T09:00:00+01:00',
    ]);
  });

  it('a 02:30 reminder fires at 03:00 on the Paris spring-forward day', () => {
    const r = rule('2026-03-27', '02:30', 'Europe/Paris', 'DAILY');
    expect(series(r, 4)).toEqual(['2026-03-27T02:30:00+01:00', '2026-03-28T02:30:00+01:00', '2026-03-29T03:00:00+02:00', '2026-03-30T02:30:00+02:00']);
    // 03:00+02:00 is the instant the gap ends (01:00Z), the same as wallClockToInstant's.
    expect(nextOccurrenceAfter(r, at('2026-03-28T12:00Z'))).toBe(at('2026-03-29T01:00Z'));
    expect(nextOccurrenceAfter(r, at('2026-03-28T12:00Z'))).toBe(wallClockToInstant({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Paris'));
  });

  it('a 02:30 reminder fires once on the Paris fall-back day (the earlier 02:30)', () => {
    const r = rule('2026-10-23', '02:30', 'Europe/Paris', 'DAILY');
    expect(series(r, 4)).toEqual(['2026-10-23T02:30:00+02:00', '2026-10-24T02:30:00+02:00', '2026-10-25T02:30:00+02:00', '2026-10-26T02:30:00+01:00']);
    // After the first 02:30 (00:30Z), and between the two 02:30s, the next is the 26th.
    expect(show(nextOccurrenceAfter(r, at('2026-10-25T00:30Z')), 'Europe/Paris')).toBe('2026-10-26T02:30:00+01:00');
    expect(show(nextOccurrenceAfter(r, at('2026-10-25T01:00Z')), 'Europe/Paris')).toBe('2026-10-26T02:30:00+01:00');
    expect(show(nextOccurrenceAfter(r, at('2026-10-25T01:30Z')), 'Europe/Paris')).toBe('2026-10-26T02:30:00+01:00');
  });

  it('an anchor chosen at a time that happens twice (fall-back night) is the earlier instant, and fires once', () => {
    // A wall-clock anchor cannot name the second 02:30: 2026-10-25 02:30 is the first (CEST) one.
    const r = rule('2026-10-25', '02:30', 'Europe/Paris', 'DAILY');
    expect(anchorInstant(r)).toBe(at('2026-10-25T02:30+02:00'));
    expect(nextOccurrenceAfter(r, at('2026-10-24T12:00Z'))).toBe(anchorInstant(r));
    expect(series(r, 2)).toEqual(['2026-10-25T02:30:00+02:00', '2026-10-26T02:30:00+01:00']);
    // The second 02:30 (+01:00) is not an occurrence.
    expect(show(nextOccurrenceAfter(r, anchorInstant(r)), 'Europe/Paris')).toBe('2026-10-26T02:30:00+01:00');
  });

  it('an anchor inside the gap fires at the gap end on its own day only, then at the chosen time', () => {
    // 2027-03-28 02:30 does not exist in Paris. Before the wall-clock model the series kept 03:00 every day.
    const r = rule('2027-03-28', '02:30', 'Europe/Paris', 'DAILY');
    expect(anchorInstant(r)).toBe(at('2027-03-28T01:00Z'));
    expect(firstOccurrence(r)).toBe(at('2027-03-28T01:00Z'));
    expect(series(r, 4)).toEqual(['2027-03-28T03:00:00+02:00', '2027-03-29T02:30:00+02:00', '2027-03-30T02:30:00+02:00', '2027-03-31T02:30:00+02:00']);
    expect(nextOccurrenceAfter(r, anchorInstant(r))).toBe(at('2027-03-29T00:30Z'));
    // And the next spring-forward day fires at the gap end again.
    expect(show(nextOccurrenceAfter(r, at('2028-03-25T12:00Z')), 'Europe/Paris')).toBe('2028-03-26T03:00:00+02:00');
    expect(show(nextOccurrenceAfter(r, at('2028-03-26T01:00Z')), 'Europe/Paris')).toBe('2028-03-27T02:30:00+02:00');
  });

  it('America/Santiago: the gap is at midnight; an anchor at 00:30 on that day fires at 01:00, then 00:30', () => {
    const r = rule('2026-09-06', '00:30', 'America/Santiago', 'DAILY');
    expect(series(r, 3)).toEqual(['2026-09-06T01:00:00-03:00', '2026-09-07T00:30:00-03:00', '2026-09-08T00:30:00-03:00']);
    // In April 23:00-23:59 happens twice (00:00 -03 -> 23:00 -04): once, at the earlier.
    const fall = rule('2026-04-03', '23:30', 'America/Santiago', 'DAILY');
    expect(series(fall, 3)).toEqual(['2026-04-03T23:30:00-03:00', '2026-04-04T23:30:00-03:00', '2026-04-05T23:30:00-04:00']);
  });

  it('New York: 02:30 on spring-forward fires 03:00 EDT, 01:30 on fall-back fires once (EDT)', () => {
    const spring = rule('2026-03-07', '02:30', 'America/New_York', 'DAILY');
    expect(series(spring, 3)).toEqual(['2026-03-07T02:30:00-05:00', '2026-03-08T03:00:00-04:00', '2026-03-09T02:30:00-04:00']);
    const fall = rule('2026-10-31', '01:30', 'America/New_York', 'DAILY');
    expect(series(fall, 3)).toEqual(['2026-10-31T01:30:00-04:00', '2026-11-01T01:30:00-04:00', '2026-11-02T01:30:00-05:00']);
  });

  it('Sao Paulo 2018: midnight spring-forward, 00:30 fires at 01:00', () => {
    const r = rule('2018-11-03', '00:30', 'America/Sao_Paulo', 'DAILY');
    expect(series(r, 3)).toEqual(['2018-11-03T00:30:00-03:00', '2018-11-04T01:00:00-02:00', '2018-11-05T00:30:00-02:00']);
  });

  it('does not drift over a decade and jumps straight there', () => {
    const r = rule('2020-01-15', '07:45', 'Europe/Paris', 'DAILY');
    expect(show(nextOccurrenceAfter(r, at('2031-07-04T12:00Z')), 'Europe/Paris')).toBe('2031-07-05T07:45:00+02:00');
    expect(show(nextOccurrenceAfter(r, at('2031-07-04T05:44:59.999Z')), 'Europe/Paris')).toBe('2031-07-04T07:45:00+02:00');
    expect(show(nextOccurrenceAfter(r, at('2031-07-04T05:45Z')), 'Europe/Paris')).toBe('2031-07-05T07:45:00+02:00');
  });

  it('keeps the seconds of the anchor (HH:MM:SS), except on a gap day where it is the gap end itself', () => {
    const r = rule('2026-01-01', '08:00:07', 'UTC', 'DAILY');
    expect(anchorInstant(r)).toBe(at('2026-01-01T08:00:07Z'));
    expect(nextOccurrenceAfter(r, anchorInstant(r))).toBe(anchorInstant(r) + DAY);
    const gap = rule('2027-03-27', '02:30:07', 'Europe/Paris', 'DAILY');
    expect(series(gap, 3)).toEqual(['2027-03-27T02:30:07+01:00', '2027-03-28T03:00:00+02:00', '2027-03-29T02:30:07+02:00']);
  });
});

describe('WEEKLY', () => {
  it("fires on the anchor's weekday, at its wall-clock time across DST", () => {
    const r = rule('2026-03-01', '09:00', 'America/New_York', 'WEEKLY'); // a Sunday
    expect(series(r, 3)).toEqual(['2026-03-01T09:00:00-05:00', '2026-03-08T09:00:00-04:00', '2026-03-15T09:00:00-04:00']);
    expect(show(nextOccurrenceAfter(r, at('2029-06-13T00:00Z')), 'America/New_York')).toBe('2029-06-17T09:00:00-04:00');
  });

  it("uses the local weekday, not the UTC one (Chatham is a day ahead of UTC)", () => {
    const r = rule('2026-06-01', '08:00', 'Pacific/Chatham', 'WEEKLY'); // Monday local, Sunday UTC
    for (const t of nextOccurrences(r, anchorInstant(r) - 1, 10)) expect(zonedParts(t, 'Pacific/Chatham').weekday).toBe(1);
  });
});

describe('WORKDAYS and WEEKEND', () => {
  it('WORKDAYS skips the weekend', () => {
    const r = rule('2026-01-08', '08:00', 'Europe/Paris', 'WORKDAYS'); // Thursday
    expect(series(r, 4)).toEqual(['2026-01-08T08:00:00+01:00', '2026-01-09T08:00:00+01:00', '2026-01-12T08:00:00+01:00', '2026-01-13T08:00:00+01:00']);
    expect(show(nextOccurrenceAfter(r, at('2026-01-09T07:00Z')), 'Europe/Paris')).toBe('2026-01-12T08:00:00+01:00');
  });

  it('WORKDAYS anchored on a Saturday: the anchor is not an occurrence, Monday is the first', () => {
    const r = rule('2026-01-10', '08:00', 'Europe/Paris', 'WORKDAYS');
    expect(anchorInstant(r)).toBe(at('2026-01-10T08:00+01:00'));
    expect(firstOccurrence(r)).toBe(at('2026-01-12T08:00+01:00'));
    expect(nextOccurrenceAfter(r, 0)).toBe(at('2026-01-12T08:00+01:00'));
    expect(series(r, 2)).toEqual(['2026-01-12T08:00:00+01:00', '2026-01-13T08:00:00+01:00']);
  });

  it('WEEKEND fires Saturday and Sunday; a Wednesday anchor is not an occurrence', () => {
    const r = rule('2026-01-07', '10:00', 'Europe/Paris', 'WEEKEND');
    expect(firstOccurrence(r)).toBe(at('2026-01-10T10:00+01:00'));
    expect(series(r, 4)).toEqual(['2026-01-10T10:00:00+01:00', '2026-01-11T10:00:00+01:00', '2026-01-17T10:00:00+01:00', '2026-01-18T10:00:00+01:00']);
    const sunday = rule('2026-01-11', '10:00', 'Europe/Paris', 'WEEKEND');
    expect(series(sunday, 2)).toEqual(['2026-01-11T10:00:00+01:00', '2026-01-17T10:00:00+01:00']);
  });

  it('WORKDAYS in Chatham uses local weekdays', () => {
    const r = rule('2026-06-01', '08:00', 'Pacific/Chatham', 'WORKDAYS');
    const days = nextOccurrences(r, anchorInstant(r) - 1, 10).map((t) => zonedParts(t, 'Pacific/Chatham').weekday);
    expect(days).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 4, 5]);
  });
});

describe('MONTHLY', () => {
  it('Jan 31 fires on the last day of shorter months and goes back to the 31st', () => {
    const r = rule('2026-01-31', '10:00', 'Europe/Paris', 'MONTHLY');
    expect(series(r, 5)).toEqual([
      '2026-01-31T10:00:00+01:00',
      '2026-02-28T10:00:00+01:00',
      '2026-03-31T10:00:00+02:00',
      '2026-04-30T10:00:00+02:00',
      '2026-05-31T10:00:00+02:00',
    ]);
    expect(show(nextOccurrenceAfter(r, at('2028-02-01T00:00Z')), 'Europe/Paris')).toBe('2028-02-29T10:00:00+01:00');
    expect(show(nextOccurrenceAfter(r, at('2028-02-29T09:00:00Z')), 'Europe/Paris')).toBe('2028-03-31T10:00:00+02:00');
  });

  it('a monthly 02:30 anchored in the Paris gap returns to 02:30 the next month', () => {
    const r = rule('2026-03-29', '02:30', 'Europe/Paris', 'MONTHLY');
    expect(series(r, 3)).toEqual(['2026-03-29T03:00:00+02:00', '2026-04-29T02:30:00+02:00', '2026-05-29T02:30:00+02:00']);
  });

  it('the 30th: Feb gets its last day, then back to the 30th', () => {
    const r = rule('2026-01-30', '10:00', 'Europe/Paris', 'MONTHLY');
    expect(series(r, 3)).toEqual(['2026-01-30T10:00:00+01:00', '2026-02-28T10:00:00+01:00', '2026-03-30T10:00:00+02:00']);
  });

  it('Kathmandu (+05:45) monthly', () => {
    const r = rule('2026-01-15', '09:00', 'Asia/Kathmandu', 'MONTHLY');
    expect(series(r, 3)).toEqual(['2026-01-15T09:00:00+05:45', '2026-02-15T09:00:00+05:45', '2026-03-15T09:00:00+05:45']);
    expect(nextOccurrenceAfter(r, anchorInstant(r))).toBe(at('2026-02-15T03:15Z'));
  });
});

describe('YEARLY', () => {
  it('Feb 29 fires Feb 28 in non-leap years and Feb 29 in leap years', () => {
    const r = rule('2028-02-29', '08:00', 'Europe/Paris', 'YEARLY');
    expect(series(r, 6)).toEqual([
      '2028-02-29T08:00:00+01:00',
      '2029-02-28T08:00:00+01:00',
      '2030-02-28T08:00:00+01:00',
      '2031-02-28T08:00:00+01:00',
      '2032-02-29T08:00:00+01:00',
      '2033-02-28T08:00:00+01:00',
    ]);
  });

  it('a yearly 02:30 landing on a spring-forward day fires when the gap ends', () => {
    const r = rule('2025-03-29', '02:30', 'Europe/Paris', 'YEARLY');
    expect(series(r, 3)).toEqual(['2025-03-29T02:30:00+01:00', '2026-03-29T03:00:00+02:00', '2027-03-29T02:30:00+02:00']);
  });

  it('a yearly 02:30 anchored on a spring-forward day fires at the gap end that year only', () => {
    // Before the wall-clock model the anchor's instant (03:00) set the time of every later year.
    const r = rule('2026-03-29', '02:30', 'Europe/Paris', 'YEARLY');
    expect(series(r, 3)).toEqual(['2026-03-29T03:00:00+02:00', '2027-03-29T02:30:00+02:00', '2028-03-29T02:30:00+02:00']);
  });
});

describe('HOURLY', () => {
  it('counts absolute hours across the Paris spring-forward', () => {
    const r = rule('2026-03-29', '00:30', 'Europe/Paris', 'HOURLY');
    expect(series(r, 4)).toEqual(['2026-03-29T00:30:00+01:00', '2026-03-29T01:30:00+01:00', '2026-03-29T03:30:00+02:00', '2026-03-29T04:30:00+02:00']);
  });

  it('counts absolute hours across the Paris fall-back (02:30 twice)', () => {
    const r = rule('2026-10-25', '01:30', 'Europe/Paris', 'HOURLY');
    expect(series(r, 4)).toEqual(['2026-10-25T01:30:00+02:00', '2026-10-25T02:30:00+02:00', '2026-10-25T02:30:00+01:00', '2026-10-25T03:30:00+01:00']);
  });

  it('anchored inside a gap, counts from the gap end', () => {
    const r = rule('2027-03-28', '02:30', 'Europe/Paris', 'HOURLY');
    expect(series(r, 3)).toEqual(['2027-03-28T03:00:00+02:00', '2027-03-28T04:00:00+02:00', '2027-03-28T05:00:00+02:00']);
  });

  it('is anchor + k hours for any gap', () => {
    const r = rule('2021-03-31', '20:17', 'America/New_York', 'HOURLY');
    expect(anchorInstant(r)).toBe(at('2021-04-01T00:17:00Z'));
    const after = anchorInstant(r) + 87_654 * HOUR + 1;
    expect(nextOccurrenceAfter(r, after)).toBe(anchorInstant(r) + 87_655 * HOUR);
    expect(nextOccurrenceAfter(r, after - 1)).toBe(anchorInstant(r) + 87_655 * HOUR);
    expect(nextOccurrenceAfter(r, anchorInstant(r))).toBe(anchorInstant(r) + HOUR);
    expect(nextOccurrenceAfter(r, anchorInstant(r) - 5 * HOUR)).toBe(anchorInstant(r));
  });
});

describe('zones with unusual offsets', () => {
  it('Australia/Lord_Howe: 30-minute DST (02:00 -> 02:30 in October, 02:00 -> 01:30 in April)', () => {
    const spring = rule('2026-10-02', '02:15', 'Australia/Lord_Howe', 'DAILY');
    expect(series(spring, 4)).toEqual(['2026-10-02T02:15:00+10:30', '2026-10-03T02:15:00+10:30', '2026-10-04T02:30:00+11:00', '2026-10-05T02:15:00+11:00']);
    const fall = rule('2026-04-03', '01:45', 'Australia/Lord_Howe', 'DAILY');
    expect(series(fall, 4)).toEqual(['2026-04-03T01:45:00+11:00', '2026-04-04T01:45:00+11:00', '2026-04-05T01:45:00+11:00', '2026-04-06T01:45:00+10:30']);
  });

  it('Australia/Lord_Howe: 02:15 anchored on the gap day fires 02:30 that day, then 02:15', () => {
    const r = rule('2026-10-04', '02:15', 'Australia/Lord_Howe', 'DAILY');
    expect(anchorInstant(r)).toBe(at('2026-10-03T15:30Z'));
    expect(series(r, 3)).toEqual(['2026-10-04T02:30:00+11:00', '2026-10-05T02:15:00+11:00', '2026-10-06T02:15:00+11:00']);
    // 01:45 on the April fall-back day happens twice, 30 minutes apart: the earlier (+11:00).
    const fall = rule('2026-04-05', '01:45', 'Australia/Lord_Howe', 'DAILY');
    expect(series(fall, 2)).toEqual(['2026-04-05T01:45:00+11:00', '2026-04-06T01:45:00+10:30']);
  });

  it('America/St_Johns (-03:30 / -02:30)', () => {
    const r = rule('2026-03-07', '02:30', 'America/St_Johns', 'DAILY');
    expect(series(r, 3)).toEqual(['2026-03-07T02:30:00-03:30', '2026-03-08T03:00:00-02:30', '2026-03-09T02:30:00-02:30']);
    const fall = rule('2026-10-31', '01:30', 'America/St_Johns', 'DAILY');
    expect(series(fall, 3)).toEqual(['2026-10-31T01:30:00-02:30', '2026-11-01T01:30:00-02:30', '2026-11-02T01:30:00-03:30']);
  });

  it('Antarctica/Troll: a 2-hour gap (01:00 -> 03:00) and a 2-hour overlap', () => {
    const r = rule('2027-03-28', '02:00', 'Antarctica/Troll', 'DAILY');
    expect(series(r, 2)).toEqual(['2027-03-28T03:00:00+02:00', '2027-03-29T02:00:00+02:00']);
    const fall = rule('2027-10-31', '01:30', 'Antarctica/Troll', 'DAILY');
    expect(series(fall, 2)).toEqual(['2027-10-31T01:30:00+02:00', '2027-11-01T01:30:00+00:00']);
  });

  it('Europe/Dublin (negative DST in the data): 01:30 on the spring gap fires at 02:00 IST', () => {
    const r = rule('2027-03-28', '01:30', 'Europe/Dublin', 'DAILY');
    expect(series(r, 2)).toEqual(['2027-03-28T02:00:00+01:00', '2027-03-29T01:30:00+01:00']);
    const fall = rule('2027-10-31', '01:30', 'Europe/Dublin', 'DAILY');
    expect(series(fall, 2)).toEqual(['2027-10-31T01:30:00+01:00', '2027-11-01T01:30:00+00:00']);
  });

  it('Asia/Kathmandu (+05:45) daily', () => {
    const r = rule('2026-01-01', '00:10', 'Asia/Kathmandu', 'DAILY');
    expect(nextOccurrenceAfter(r, anchorInstant(r))).toBe(at('2026-01-01T18:25Z'));
  });

  it('Pacific/Chatham (+12:45 / +13:45): 03:00 on the September gap fires at 03:45', () => {
    const r = rule('2026-09-25', '03:00', 'Pacific/Chatham', 'DAILY');
    expect(series(r, 4)).toEqual(['2026-09-25T03:00:00+12:45', '2026-09-26T03:00:00+12:45', '2026-09-27T03:45:00+13:45', '2026-09-28T03:00:00+13:45']);
    const onGapDay = rule('2026-09-27', '03:00', 'Pacific/Chatham', 'DAILY');
    expect(series(onGapDay, 3)).toEqual(['2026-09-27T03:45:00+13:45', '2026-09-28T03:00:00+13:45', '2026-09-29T03:00:00+13:45']);
    const fall = rule('2026-04-04', '03:00', 'Pacific/Chatham', 'DAILY');
    expect(series(fall, 3)).toEqual(['2026-04-04T03:00:00+13:45', '2026-04-05T03:00:00+13:45', '2026-04-06T03:00:00+12:45']);
  });
});

describe('year 9999 and inputs', () => {
  it('returns null past 9999-12-31', () => {
    const daily = rule('2026-01-01', '09:00', 'UTC', 'DAILY');
    expect(nextOccurrenceAfter(daily, at('9999-12-30T09:00Z'))).toBe(at('9999-12-31T09:00Z'));
    expect(nextOccurrenceAfter(daily, at('9999-12-31T09:00Z'))).toBeNull();
    expect(nextOccurrenceAfter(daily, Number.POSITIVE_INFINITY)).toBeNull();
    const yearly = rule('2026-06-01', '09:00', 'Europe/Paris', 'YEARLY');
    expect(show(nextOccurrenceAfter(yearly, at('9998-12-01T00:00Z')), 'Europe/Paris')).toBe('9999-06-01T09:00:00+02:00');
    expect(nextOccurrenceAfter(yearly, at('9999-07-01T00:00Z'))).toBeNull();
    const monthly = rule('2026-01-31', '09:00', 'UTC', 'MONTHLY');
    expect(nextOccurrences(monthly, at('9999-10-01T00:00Z'), 10)).toEqual([at('9999-10-31T09:00Z'), at('9999-11-30T09:00Z'), at('9999-12-31T09:00Z')]);
    const hourly = rule('2026-01-01', '09:00', 'Asia/Tokyo', 'HOURLY');
    expect(nextOccurrenceAfter(hourly, at('9999-12-31T14:00+09:00'))).toBe(at('9999-12-31T15:00+09:00'));
    expect(nextOccurrenceAfter(hourly, at('9999-12-31T23:00+09:00'))).toBeNull();
  });

  it('an after long before the anchor gives the first occurrence', () => {
    const r = rule('2026-01-01', '09:00', 'UTC', 'DAILY');
    expect(nextOccurrenceAfter(r, Number.NEGATIVE_INFINITY)).toBe(anchorInstant(r));
    expect(nextOccurrenceAfter(r, -1e15)).toBe(anchorInstant(r));
  });

  it('rejects a bad zone, recurrence, anchor date or time, or NaN', () => {
    expect(() => nextOccurrenceAfter(rule('2026-01-01', '09:00', 'Mars/Olympus', 'DAILY'), 0)).toThrow(RangeError);
    expect(() => nextOccurrenceAfter(rule('2026-01-01', '09:00', '+05:00', 'DAILY'), 0)).toThrow(RangeError);
    expect(() => nextOccurrenceAfter(rule('2026-01-01', '09:00', 'UTC', 'FORTNIGHTLY' as RecurrenceType), 0)).toThrow(RangeError);
    for (const date of ['2026-02-30', '2027-02-29', '2026-13-01', '2026-00-10', '2026-1-01', '', '2026-01-01T09:00']) {
      expect(() => nextOccurrenceAfter(rule(date, '09:00', 'UTC', 'DAILY'), 0), date).toThrow(RangeError);
    }
    for (const time of ['24:00', '9:00', '09:60', '09:00:60', '09:00:00.5', '', '09']) {
      expect(() => nextOccurrenceAfter(rule('2026-01-01', time, 'UTC', 'DAILY'), 0), time).toThrow(RangeError);
    }
    expect(() => anchorInstant({ date: 20260101, time: '09:00', timeZone: 'UTC', recurrence: 'DAILY' } as unknown as RecurrenceRule)).toThrow(RangeError);
    expect(() => nextOccurrenceAfter(rule('2026-01-01', '09:00', 'UTC', 'DAILY'), Number.NaN)).toThrow(RangeError);
    expect(() => occurrencesBetween(rule('2026-01-01', '09:00', 'UTC', 'DAILY'), Number.NaN, 0)).toThrow(RangeError);
  });

  it('accepts Feb 29 of a leap year and 23:59:59', () => {
    expect(anchorInstant(rule('2028-02-29', '23:59:59', 'UTC', 'ONCE'))).toBe(at('2028-02-29T23:59:59Z'));
  });

  it('reads legacy and lower-case zone ids as the zone they name', () => {
    const modern = rule('2026-06-01', '09:00', 'Asia/Kolkata', 'DAILY');
    for (const zone of ['Asia/Calcutta', 'asia/kolkata', 'ASIA/CALCUTTA']) {
      const r = rule('2026-06-01', '09:00', zone, 'DAILY');
      expect(anchorInstant(r), zone).toBe(at('2026-06-01T09:00+05:30'));
      expect(nextOccurrences(r, 0, 5), zone).toEqual(nextOccurrences(modern, 0, 5));
    }
    expect(anchorInstant(rule('2027-03-14', '02:30', 'US/Eastern', 'ONCE'))).toBe(at('2027-03-14T03:00-04:00'));
  });
});

describe('nextOccurrences and occurrencesBetween', () => {
  const r = rule('2026-01-01', '09:00', 'Europe/Paris', 'DAILY');

  it('caps count at 100 and handles 0', () => {
    expect(nextOccurrences(r, 0, 500)).toHaveLength(100);
    expect(nextOccurrences(r, 0, 0)).toEqual([]);
    expect(nextOccurrences(r, 0, -3)).toEqual([]);
  });

  it('chains nextOccurrenceAfter', () => {
    const list = nextOccurrences(r, at('2026-03-20T00:00Z'), 30);
    for (let i = 1; i < list.length; i++) expect(nextOccurrenceAfter(r, list[i - 1]!)).toBe(list[i]);
  });

  it('is [from, to) and honours limit', () => {
    const from = at('2026-01-05T09:00+01:00');
    const to = at('2026-01-10T09:00+01:00');
    expect(occurrencesBetween(r, from, to).map((t) => show(t, 'Europe/Paris'))).toEqual([
      '2026-01-05T09:00:00+01:00',
      '2026-01-06T09:00:00+01:00',
      '2026-01-07T09:00:00+01:00',
      '2026-01-08T09:00:00+01:00',
      '2026-01-09T09:00:00+01:00',
    ]);
    expect(occurrencesBetween(r, from, to, 2)).toHaveLength(2);
    expect(occurrencesBetween(r, at('2025-01-01T00:00Z'), at('2030-01-01T00:00Z'))).toHaveLength(1000);
    expect(occurrencesBetween(r, to, from)).toEqual([]);
    const hourly = rule('2026-01-01', '00:00', 'UTC', 'HOURLY');
    expect(occurrencesBetween(hourly, at('2026-02-01T00:00Z'), at('2026-02-02T00:00Z'))).toHaveLength(24);
  });
});

describe('zoned.ts fixes', () => {
  it('wallClockToInstant treats second: undefined as 0', () => {
    expect(wallClockToInstant({ year: 2026, month: 1, day: 1, hour: 9, minute: 0, second: undefined }, 'UTC')).toBe(at('2026-01-01T09:00Z'));
  });

  it('zonedParts is right for years below 100', () => {
    const t = Date.UTC(2026, 0, 1) - 1930 * 365.2425 * DAY; // late in year 95
    const p = zonedParts(t, 'UTC');
    const d = new Date(t);
    expect([p.year, p.month, p.day, p.weekday]).toEqual([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCDay()]);
  });
});
