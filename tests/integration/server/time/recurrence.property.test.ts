// Runs on SQLite only: the recurrence rules do not depend on the database (vitest.config.ts).
/**
 * Property tests: the presets through server/time/series.ts, and the same rules through the HTTP API, against an
 * independent oracle written with Temporal (temporal-polyfill): its own calendar arithmetic and its
 * own wall clock <-> instant resolution. Only the zone data (ICU, through Intl) is shared.
 *
 * The oracle spells out docs/time.md "How a reminder keeps time" for a wall-clock anchor (local date, local time, zone):
 *  - every occurrence is that wall-clock time on a matching local date, resolved in the zone;
 *  - a time that happens twice resolves to the earlier instant (Temporal 'compatible');
 *  - a time inside a gap resolves to the END of the gap on that day only. Temporal's 'compatible'
 *    gives the wall clock moved forward by the gap's length (02:30 -> 03:30 in Paris), so the
 *    oracle takes the zone's transition instead and checks the two agree (see `resolve`);
 *  - MONTHLY/YEARLY add months/years to the anchor's date with overflow 'constrain' (Jan 31 ->
 *    Feb 28 -> Mar 31; Feb 29 -> Feb 28); WEEKLY the anchor's ISO weekday; WORKDAYS Mon-Fri,
 *    WEEKEND Sat+Sun, from the anchor's date on; HOURLY the anchor's instant + k hours; ONCE the
 *    anchor only.
 *
 * Fixed seeds: a failure prints its seed and path, and reruns the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { RecurrenceType } from '../../../../server/db/database.ts';
import { anchorInstant, firstOccurrence, nextOccurrenceAfter, nextOccurrences, occurrencesBetween, type RecurrenceRule } from '../../../../server/time/series.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'America/St_Johns', // -03:30 / -02:30
  'Australia/Lord_Howe', // 30-minute DST shift
  'Asia/Kathmandu', // +05:45, no DST
  'Pacific/Chatham', // +12:45 / +13:45, gap at 02:45
  'America/Santiago', // gap at midnight, overlap 23:00-24:00
  'Africa/Casablanca', // +01 with a month at +00 around Ramadan
  'Europe/Dublin', // negative DST in the ICU data
  'Antarctica/Troll', // 2-hour shift
  'UTC',
] as const;
const TYPES: RecurrenceType[] = ['ONCE', 'YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'WORKDAYS', 'WEEKEND'];

// ---------------------------------------------------------------------------------------------
// Oracle

const instant = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);
const localDateOf = (ms: number, zone: string) => instant(ms).toZonedDateTimeISO(zone).toPlainDate();

/**
 * A wall clock in a zone -> its instant: gap -> end of the gap, overlap -> the earlier instant.
 * Remembered per wall clock and zone: the cases of one property walk the same days again, and the
 * polyfill's zone arithmetic is most of the test's time.
 */
const resolved = new Map<string, number>();
function resolve(date: Temporal.PlainDate, time: Temporal.PlainTime, zone: string): number {
  const key = `${date.year}-${date.month}-${date.day} ${time.hour}:${time.minute}:${time.second} ${zone}`;
  let ms = resolved.get(key);
  if (ms === undefined) resolved.set(key, (ms = resolveUncached(date, time, zone)));
  return ms;
}

