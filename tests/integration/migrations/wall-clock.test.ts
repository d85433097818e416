/**
 * migrations/2026-11-23-001-reminders-wall-clock-anchor.ts on a database as the previous code
 * left it: reminders stored only their anchor INSTANT (remind_at_utc), from which every occurrence
 * took its date and wall-clock time. The migration adds the wall clock (local_date, local_time)
 * and renames legacy zone ids. No firing may move: next_fire_utc is kept, and the occurrences the
 * new wall-clock rules give after it are the ones the old instant-anchored rules gave.
 *
 * The old rules are re-implemented here with Temporal (temporal-polyfill) as the oracle:
 * occurrence #0 is the anchor instant itself; the other dates take the anchor's wall-clock time in
 * the zone (gap -> end of the gap, overlap -> earlier instant); HOURLY is anchor + k hours.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { RecurrenceType } from '../../../server/db/database.ts';
import { createDatabase } from '../../../server/db/connection.ts';
import { createMigrator, migrateToLatest } from '../../../server/db/migrate.ts';
import { anchorInstant, nextOccurrenceAfter, nextOccurrences, type RecurrenceRule } from '../../../server/time/series.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const BEFORE = '2026-11-22-201-delivery-attempts-without-redundant-keys';

/** Legacy ids and their modern IANA names (tzdata `backward`), written out independently of the code. */
const LEGACY: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Europe/Kiev': 'Europe/Kyiv',
  'US/Eastern': 'America/New_York',
  'Eire': 'Europe/Dublin',
  'NZ-CHAT': 'Pacific/Chatham',
  'Australia/LHI': 'Australia/Lord_Howe',
  'Chile/Continental': 'America/Santiago',
  'Canada/Newfoundland': 'America/St_Johns',
};
const MODERN = [
  'Europe/Paris',
  'America/New_York',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/Santiago',
  'Africa/Casablanca',
  'Europe/Dublin',
  'Antarctica/Troll',
  'UTC',
  'Asia/Kolkata',
  'Europe/London',
  'Australia/Sydney',
  'America/Sao_Paulo',
];
const STORED_ZONES = [...MODERN, ...Object.keys(LEGACY)];
const modern = (zone: string) => LEGACY[zone] ?? zone;
const TYPES: RecurrenceType[] = ['ONCE', 'YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'WORKDAYS', 'WEEKEND'];

// ---------------------------------------------------------------------------------------------
// The old instant-anchored rules (oracle)

const instant = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

/** Wall clock -> instant: gap -> the transition ending it, overlap -> the earlier instant. */
function resolve(pdt: Temporal.PlainDateTime, zone: string): number {
  const zdt = pdt.toZonedDateTime(zone, { disambiguation: 'compatible' });
  if (zdt.toPlainDateTime().equals(pdt)) return zdt.epochMilliseconds;
  return pdt.toZonedDateTime(zone, { disambiguation: 'earlier' }).getTimeZoneTransition('next')!.epochMilliseconds;
}

interface OldRule {
  anchorMs: number;
  zone: string;
  type: RecurrenceType;
}

function oldNext(rule: OldRule, after: number): number | null {
  const { anchorMs, zone, type } = rule;
  if (type === 'ONCE') return anchorMs > after ? anchorMs : null;
  if (type === 'HOURLY') return after < anchorMs ? anchorMs : anchorMs + (Math.floor((after - anchorMs) / HOUR) + 1) * HOUR;
  const anchor = instant(anchorMs).toZonedDateTimeISO(zone);
  const aDate = anchor.toPlainDate();
  const aTime = anchor.toPlainTime();
  const at = (d: Temporal.PlainDate) => (d.equals(aDate) ? anchorMs : resolve(d.toPlainDateTime(aTime), zone));
  const afterDate = after < anchorMs ? aDate : instant(after).toZonedDateTimeISO(zone).toPlainDate();
  if (type === 'MONTHLY' || type === 'YEARLY') {
    const diff = aDate.until(afterDate, { largestUnit: type === 'MONTHLY' ? 'months' : 'years' });
    for (let k = Math.max(0, (type === 'MONTHLY' ? diff.months : diff.years) - 1); ; k++) {
      const t = at(aDate.add(type === 'MONTHLY' ? { months: k } : { years: k }, { overflow: 'constrain' }));
      if (t > after && t >= anchorMs) return t;
    }
  }
  let d = afterDate.subtract({ days: 2 });
  if (Temporal.PlainDate.compare(d, aDate) < 0) d = aDate;
  for (; ; d = d.add({ days: 1 })) {
    const ok = type === 'DAILY' || (type === 'WEEKLY' ? d.dayOfWeek === aDate.dayOfWeek : type === 'WORKDAYS' ? d.dayOfWeek <= 5 : d.dayOfWeek >= 6);
    if (!ok) continue;
    const t = at(d);
    if (t > after && t >= anchorMs) return t;
  }
}

function oldChain(rule: OldRule, after: number, count: number): number[] {
  const out: number[] = [];
  let t: number | null = after;
  while (out.length < count && (t = oldNext(rule, t)) !== null) out.push(t);
  return out;
}

/** Whether an instant is the later of two readings of the same wall clock (fall-back overlap). */
function isSecondReading(ms: number, zone: string): boolean {
  const pdt = instant(ms).toZonedDateTimeISO(zone).toPlainDateTime();
  return pdt.toZonedDateTime(zone, { disambiguation: 'earlier' }).epochMilliseconds !== ms;
}

// ---------------------------------------------------------------------------------------------
// Old rows: anchors as the old code stored them.

interface Transition {
  ms: number;
  from: Temporal.PlainDateTime;
  to: Temporal.PlainDateTime;
}

function transitionsOf(zone: string): Transition[] {
  const out: Transition[] = [];
  let z = Temporal.PlainDate.from('2024-01-01').toZonedDateTime({ timeZone: zone });
  for (;;) {
    const next = z.getTimeZoneTransition('next');
    if (!next || next.year > 2030) return out;
    out.push({ ms: next.epochMilliseconds, from: next.subtract({ nanoseconds: 1 }).toPlainDateTime().add({ nanoseconds: 1 }), to: next.toPlainDateTime() });
    z = next;
  }
}
const TRANSITIONS = new Map([...new Set(STORED_ZONES.map(modern))].map((zone) => [zone, transitionsOf(zone)]));

const pad = (n: number) => String(n).padStart(2, '0');

interface OldRow {
  id: string;
  account_id: string;
  zone: string;
  type: RecurrenceType;
  anchorMs: number;
  /** How it was made: the dashboard (a wall clock resolved at minute precision) or the bot ("in 10 minutes": any second). */
  source: 'web' | 'bot';
  nextFireMs: number | null;
}

const dayArb = fc.oneof(
  fc.integer({ min: 0, max: 7 * 365 }).map((n) => Temporal.PlainDate.from('2024-01-01').add({ days: n })),
  fc.record({ year: fc.integer({ min: 2024, max: 2030 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 28, max: 31 }) }).map((d) => Temporal.PlainDate.from(d, { overflow: 'constrain' })),
  fc.constantFrom(Temporal.PlainDate.from('2024-02-29'), Temporal.PlainDate.from('2028-02-29')),
);

const rowArb = fc
  .record({ stored: fc.constantFrom(...STORED_ZONES), type: fc.constantFrom(...TYPES), pick: fc.nat(), day: dayArb, hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }) })
  .chain(({ stored, type, pick, day, hour, minute }) => {
    const zone = modern(stored);
    const transitions = TRANSITIONS.get(zone)!;
    const t = transitions.length > 0 ? transitions[pick % transitions.length]! : null;
    const lo = t ? (Temporal.PlainDateTime.compare(t.from, t.to) < 0 ? t.from : t.to) : null;
    const span = t ? Math.abs(t.from.until(t.to).total({ unit: 'minutes' })) : 0;
    const anchors: Array<fc.Arbitrary<{ anchorMs: number; source: 'web' | 'bot' }>> = [
      // The dashboard: a wall clock, anywhere.
      fc.constant({ anchorMs: resolve(day.toPlainDateTime({ hour, minute }), zone), source: 'web' }),
    ];
    if (t && lo) {
      // The dashboard: a wall clock inside a gap (stored as the gap end) or an overlap (the earlier
      // instant), on that day or on another one (the series meets a transition later).
      const inside = fc.integer({ min: 0, max: span - 1 }).map((m) => lo.add({ minutes: m }));
      anchors.push(inside.map((p) => ({ anchorMs: resolve(p, zone), source: 'web' as const })));
      anchors.push(inside.map((p) => ({ anchorMs: resolve(day.toPlainDateTime(p.toPlainTime()), zone), source: 'web' as const })));
      // The bot: "in N minutes" is any second, the second reading of an overlap included.
      anchors.push(fc.integer({ min: -3 * 3600, max: 3 * 3600 }).map((s) => ({ anchorMs: t.ms + s * 1000, source: 'bot' as const })));
    }
    return fc.oneof(...anchors).map(({ anchorMs, source }) => ({ stored, zone, type, anchorMs, source }));
  })
  .chain((r) =>
    // Where the old scheduler had got to: not fired yet, or fired up to some later "now".
    fc.oneof(fc.constant<number | null>(null), fc.integer({ min: 0, max: 3 * 365 * DAY }).map((d) => r.anchorMs + d)).map((now) => {
      const rule: OldRule = { anchorMs: r.anchorMs, zone: r.zone, type: r.type };
      return { ...r, nextFireMs: now === null ? oldNext(rule, r.anchorMs - 1) : oldNext(rule, now) };
    }),
  );

