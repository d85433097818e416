import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { RecurrenceType } from '../server/db/database.ts';
import { nextOccurrenceAfter, nextOccurrences, occurrencesBetween, type RecurrenceRule } from '../server/time/recurrence.ts';
import { wallClockToInstant, zonedParts } from '../server/time/zoned.ts';

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

const rule = (anchorIso: string, timeZone: string, recurrence: RecurrenceType): RecurrenceRule => ({ anchorMs: at(anchorIso), timeZone, recurrence });

/** The anchor and the next n-1 occurrences, shown in the rule's zone. */
const series = (r: RecurrenceRule, n: number) => nextOccurrences(r, r.anchorMs - 1, n).map((t) => show(t, r.timeZone));

describe('ONCE', () => {
  const r = rule('2026-05-01T09:00+02:00', 'Europe/Paris', 'ONCE');
  it('fires at the anchor only', () => {
    expect(nextOccurrenceAfter(r, r.anchorMs - 1)).toBe(r.anchorMs);
    expect(nextOccurrenceAfter(r, 0)).toBe(r.anchorMs);
    expect(nextOccurrenceAfter(r, r.anchorMs)).toBeNull();
    expect(nextOccurrenceAfter(r, r.anchorMs + 1)).toBeNull();
    expect(nextOccurrences(r, 0, 10)).toEqual([r.anchorMs]);
  });
});