function resolveUncached(date: Temporal.PlainDate, time: Temporal.PlainTime, zone: string): number {
  const pdt = date.toPlainDateTime(time);
  const compatible = pdt.toZonedDateTime(zone, { disambiguation: 'compatible' });
  if (Temporal.PlainDateTime.compare(compatible.toPlainDateTime(), pdt) === 0) {
    // Exists once or twice: 'compatible' is the earlier of two.
    const earlier = pdt.toZonedDateTime(zone, { disambiguation: 'earlier' });
    if (earlier.epochMilliseconds !== compatible.epochMilliseconds) throw new Error(`oracle: compatible is not the earlier for ${pdt.toString()} ${zone}`);
    return compatible.epochMilliseconds;
  }
  // In a gap. The transition after the 'earlier' reading is where the gap ends.
  const before = pdt.toZonedDateTime(zone, { disambiguation: 'earlier' });
  const end = before.getTimeZoneTransition('next');
  if (!end) throw new Error(`oracle: gap without a transition at ${pdt.toString()} ${zone}`);
  // Check it is the end of THIS gap: 'compatible' (the wall clock moved by the gap's length) minus
  // how far the chosen time lies into the gap must be that same instant.
  const gapStart = end.subtract({ nanoseconds: 1 }).toPlainDateTime().add({ nanoseconds: 1 });
  const into = gapStart.until(pdt, { largestUnit: 'hours' }).total({ unit: 'milliseconds' });
  if (into < 0 || compatible.epochMilliseconds - into !== end.epochMilliseconds) {
    throw new Error(`oracle: gap end of ${pdt.toString()} ${zone} is not ${end.toString()}`);
  }
  return end.epochMilliseconds;
}

interface Anchor {
  date: Temporal.PlainDate;
  time: Temporal.PlainTime;
  zone: string;
  type: RecurrenceType;
  ms: number;
}

const anchorOf = (rule: RecurrenceRule): Anchor => {
  const date = Temporal.PlainDate.from(rule.date);
  const time = Temporal.PlainTime.from(rule.time);
  return { date, time, zone: rule.timeZone, type: rule.recurrence, ms: resolve(date, time, rule.timeZone) };
};

function dayMatches(a: Anchor, d: Temporal.PlainDate): boolean {
  switch (a.type) {
    case 'DAILY':
      return true;
    case 'WEEKLY':
      return d.dayOfWeek === a.date.dayOfWeek;
    case 'WORKDAYS':
      return d.dayOfWeek <= 5; // ISO: 1 = Monday ... 7 = Sunday
    case 'WEEKEND':
      return d.dayOfWeek >= 6;
    default:
      throw new Error(a.type);
  }
}

/** The first occurrence strictly after `after`, or null. */
function oracleNext(a: Anchor, after: number): number | null {
  if (a.type === 'ONCE') return a.ms > after ? a.ms : null;
  if (a.type === 'HOURLY') {
    if (after < a.ms) return a.ms;
    const k = Math.floor((after - a.ms) / HOUR) + 1;
    return instant(a.ms).add({ hours: k }).epochMilliseconds;
  }
  const afterDate = after < a.ms ? a.date : localDateOf(after, a.zone);
  if (a.type === 'MONTHLY' || a.type === 'YEARLY') {
    const unit = a.type === 'MONTHLY' ? 'months' : 'years';
    const diff = a.date.until(afterDate, { largestUnit: unit });
    let k = Math.max(0, (a.type === 'MONTHLY' ? diff.months : diff.years) - 1);
    for (;;) {
      const d = a.date.add(a.type === 'MONTHLY' ? { months: k } : { years: k }, { overflow: 'constrain' });
      const t = resolve(d, a.time, a.zone);
      if (t > after) return t;
      k++;
    }
  }
  let d = afterDate.subtract({ days: 2 });
  if (Temporal.PlainDate.compare(d, a.date) < 0) d = a.date;
  for (;;) {
    if (dayMatches(a, d)) {
      const t = resolve(d, a.time, a.zone);
      if (t > after) return t;
    }
    d = d.add({ days: 1 });
  }
}

function oracleChain(a: Anchor, after: number, count: number): number[] {
  const out: number[] = [];
  let t: number | null = after;
  while (out.length < count && (t = oracleNext(a, t)) !== null) out.push(t);
  return out;
}