const ROWS = 1200; // more than one page (1,000) of the migration's keyset loop

/**
 * Written-out edge cases, next to the random ones: the bot's "in 10 minutes" during a fall-back
 * hour stored the LATER reading of an overlapping wall clock, which a wall clock cannot name.
 */
const FIXED: Array<Omit<OldRow, 'id' | 'account_id'> & { stored: string }> = [
  // Lord Howe 2026-04-05: 01:30-02:00 happens twice, 30 minutes apart; 01:45 +10:30 is the later.
  { stored: 'Australia/Lord_Howe', zone: 'Australia/Lord_Howe', type: 'HOURLY', anchorMs: Date.parse('2026-04-04T15:15:00Z'), source: 'bot', nextFireMs: Date.parse('2026-04-04T15:15:00Z') },
  { stored: 'Australia/LHI', zone: 'Australia/Lord_Howe', type: 'HOURLY', anchorMs: Date.parse('2026-04-04T15:15:00Z'), source: 'bot', nextFireMs: Date.parse('2026-04-11T15:15:00Z') },
  // Paris 2026-10-25 02:30 +01:00 (the later one): a whole hour apart, HOURLY keeps its instants.
  { stored: 'Europe/Paris', zone: 'Europe/Paris', type: 'HOURLY', anchorMs: Date.parse('2026-10-25T01:30:00Z'), source: 'bot', nextFireMs: Date.parse('2026-10-25T01:30:00Z') },
  { stored: 'Europe/Paris', zone: 'Europe/Paris', type: 'DAILY', anchorMs: Date.parse('2026-10-25T01:30:00Z'), source: 'bot', nextFireMs: Date.parse('2026-10-25T01:30:00Z') },
  // Paris 2026-03-29 02:30 from the dashboard was stored as the gap end (03:00 +02:00).
  { stored: 'Europe/Paris', zone: 'Europe/Paris', type: 'DAILY', anchorMs: Date.parse('2026-03-29T01:00:00Z'), source: 'web', nextFireMs: Date.parse('2026-11-23T02:00:00Z') },
  { stored: 'Asia/Calcutta', zone: 'Asia/Kolkata', type: 'WORKDAYS', anchorMs: Date.parse('2026-11-21T03:30:00Z'), source: 'web', nextFireMs: Date.parse('2026-11-23T03:30:00Z') },
];