describe('DAILY', () => {
  it('keeps 09:00 Paris across both DST changes', () => {
    const r = rule('2026-03-27T09:00+01:00', 'Europe/Paris', 'DAILY');
    expect(series(r, 4)).toEqual(['2026-03-27T09:00:00+01:00', '2026-03-28T09:00:00+01:00', '2026-03-29T09:00:00+02:00', '2026-03-30T09:00:00+02:00']);
    expect(nextOccurrences(r, at('2026-10-24T09:00+02:00'), 2).map((t) => show(t, 'Europe/Paris'))).toEqual([
      '2026-10-25T09:00:00+01:00',
      '2026-10-26T09:00:00+01:00',
    ]);
  });

  it('a 02:30 reminder fires at 03:00 on the Paris spring-forward day', () => {
    const r = rule('2026-03-27T02:30+01:00', 'Europe/Paris', 'DAILY');
    expect(series(r, 4)).toEqual(['2026-03-27T02:30:00+01:00', '2026-03-28T02:30:00+01:00', '2026-03-29T03:00:00+02:00', '2026-03-30T02:30:00+02:00']);
    // 03:00+02:00 is the instant the gap ends (01:00Z), the same as wallClockToInstant's.
    expect(nextOccurrenceAfter(r, at('2026-03-28T12:00Z'))).toBe(at('2026-03-29T01:00Z'));
    expect(nextOccurrenceAfter(r, at('2026-03-28T12:00Z'))).toBe(wallClockToInstant({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Paris'));
  });

  it('a 02:30 reminder fires once on the Paris fall-back day (the earlier 02:30)', () => {
    const r = rule('2026-10-23T02:30+02:00', 'Europe/Paris', 'DAILY');
    expect(series(r, 4)).toEqual(['2026-10-23T02:30:00+02:00', '2026-10-24T02:30:00+02:00', '2026-10-25T02:30:00+02:00', '2026-10-26T02:30:00+01:00']);
    // After the first 02:30 (00:30Z), and between the two 02:30s, the next is the 26th.
    expect(show(nextOccurrenceAfter(r, at('2026-10-25T00:30Z')), 'Europe/Paris')).toBe('2026-10-26T02:30:00+01:00');
    expect(show(nextOccurrenceAfter(r, at('2026-10-25T01:00Z')), 'Europe/Paris')).toBe('2026-10-26T02:30:00+01:00');
    expect(show(nextOccurrenceAfter(r, at('2026-10-25T01:30Z')), 'Europe/Paris')).toBe('2026-10-26T02:30:00+01:00');
  });

  it('an anchor that is the second 02:30 of a fall-back night is occurrence #0; nothing comes before it', () => {
    const r = rule('2026-10-25T02:30+01:00', 'Europe/Paris', 'DAILY');
    expect(nextOccurrenceAfter(r, at('2026-10-24T12:00Z'))).toBe(r.anchorMs); // not the earlier 02:30+02:00
    expect(series(r, 2)).toEqual(['2026-10-25T02:30:00+01:00', '2026-10-26T02:30:00+01:00']);
  });

  it('New York: 02:30 on spring-forward fires 03:00 EDT, 01:30 on fall-back fires once (EDT)', () => {
    const spring = rule('2026-03-07T02:30-05:00', 'America/New_York', 'DAILY');
    expect(series(spring, 3)).toEqual(['2026-03-07T02:30:00-05:00', '2026-03-08T03:00:00-04:00', '2026-03-09T02:30:00-04:00']);
    const fall = rule('2026-10-31T01:30-04:00', 'America/New_York', 'DAILY');
    expect(series(fall, 3)).toEqual(['2026-10-31T01:30:00-04:00', '2026-11-01T01:30:00-04:00', '2026-11-02T01:30:00-05:00']);
  });

  it('Sao Paulo 2018: midnight spring-forward, 00:30 fires at 01:00', () => {
    const r = rule('2018-11-03T00:30-03:00', 'America/Sao_Paulo', 'DAILY');
    expect(series(r, 3)).toEqual(['2018-11-03T00:30:00-03:00', '2018-11-04T01:00:00-02:00', '2018-11-05T00:30:00-02:00']);
  });

  it('does not drift over a decade and jumps straight there', () => {
    const r = rule('2020-01-15T07:45+01:00', 'Europe/Paris', 'DAILY');
    expect(show(nextOccurrenceAfter(r, at('2031-07-04T12:00Z')), 'Europe/Paris')).toBe('2031-07-05T07:45:00+02:00');
    expect(show(nextOccurrenceAfter(r, at('2031-07-04T05:44:59.999Z')), 'Europe/Paris')).toBe('2031-07-04T07:45:00+02:00');
    expect(show(nextOccurrenceAfter(r, at('2031-07-04T05:45Z')), 'Europe/Paris')).toBe('2031-07-05T07:45:00+02:00');
  });

  it('keeps the seconds and milliseconds of the anchor', () => {
    const r = rule('2026-01-01T08:00:07.250Z', 'UTC', 'DAILY');
    expect(nextOccurrenceAfter(r, r.anchorMs)).toBe(r.anchorMs + DAY);
  });
});

describe('WEEKLY', () => {
  it("fires on the anchor's weekday, at its wall-clock time across DST", () => {
    const r = rule('2026-03-01T09:00-05:00', 'America/New_York', 'WEEKLY'); // a Sunday
    expect(series(r, 3)).toEqual(['2026-03-01T09:00:00-05:00', '2026-03-08T09:00:00-04:00', '2026-03-15T09:00:00-04:00']);
    expect(show(nextOccurrenceAfter(r, at('2029-06-13T00:00Z')), 'America/New_York')).toBe('2029-06-17T09:00:00-04:00');
  });

  it("uses the local weekday, not the UTC one (Chatham is a day ahead of UTC)", () => {
    const r = rule('2026-06-01T08:00+12:45', 'Pacific/Chatham', 'WEEKLY'); // Monday local, Sunday UTC
    for (const t of nextOccurrences(r, r.anchorMs - 1, 10)) expect(zonedParts(t, 'Pacific/Chatham').weekday).toBe(1);
  });
});

describe('WORKDAYS and WEEKEND', () => {
  it('WORKDAYS skips the weekend', () => {
    const r = rule('2026-01-08T08:00+01:00', 'Europe/Paris', 'WORKDAYS'); // Thursday
    expect(series(r, 4)).toEqual(['2026-01-08T08:00:00+01:00', '2026-01-09T08:00:00+01:00', '2026-01-12T08:00:00+01:00', '2026-01-13T08:00:00+01:00']);
    expect(show(nextOccurrenceAfter(r, at('2026-01-09T07:00Z')), 'Europe/Paris')).toBe('2026-01-12T08:00:00+01:00');
  });

  it('WORKDAYS anchored on a Saturday: the anchor is not an occurrence, Monday is the first', () => {
    const r = rule('2026-01-10T08:00+01:00', 'Europe/Paris', 'WORKDAYS');
    expect(nextOccurrenceAfter(r, 0)).toBe(at('2026-01-12T08:00+01:00'));
    expect(series(r, 2)).toEqual(['2026-01-12T08:00:00+01:00', '2026-01-13T08:00:00+01:00']);
  });

  it('WEEKEND fires Saturday and Sunday; a Wednesday anchor is not an occurrence', () => {
    const r = rule('2026-01-07T10:00+01:00', 'Europe/Paris', 'WEEKEND');
    expect(series(r, 4)).toEqual(['2026-01-10T10:00:00+01:00', '2026-01-11T10:00:00+01:00', '2026-01-17T10:00:00+01:00', '2026-01-18T10:00:00+01:00']);
    const sunday = rule('2026-01-11T10:00+01:00', 'Europe/Paris', 'WEEKEND');
    expect(series(sunday, 2)).toEqual(['2026-01-11T10:00:00+01:00', '2026-01-17T10:00:00+01:00']);
  });

  it('WORKDAYS in Chatham uses local weekdays', () => {
    const r = rule('2026-06-01T08:00+12:45', 'Pacific/Chatham', 'WORKDAYS');
    const days = nextOccurrences(r, r.anchorMs - 1, 10).map((t) => zonedParts(t, 'Pacific/Chatham').weekday);
    expect(days).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 4, 5]);
  });
});

describe('MONTHLY', () => {
  it('Jan 31 fires on the last day of shorter months and goes back to the 31st', () => {
    const r = rule('2026-01-31T10:00+01:00', 'Europe/Paris', 'MONTHLY');
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

  it('the 30th: Feb gets its last day, then back to the 30th', () => {
    const r = rule('2026-01-30T10:00+01:00', 'Europe/Paris', 'MONTHLY');
    expect(series(r, 3)).toEqual(['2026-01-30T10:00:00+01:00', '2026-02-28T10:00:00+01:00', '2026-03-30T10:00:00+02:00']);
  });

  it('Kathmandu (+05:45) monthly', () => {
    const r = rule('2026-01-15T09:00+05:45', 'Asia/Kathmandu', 'MONTHLY');
    expect(series(r, 3)).toEqual(['2026-01-15T09:00:00+05:45', '2026-02-15T09:00:00+05:45', '2026-03-15T09:00:00+05:45']);
    expect(nextOccurrenceAfter(r, r.anchorMs)).toBe(at('2026-02-15T03:15Z'));
  });
});

describe('YEARLY', () => {
  it('Feb 29 fires Feb 28 in non-leap years and Feb 29 in leap years', () => {
    const r = rule('2028-02-29T08:00+01:00', 'Europe/Paris', 'YEARLY');
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
    const r = rule('2025-03-29T02:30+01:00', 'Europe/Paris', 'YEARLY');
    expect(series(r, 3)).toEqual(['2025-03-29T02:30:00+01:00', '2026-03-29T03:00:00+02:00', '2027-03-29T02:30:00+02:00']);
  });
});

describe('HOURLY', () => {
  it('counts absolute hours across the Paris spring-forward', () => {
    const r = rule('2026-03-29T00:30+01:00', 'Europe/Paris', 'HOURLY');
    expect(series(r, 4)).toEqual(['2026-03-29T00:30:00+01:00', '2026-03-29T01:30:00+01:00', '2026-03-29T03:30:00+02:00', '2026-03-29T04:30:00+02:00']);
  });

  it('counts absolute hours across the Paris fall-back (02:30 twice)', () => {
    const r = rule('2026-10-25T01:30+02:00', 'Europe/Paris', 'HOURLY');
    expect(series(r, 4)).toEqual(['2026-10-25T01:30:00+02:00', '2026-10-25T02:30:00+02:00', '2026-10-25T02:30:00+01:00', '2026-10-25T03:30:00+01:00']);
  });

  it('is anchor + k hours for any gap', () => {
    const r = rule('2021-04-01T00:17:00Z', 'America/New_York', 'HOURLY');
    const after = r.anchorMs + 87_654 * HOUR + 1;
    expect(nextOccurrenceAfter(r, after)).toBe(r.anchorMs + 87_655 * HOUR);
    expect(nextOccurrenceAfter(r, after - 1)).toBe(r.anchorMs + 87_655 * HOUR);
    expect(nextOccurrenceAfter(r, r.anchorMs)).toBe(r.anchorMs + HOUR);
    expect(nextOccurrenceAfter(r, r.anchorMs - 5 * HOUR)).toBe(r.anchorMs);
  });
});

describe('zones with unusual offsets', () => {
  it('Australia/Lord_Howe: 30-minute DST (02:00 -> 02:30 in October, 02:00 -> 01:30 in April)', () => {
    const spring = rule('2026-10-02T02:15+10:30', 'Australia/Lord_Howe', 'DAILY');
    expect(series(spring, 4)).toEqual(['2026-10-02T02:15:00+10:30', '2026-10-03T02:15:00+10:30', '2026-10-04T02:30:00+11:00', '2026-10-05T02:15:00+11:00']);
    const fall = rule('2026-04-03T01:45+11:00', 'Australia/Lord_Howe', 'DAILY');
    expect(series(fall, 4)).toEqual(['2026-04-03T01:45:00+11:00', '2026-04-04T01:45:00+11:00', '2026-04-05T01:45:00+11:00', '2026-04-06T01:45:00+10:30']);
  });

  it('America/St_Johns (-03:30 / -02:30)', () => {
    const r = rule('2026-03-07T02:30-03:30', 'America/St_Johns', 'DAILY');
    expect(series(r, 3)).toEqual(['2026-03-07T02:30:00-03:30', '2026-03-08T03:00:00-02:30', '2026-03-09T02:30:00-02:30']);
    const fall = rule('2026-10-31T01:30-02:30', 'America/St_Johns', 'DAILY');
    expect(series(fall, 3)).toEqual(['2026-10-31T01:30:00-02:30', '2026-11-01T01:30:00-02:30', '2026-11-02T01:30:00-03:30']);
  });

  it('Asia/Kathmandu (+05:45) daily', () => {
    const r = rule('2026-01-01T00:10+05:45', 'Asia/Kathmandu', 'DAILY');
    expect(nextOccurrenceAfter(r, r.anchorMs)).toBe(at('2026-01-01T18:25Z'));
  });

  it('Pacific/Chatham (+12:45 / +13:45): 03:00 on the September gap fires at 03:45', () => {
    const r = rule('2026-09-25T03:00+12:45', 'Pacific/Chatham', 'DAILY');
    expect(series(r, 4)).toEqual(['2026-09-25T03:00:00+12:45', '2026-09-26T03:00:00+12:45', '2026-09-27T03:45:00+13:45', '2026-09-28T03:00:00+13:45']);
    const fall = rule('2026-04-04T03:00+13:45', 'Pacific/Chatham', 'DAILY');
    expect(series(fall, 3)).toEqual(['2026-04-04T03:00:00+13:45', '2026-04-05T03:00:00+13:45', '2026-04-06T03:00:00+12:45']);
  });
});

describe('year 9999 and inputs', () => {
  it('returns null past 9999-12-31', () => {
    const daily = rule('2026-01-01T09:00Z', 'UTC', 'DAILY');
    expect(nextOccurrenceAfter(daily, at('9999-12-30T09:00Z'))).toBe(at('9999-12-31T09:00Z'));
    expect(nextOccurrenceAfter(daily, at('9999-12-31T09:00Z'))).toBeNull();
    expect(nextOccurrenceAfter(daily, Number.POSITIVE_INFINITY)).toBeNull();
    const yearly = rule('2026-06-01T09:00+02:00', 'Europe/Paris', 'YEARLY');
    expect(show(nextOccurrenceAfter(yearly, at('9998-12-01T00:00Z')), 'Europe/Paris')).toBe('9999-06-01T09:00:00+02:00');
    expect(nextOccurrenceAfter(yearly, at('9999-07-01T00:00Z'))).toBeNull();
    const monthly = rule('2026-01-31T09:00Z', 'UTC', 'MONTHLY');
    expect(nextOccurrences(monthly, at('9999-10-01T00:00Z'), 10)).toEqual([at('9999-10-31T09:00Z'), at('9999-11-30T09:00Z'), at('9999-12-31T09:00Z')]);
    const hourly = rule('2026-01-01T00:00Z', 'Asia/Tokyo', 'HOURLY');
    expect(nextOccurrenceAfter(hourly, at('9999-12-31T14:00+09:00'))).toBe(at('9999-12-31T15:00+09:00'));
    expect(nextOccurrenceAfter(hourly, at('9999-12-31T23:00+09:00'))).toBeNull();
  });

  it('an after long before the anchor gives the first occurrence', () => {
    const r = rule('2026-01-01T09:00Z', 'UTC', 'DAILY');
    expect(nextOccurrenceAfter(r, Number.NEGATIVE_INFINITY)).toBe(r.anchorMs);
    expect(nextOccurrenceAfter(r, -1e15)).toBe(r.anchorMs);
  });

  it('rejects a bad zone, recurrence, anchor or NaN', () => {
    expect(() => nextOccurrenceAfter({ anchorMs: 0, timeZone: 'Mars/Olympus', recurrence: 'DAILY' }, 0)).toThrow(RangeError);
    expect(() => nextOccurrenceAfter({ anchorMs: 0, timeZone: 'UTC', recurrence: 'FORTNIGHTLY' as RecurrenceType }, 0)).toThrow(RangeError);
    expect(() => nextOccurrenceAfter({ anchorMs: Number.NaN, timeZone: 'UTC', recurrence: 'DAILY' }, 0)).toThrow(RangeError);
    expect(() => nextOccurrenceAfter({ anchorMs: 0, timeZone: 'UTC', recurrence: 'DAILY' }, Number.NaN)).toThrow(RangeError);
  });
});

describe('nextOccurrences and occurrencesBetween', () => {
  const r = rule('2026-01-01T09:00+01:00', 'Europe/Paris', 'DAILY');

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
    const hourly = rule('2026-01-01T00:00Z', 'UTC', 'HOURLY');
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