/** Occurrences in [from, to), at most `limit`. */
function oracleBetween(a: Anchor, from: number, to: number, limit: number): number[] {
  const out: number[] = [];
  let t: number | null = from - 1;
  while (out.length < limit && (t = oracleNext(a, t)) !== null && t < to) out.push(t);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Transitions of each zone, to aim anchors and `after`s at gaps and overlaps.

interface Transition {
  /** The instant the offset changes. */
  ms: number;
  /** The wall clocks just before (as if continued) and at the change: the gap or overlap is between. */
  from: Temporal.PlainDateTime;
  to: Temporal.PlainDateTime;
}

function transitionsOf(zone: string, fromYear: number, toYear: number): Transition[] {
  const out: Transition[] = [];
  let z = Temporal.PlainDate.from({ year: fromYear, month: 1, day: 1 }).toZonedDateTime({ timeZone: zone });
  for (;;) {
    const next = z.getTimeZoneTransition('next');
    if (!next || next.year > toYear) break;
    out.push({ ms: next.epochMilliseconds, from: next.subtract({ nanoseconds: 1 }).toPlainDateTime().add({ nanoseconds: 1 }), to: next.toPlainDateTime() });
    z = next;
  }
  return out;
}

const TRANSITIONS: Record<string, Transition[]> = Object.fromEntries(ZONES.map((zone) => [zone, transitionsOf(zone, 2024, 2033)]));

it('the zones cover gaps and overlaps of 30 minutes to 2 hours, at midnight too', () => {
  const shifts = new Set<number>();
  for (const zone of ZONES) for (const t of TRANSITIONS[zone]!) shifts.add(t.from.until(t.to).total({ unit: 'minutes' }));
  expect([...shifts].sort((a, b) => a - b)).toEqual([-120, -60, -30, 30, 60, 120]);
  expect(TRANSITIONS['America/Santiago']!.some((t) => t.from.hour === 0 && t.to.hour === 1)).toBe(true);
  expect(TRANSITIONS['Pacific/Chatham']!.some((t) => t.from.hour === 2 && t.from.minute === 45 && t.to.hour === 3)).toBe(true);
});

// ---------------------------------------------------------------------------------------------
// Generators

const pad = (n: number) => String(n).padStart(2, '0');
const timeString = (t: Temporal.PlainTime) => `${pad(t.hour)}:${pad(t.minute)}${t.second ? `:${pad(t.second)}` : ''}`;

const minuteArb = fc.oneof(fc.constantFrom(0, 15, 30, 45, 59), fc.integer({ min: 0, max: 59 }));
const secondArb = fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 59 }) });
const anyTimeArb = fc
  .record({ hour: fc.integer({ min: 0, max: 23 }), minute: minuteArb, second: secondArb })
  .map(({ hour, minute, second }) => new Temporal.PlainTime(hour, minute, second));

/** A date-time inside a transition's gap or overlap (mostly), or up to 30 minutes either side. */
const nearTransitionArb = (transitions: Transition[]) =>
  fc.constantFrom(...transitions).chain((t) => {
    const lo = Temporal.PlainDateTime.compare(t.from, t.to) < 0 ? t.from : t.to;
    const span = Math.abs(t.from.until(t.to).total({ unit: 'minutes' }));
    const offset = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(0, 1, Math.floor(span / 2), span - 1) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: span - 1 }) },
      { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -30, max: -1 }), fc.integer({ min: span, max: span + 30 })) },
    );
    return fc.tuple(offset, secondArb).map(([minutes, second]) => lo.add({ minutes }).with({ second }));
  });

const dateArb = (fromYear: number, toYear: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: Temporal.PlainDate.from({ year: fromYear, month: 1, day: 1 }).until({ year: toYear, month: 12, day: 31 }).days }).map((n) => Temporal.PlainDate.from({ year: fromYear, month: 1, day: 1 }).add({ days: n })) },
    // Days 28-31 (the last day when the month is shorter) and 29 February.
    { weight: 2, arbitrary: fc.record({ year: fc.integer({ min: fromYear, max: toYear }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 28, max: 31 }) }).map((d) => Temporal.PlainDate.from(d, { overflow: 'constrain' })) },
    { weight: 1, arbitrary: fc.constantFrom(...[2024, 2028, 2032].filter((y) => y >= fromYear && y <= toYear).map((year) => Temporal.PlainDate.from({ year, month: 2, day: 29 }))) },
  );

