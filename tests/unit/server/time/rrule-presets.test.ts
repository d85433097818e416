/**
 * presetToRRule: the rule given for each of the eight presets is the rule its text parses to, and
 * expanded as a custom rule it gives exactly what series.ts gives for the preset (which reuses each
 * preset's compiled masks, rrule.ts compiledPreset), from random wall-clock anchors (month ends,
 * 29 February, DST gaps and overlaps), the first 50 occurrences and from random moments after.
 * What the presets give is checked against an independent oracle in
 * tests/integration/server/time/recurrence.property.test.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { RecurrenceType } from '../../../../server/db/database.ts';
import { anchorInstant, nextOccurrenceAfter, nextOccurrences, type RecurrenceRule } from '../../../../server/time/series.ts';
import { formatRRule, nextRRuleOccurrenceAfter, parseRRule, presetToRRule } from '../../../../server/time/rrule.ts';
import { rruleOccurrences } from '../../../helpers/rrule-listing.ts';

const DAY = 86_400_000;
const PRESETS: RecurrenceType[] = ['ONCE', 'HOURLY', 'DAILY', 'WEEKLY', 'WORKDAYS', 'WEEKEND', 'MONTHLY', 'YEARLY'];
const ZONES = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Santiago', 'Africa/Casablanca', 'Europe/Dublin', 'Asia/Kathmandu', 'UTC'];

describe('presetToRRule', () => {
  it.each<[RecurrenceType, string, string]>([
    ['ONCE', '2026-05-01', 'FREQ=DAILY;COUNT=1'],
    ['HOURLY', '2026-05-01', 'FREQ=HOURLY'],
    ['DAILY', '2026-05-01', 'FREQ=DAILY'],
    ['WEEKLY', '2026-05-01', 'FREQ=WEEKLY;BYDAY=FR'],
    ['WEEKLY', '2026-05-03', 'FREQ=WEEKLY;BYDAY=SU'],
    ['WORKDAYS', '2026-05-02', 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
    ['WEEKEND', '2026-05-01', 'FREQ=WEEKLY;BYDAY=SA,SU'],
    ['MONTHLY', '2026-05-01', 'FREQ=MONTHLY;BYMONTHDAY=1'],
    ['MONTHLY', '2026-05-28', 'FREQ=MONTHLY;BYMONTHDAY=28'],
    ['MONTHLY', '2026-05-29', 'FREQ=MONTHLY;BYMONTHDAY=28,29;BYSETPOS=-1'],
    ['MONTHLY', '2026-05-30', 'FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1'],
    ['MONTHLY', '2026-05-31', 'FREQ=MONTHLY;BYMONTHDAY=-1'],
    ['YEARLY', '2026-05-31', 'FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=31'],
    ['YEARLY', '2028-02-29', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1'],
  ])('%s from %s: %s', (preset, date, text) => {
    const rule = presetToRRule(preset, { date, time: '09:00', timeZone: 'UTC' });
    expect(formatRRule(rule)).toBe(text);
    // Built without parsing, it must be what parsing gives (the engine reads the lists as parsed).
    expect(rule).toEqual((parseRRule(text) as { rule: unknown }).rule);
  });

  const dateArb = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 14_600 }).map((n) => Temporal.PlainDate.from('2000-01-01').add({ days: n })) },
    { weight: 3, arbitrary: fc.record({ year: fc.integer({ min: 2000, max: 2039 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 28, max: 31 }) }).map((d) => Temporal.PlainDate.from(d, { overflow: 'constrain' })) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }).map((k) => Temporal.PlainDate.from({ year: 2000 + 4 * k, month: 2, day: 29 })) },
  );
  // Times where the zones above have gaps and overlaps (00:xx-03:xx, 23:xx), and any.
  const timeArb = fc.oneof(
    fc.record({ hour: fc.constantFrom(0, 1, 2, 3, 23), minute: fc.constantFrom(0, 15, 30, 45, 59) }),
    fc.record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }) }),
  );
  const caseArb = fc.record({
    preset: fc.constantFrom(...PRESETS),
    zone: fc.constantFrom(...ZONES),
    date: dateArb,
    time: timeArb,
    later: fc.integer({ min: 0, max: 30 * 365 }),
  });

  it('expands as a custom rule to exactly the preset\'s occurrences (random anchors, the first 50, and from later moments)', () => {
    fc.assert(
      fc.property(caseArb, ({ preset, zone, date, time, later }) => {
        const rule: RecurrenceRule = { date: date.toString(), time: `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`, timeZone: zone, recurrence: preset };
        const rrule = presetToRRule(preset, rule);
        const label = `${preset} ${rule.date} ${rule.time} ${zone}: ${formatRRule(rrule)}`;
        const start = anchorInstant(rule) - 1;
        expect(rruleOccurrences(rrule, rule, start, 50), label).toEqual(nextOccurrences(rule, start, 50));
        const after = start + later * DAY + ((later * 7919) % DAY);
        expect(nextRRuleOccurrenceAfter(rrule, rule, after), `${label} after ${new Date(after).toISOString()}`).toBe(nextOccurrenceAfter(rule, after));
      }),
      { seed: 20270302, numRuns: 3000 },
    );
  });
});