// ---------------------------------------------------------------------------------------------

describe('migration to wall-clock anchors', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-wall-clock-'));
  let db: Kysely<any>;
  let rows: Array<OldRow & { stored: string }>;
  let after: Map<string, Record<string, any>>;
  let accountsAfter: Map<string, string>;

  beforeAll(async () => {
    ({ db } = createDatabase(path.join(dir, 'chime.db')) as unknown as { db: Kysely<any> });
    const before = await createMigrator(db).migrateTo(BEFORE);
    expect(before.error).toBeUndefined();
    const now = '2026-11-22T12:00:00.000Z';
    await db
      .insertInto('accounts')
      .values(STORED_ZONES.map((zone, i) => ({ id: `a${i}`, email: null, email_normalized: null, username: `u${i}`, timezone: zone, locale: null, created_at: now, updated_at: now })))
      .execute();
    rows = [...FIXED, ...fc.sample(rowArb, { numRuns: ROWS, seed: 20261123 })].map((r, i) => ({ ...r, id: `r${String(i).padStart(5, '0')}`, account_id: `a${i % STORED_ZONES.length}` }));
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    for (let i = 0; i < rows.length; i += 200) {
      await db
        .insertInto('reminders')
        .values(
          rows.slice(i, i + 200).map((r) => ({
            id: r.id,
            account_id: r.account_id,
            message: `${r.type} ${r.stored} ${r.source}`,
            remind_at_utc: iso(r.anchorMs),
            timezone: r.stored,
            recurrence_type: r.type,
            is_paused: 0,
            snoozed_at_utc: null,
            next_fire_utc: iso(r.nextFireMs),
            next_occurrence_utc: iso(r.nextFireMs),
            last_fired_at: null,
            completed_at: r.nextFireMs === null ? now : null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    await migrateToLatest(db);
    after = new Map((await db.selectFrom('reminders').selectAll().execute()).map((r: Record<string, any>) => [r.id as string, r]));
    accountsAfter = new Map((await db.selectFrom('accounts').select(['id', 'timezone']).execute()).map((a: { id: string; timezone: string }) => [a.id, a.timezone]));
  });

  afterAll(async () => {
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the sample covers every recurrence, every zone, gap and overlap anchors and both sources', () => {
    expect(new Set(rows.map((r) => r.type)).size).toBe(TYPES.length);
    expect(new Set(rows.map((r) => r.stored)).size).toBe(STORED_ZONES.length);
    const gapEnds = rows.filter((r) => TRANSITIONS.get(r.zone)!.some((t) => t.ms === r.anchorMs && Temporal.PlainDateTime.compare(t.to, t.from) > 0));
    expect(gapEnds.length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.source === 'bot' && isSecondReading(r.anchorMs, r.zone)).length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.nextFireMs === null).length).toBeGreaterThan(10);
  });

  /** HOURLY anchors on the later reading of a repeated time move back by whole hours: the same series. */
  const movedAnchor = (r: OldRow) => r.type === 'HOURLY' && isSecondReading(r.anchorMs, r.zone);
  const anchorAfter = (r: OldRow) => {
    let ms = r.anchorMs;
    if (movedAnchor(r)) while (isSecondReading(ms, r.zone)) ms -= 3_600_000;
    return ms;
  };

  it('keeps every row, its anchor instant (HOURLY: its series) and its next firing', () => {
    expect(after.size).toBe(rows.length);
    for (const r of rows) {
      const m = after.get(r.id)!;
      expect(m.remind_at_utc, r.id).toBe(new Date(anchorAfter(r)).toISOString());
      expect(Math.abs((anchorAfter(r) - r.anchorMs) % 3_600_000), r.id).toBe(0);
      expect(m.next_fire_utc, r.id).toBe(r.nextFireMs === null ? null : new Date(r.nextFireMs).toISOString());
      expect(m.next_occurrence_utc, r.id).toBe(m.next_fire_utc);
      expect(m.recurrence_type, r.id).toBe(r.type);
    }
  });

  it('renames legacy zone ids in reminders and accounts, and keeps the others', () => {
    for (const r of rows) expect(after.get(r.id)!.timezone, r.id).toBe(modern(r.stored));
    STORED_ZONES.forEach((zone, i) => expect(accountsAfter.get(`a${i}`), zone).toBe(modern(zone)));
  });

  it('local_date/local_time are the wall clock remind_at_utc reads in the zone', () => {
    for (const r of rows) {
      const p = instant(anchorAfter(r)).toZonedDateTimeISO(r.zone).toPlainDateTime();
      const m = after.get(r.id)!;
      expect(m.local_date, r.id).toBe(p.toPlainDate().toString());
      expect(m.local_time, r.id).toBe(`${pad(p.hour)}:${pad(p.minute)}${p.second ? `:${pad(p.second)}` : ''}`);
    }
  });

  const ruleOf = (m: Record<string, any>): RecurrenceRule => ({ date: m.local_date, time: m.local_time, timeZone: m.timezone, recurrence: m.recurrence_type });
  const label = (r: OldRow & { stored: string }) => `${r.id} ${r.type} ${r.stored} ${r.source} anchor=${new Date(r.anchorMs).toISOString()}`;
  const secondReadings = () => rows.filter((r) => isSecondReading(r.anchorMs, r.zone));

  it('the new fields give back the stored anchor instant (not for the later reading of an overlap: a wall clock names the earlier)', () => {
    for (const r of rows) {
      if (isSecondReading(r.anchorMs, r.zone)) continue;
      expect(anchorInstant(ruleOf(after.get(r.id)!)), label(r)).toBe(r.anchorMs);
    }
  });

  it('after the stored next firing, the new rules give the occurrences the old rules gave', () => {
    const mismatches: string[] = [];
    for (const r of rows) {
      if (r.nextFireMs === null) continue;
      // The HOURLY second-reading rows are the next test's.
      if (r.type === 'HOURLY' && isSecondReading(r.anchorMs, r.zone)) continue;
      const m = after.get(r.id)!;
      const expected = oldChain({ anchorMs: r.anchorMs, zone: r.zone, type: r.type }, r.nextFireMs, 5);
      const actual = nextOccurrences(ruleOf(m), r.nextFireMs, 5);
      expect(nextOccurrenceAfter(ruleOf(m), r.nextFireMs), label(r)).toBe(expected[0] ?? null);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push(label(r));
    }
    expect(mismatches).toEqual([]);
  });

  it('an HOURLY reminder anchored on the later reading of an overlap keeps its hours', () => {
    const hourly = secondReadings().filter((r) => r.type === 'HOURLY' && r.nextFireMs !== null);
    expect(hourly.length).toBeGreaterThan(0);
    const moved: string[] = [];
    for (const r of hourly) {
      const expected = oldChain({ anchorMs: r.anchorMs, zone: r.zone, type: r.type }, r.nextFireMs!, 3);
      const actual = nextOccurrences(ruleOf(after.get(r.id)!), r.nextFireMs!, 3);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) moved.push(`${label(r)}: ${actual.map((t) => new Date(t).toISOString()).join(',')} instead of ${expected.map((t) => new Date(t).toISOString()).join(',')}`);
    }
    expect(moved).toEqual([]);
  });
});