/** A wall-clock anchor in [fromYear, toYear], aimed at gaps, overlaps and month ends. */
const ruleArb = (fromYear: number, toYear: number): fc.Arbitrary<RecurrenceRule> =>
  fc
    .record({ zone: fc.constantFrom(...ZONES), type: fc.constantFrom(...TYPES) })
    .chain(({ zone, type }) => {
      const transitions = TRANSITIONS[zone]!.filter((t) => t.to.year >= fromYear && t.to.year <= toYear);
      type Wall = { date: Temporal.PlainDate; time: Temporal.PlainTime };
      const options: Array<fc.WeightedArbitrary<Wall>> = [{ weight: 2, arbitrary: fc.record({ date: dateArb(fromYear, toYear), time: anyTimeArb }) }];
      if (transitions.length > 0) {
        const near = nearTransitionArb(transitions).filter((p) => p.year >= fromYear && p.year <= toYear);
        // In a gap/overlap on that very day; a few days before it (the series crosses it soon);
        // or the same time of day on another date (a later transition day lands on it).
        options.push({ weight: 2, arbitrary: near.map((p) => ({ date: p.toPlainDate(), time: p.toPlainTime() })) });
        options.push({ weight: 1, arbitrary: fc.tuple(near, fc.integer({ min: 1, max: 10 })).map(([p, back]) => ({ date: p.toPlainDate().subtract({ days: back }), time: p.toPlainTime() })) });
        options.push({ weight: 1, arbitrary: fc.tuple(near, dateArb(fromYear, toYear)).map(([p, date]) => ({ date, time: p.toPlainTime() })) });
      }
      return fc.oneof(...options).map(({ date, time }): RecurrenceRule => ({ date: date.toString(), time: timeString(time), timeZone: zone, recurrence: type }));
    })
    .filter((r) => Number(r.date.slice(0, 4)) >= fromYear && Number(r.date.slice(0, 4)) <= toYear);

/** An `after` for a rule: around the anchor, years later, or right around one of the zone's transitions. */
const caseArb = ruleArb(2024, 2030).chain((rule) => {
  const a = anchorOf(rule);
  const transitions = TRANSITIONS[rule.timeZone]!.filter((t) => t.ms >= a.ms - 3 * DAY);
  const afters: Array<fc.WeightedArbitrary<number>> = [
    { weight: 2, arbitrary: fc.integer({ min: -3 * DAY, max: 40 * DAY }).map((d) => a.ms + d) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 6 * 365 * DAY }).map((d) => a.ms + d) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1).map((d) => a.ms + d) },
  ];
  if (transitions.length > 0) {
    afters.push({
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...transitions), fc.oneof(fc.constantFrom(-1, 0, 1, -HOUR, HOUR), fc.integer({ min: -2 * DAY, max: DAY }))).map(([t, j]) => t.ms + j),
    });
    // At the chosen time on the eve of a transition day: the next occurrence is on that day.
    afters.push({
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom(...transitions), fc.constantFrom(-1, 0, 1)).map(([t, j]) => resolve(t.to.toPlainDate().subtract({ days: 1 }), a.time, a.zone) + j),
    });
  }
  return fc.oneof(...afters).map((after) => ({ rule, a, after }));
});

const label = (rule: RecurrenceRule, after?: number) =>
  `${rule.recurrence} ${rule.timeZone} ${rule.date} ${rule.time}${after === undefined ? '' : ` after=${new Date(after).toISOString()}`}`;

const iso = (list: number[]) => list.map((t) => new Date(t).toISOString());

// ---------------------------------------------------------------------------------------------

describe('the presets (series.ts) vs the Temporal oracle', () => {
  it('anchorInstant and firstOccurrence', () => {
    fc.assert(
      fc.property(ruleArb(2024, 2030), (rule) => {
        const a = anchorOf(rule);
        expect(anchorInstant(rule), label(rule)).toBe(a.ms);
        expect(firstOccurrence(rule), label(rule)).toBe(oracleNext(a, a.ms - 1));
      }),
      { seed: 20261123, numRuns: 4000 },
    );
  });

  // Two parts each, with seeds of their own: the same number of cases, but no one test holds a core
  // for the whole of it, so a loaded machine slows each part without bringing it near its limit.
  for (const part of [0, 1]) {
    it(`nextOccurrenceAfter, and at the boundaries of the occurrence it gives (part ${part + 1} of 2)`, () => {
      fc.assert(
        fc.property(caseArb, ({ rule, a, after }) => {
          const expected = oracleNext(a, after);
          expect(nextOccurrenceAfter(rule, after), label(rule, after)).toBe(expected);
          if (expected !== null) {
            expect(nextOccurrenceAfter(rule, expected - 1), label(rule, expected - 1)).toBe(expected);
            expect(nextOccurrenceAfter(rule, expected), label(rule, expected)).toBe(oracleNext(a, expected));
          }
        }),
        { seed: 20261124 + part * 1000, numRuns: 4000 },
      );
    });

    it(`nextOccurrences (part ${part + 1} of 2)`, () => {
      fc.assert(
        fc.property(caseArb, fc.integer({ min: 1, max: 12 }), ({ rule, a, after }, count) => {
          expect(iso(nextOccurrences(rule, after, count)), label(rule, after)).toEqual(iso(oracleChain(a, after, count)));
        }),
        { seed: 20261125 + part * 1000, numRuns: 1500 },
      );
    });
  }

  for (const part of [0, 1]) {
    it(`occurrencesBetween (calendar ranges up to 400 days, limits included; part ${part + 1} of 2)`, () => {
      fc.assert(
        fc.property(
          caseArb,
          fc.oneof(fc.integer({ min: 0, max: 45 * DAY }), fc.integer({ min: 0, max: 400 * DAY })),
          fc.oneof({ weight: 4, arbitrary: fc.constant(1000) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 50 }) }),
          ({ rule, a, after }, span, limit) => {
            const [from, to] = [after, after + span];
            expect(iso(occurrencesBetween(rule, from, to, limit)), `${label(rule, after)} span=${span / DAY}d limit=${limit}`).toEqual(iso(oracleBetween(a, from, to, limit)));
          },
        ),
        { seed: 20261126 + part * 1000, numRuns: 400 },
      );
    });
  }

  it('every occurrence is the chosen wall clock, or the end of a gap when that clock does not exist that day', () => {
    fc.assert(
      fc.property(caseArb, ({ rule, a, after }) => {
        if (rule.recurrence === 'HOURLY' || rule.recurrence === 'ONCE') return;
        const seen = new Set<string>();
        for (const t of nextOccurrences(rule, after, 30)) {
          const local = instant(t).toZonedDateTimeISO(a.zone);
          const date = local.toPlainDate().toString();
          expect(seen.has(date), `${label(rule)} fires twice on ${date}`).toBe(false);
          seen.add(date);
          if (!local.toPlainTime().equals(a.time)) {
            // The chosen time must not exist on that date, and t must be where the clock jumped.
            const wanted = local.toPlainDate().toPlainDateTime(a.time);
            expect(wanted.toZonedDateTime(a.zone, { disambiguation: 'compatible' }).toPlainDateTime().equals(wanted), `${label(rule)} ${local.toString()}`).toBe(false);
            expect(t, `${label(rule)} ${local.toString()}`).toBe(instant(t - 1).toZonedDateTimeISO(a.zone).getTimeZoneTransition('next')?.epochMilliseconds);
          }
        }
      }),
      { seed: 20261127, numRuns: 800 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The same oracle through the API: a real server over HTTP on 127.0.0.1.

describe('the API vs the Temporal oracle', () => {
  let server: TestServer;
  let api: Awaited<ReturnType<typeof signUp>>['api'];

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await signUp(server.url, { timezone: 'UTC' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const query = (rule: RecurrenceRule, count: number) =>
    `date=${rule.date}&time=${encodeURIComponent(rule.time)}&recurrence=${rule.recurrence}&timezone=${encodeURIComponent(rule.timeZone)}&count=${count}`;

  async function create(rule: RecurrenceRule) {
    const res = await api.post('/api/reminders', { date: rule.date, time: rule.time, recurrence: rule.recurrence, timezone: rule.timeZone, message: 'oracle', destinations: [] });
    expect(res.status, `${label(rule)} ${JSON.stringify(res.body)}`).toBe(201);
    return res.body;
  }

  // Anchors in the future (2027-2030): the first firing is the series' first occurrence.
  const apiCaseArb = fc.record({
    rule: ruleArb(2027, 2030),
    previewCount: fc.integer({ min: 1, max: 50 }),
    count: fc.integer({ min: 1, max: 100 }),
    // A calendar range: where it starts relative to the anchor, and how long (at most 400 days).
    rangeStart: fc.integer({ min: -40 * DAY, max: 3 * 365 * DAY }),
    rangeDays: fc.oneof(fc.integer({ min: 1, max: 45 }), fc.integer({ min: 1, max: 400 })),
  });

  it('preview, created reminder, ?count= and ?from&to all equal the oracle', async () => {
    await fc.assert(
      fc.asyncProperty(apiCaseArb, async ({ rule, previewCount, count, rangeStart, rangeDays }) => {
        const a = anchorOf(rule);
        const name = label(rule);
        const all = oracleChain(a, a.ms - 1, Math.max(previewCount, count));
        const first = all[0]!;

        const preview = await api.get(`/api/reminders/preview?${query(rule, previewCount)}`);
        expect(preview.status, name).toBe(200);
        expect(preview.body.occurrences, name).toEqual(iso(all.slice(0, previewCount)));

        const r = await create(rule);
        expect(r, name).toMatchObject({ date: rule.date, time: rule.time, timezone: rule.timeZone, recurrence_type: rule.recurrence });
        expect(r.remind_at_utc, name).toBe(new Date(a.ms).toISOString());
        expect(r.first_occurrence_utc, name).toBe(new Date(first).toISOString());
        expect(r.next_fire_utc, name).toBe(new Date(first).toISOString());

        const listed = await api.get(`/api/reminders/${r.id}/occurrences?count=${count}`);
        expect(listed.status, name).toBe(200);
        expect(listed.body.occurrences, name).toEqual(iso(all.slice(0, count)));

        // Calendar ranges: whole local days of the zone, as the dashboard asks for them.
        const fromDate = localDateOf(a.ms + rangeStart, rule.timeZone);
        const from = fromDate.toZonedDateTime({ timeZone: rule.timeZone }).epochMilliseconds;
        const to = Math.min(from + 400 * DAY, fromDate.add({ days: rangeDays }).toZonedDateTime({ timeZone: rule.timeZone }).epochMilliseconds);
        const range = await api.get(`/api/reminders/${r.id}/occurrences?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
        expect(range.status, `${name} ${JSON.stringify(range.body)}`).toBe(200);
        expect(range.body.occurrences, `${name} [${new Date(from).toISOString()}, ${new Date(to).toISOString()})`).toEqual(iso(oracleBetween(a, from, to, 2000)));

        await api.delete(`/api/reminders/${r.id}`);
      }),
      // Four HTTP calls and an oracle per run: 300 runs took 25-30 s under CI load, at the edge of
      // the 30 s test timeout. The engine itself is compared 16,000 times above.
      { seed: 20261128, numRuns: 120 },
    );
  });

  it('Europe/Paris 2027-03-28 02:30 DAILY: answers 02:30, fires 03:00 that day, then 02:30', async () => {
    const rule: RecurrenceRule = { date: '2027-03-28', time: '02:30', timeZone: 'Europe/Paris', recurrence: 'DAILY' };
    const r = await create(rule);
    expect(r).toMatchObject({
      date: '2027-03-28',
      time: '02:30',
      timezone: 'Europe/Paris',
      remind_at_utc: '2027-03-28T01:00:00.000Z',
      first_occurrence_utc: '2027-03-28T01:00:00.000Z',
      next_fire_utc: '2027-03-28T01:00:00.000Z',
    });
    const expected = ['2027-03-28T01:00:00.000Z', '2027-03-29T00:30:00.000Z', '2027-03-30T00:30:00.000Z'];
    expect((await api.get(`/api/reminders/${r.id}/occurrences?count=3`)).body.occurrences).toEqual(expected);
    expect((await api.get(`/api/reminders/preview?${query(rule, 3)}`)).body.occurrences).toEqual(expected);
    expect((await api.get(`/api/reminders/${r.id}`)).body).toMatchObject({ date: '2027-03-28', time: '02:30' });
    // The next spring-forward day: the gap end again, and 02:30 around it.
    const range = await api.get(`/api/reminders/${r.id}/occurrences?from=2028-03-25T00:00:00.000Z&to=2028-03-28T00:00:00.000Z`);
    expect(range.body.occurrences).toEqual(['2028-03-25T01:30:00.000Z', '2028-03-26T01:00:00.000Z', '2028-03-27T00:30:00.000Z']);
    // An edit that does not touch the time keeps the chosen 02:30.
    const edited = await api.put(`/api/reminders/${r.id}`, { date: '2027-03-28', time: '02:30', recurrence: 'DAILY', message: 'edited', destinations: [] });
    expect(edited.body).toMatchObject({ time: '02:30', timezone: 'Europe/Paris', remind_at_utc: '2027-03-28T01:00:00.000Z' });
  });

  it('Australia/Lord_Howe 2027-10-03 02:15 DAILY (gap 02:00 -> 02:30): fires 02:30 that day, then 02:15', async () => {
    const r = await create({ date: '2027-10-03', time: '02:15', timeZone: 'Australia/Lord_Howe', recurrence: 'DAILY' });
    expect(r).toMatchObject({ date: '2027-10-03', time: '02:15', remind_at_utc: '2027-10-02T15:30:00.000Z', first_occurrence_utc: '2027-10-02T15:30:00.000Z' });
    // 02:30+11:00, then 02:15+11:00.
    expect((await api.get(`/api/reminders/${r.id}/occurrences?count=3`)).body.occurrences).toEqual(['2027-10-02T15:30:00.000Z', '2027-10-03T15:15:00.000Z', '2027-10-04T15:15:00.000Z']);
  });

  it('WORKDAYS anchored on a Saturday answers that Saturday as date and the Monday as first occurrence', async () => {
    const r = await create({ date: '2027-01-02', time: '09:00', timeZone: 'Europe/Paris', recurrence: 'WORKDAYS' });
    expect(r).toMatchObject({
      date: '2027-01-02',
      time: '09:00',
      remind_at_utc: '2027-01-02T08:00:00.000Z',
      first_occurrence_utc: '2027-01-04T08:00:00.000Z',
      next_fire_utc: '2027-01-04T08:00:00.000Z',
    });
    expect((await api.get(`/api/reminders/${r.id}/occurrences?count=6`)).body.occurrences).toEqual(
      ['04', '05', '06', '07', '08', '11'].map((d) => `2027-01-${d}T08:00:00.000Z`),
    );
    const weekend = await create({ date: '2027-01-06', time: '09:00', timeZone: 'Europe/Paris', recurrence: 'WEEKEND' }); // a Wednesday
    expect(weekend).toMatchObject({ date: '2027-01-06', first_occurrence_utc: '2027-01-09T08:00:00.000Z', next_fire_utc: '2027-01-09T08:00:00.000Z' });
  });
});
