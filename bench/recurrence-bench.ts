/**
 * nextOccurrenceAfter throughput, per recurrence type. Run by hand: `npx tsx bench/recurrence-bench.ts`.
 * Simulates the scheduler burst: 100,000 reminders with anchors spread over ten years in a mix of
 * zones, each asked for its next occurrence after "now" (which moves a little within the burst).
 */
import type { RecurrenceType } from '../server/db/database.ts';
import { nextOccurrenceAfter, type RecurrenceRule } from '../server/time/series.ts';
import { instantToDateTime } from '../server/time/zoned.ts';

const TYPES: RecurrenceType[] = ['ONCE', 'HOURLY', 'DAILY', 'WEEKLY', 'WORKDAYS', 'WEEKEND', 'MONTHLY', 'YEARLY'];
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
  'Asia/Tokyo',
  'America/Los_Angeles',
  'Europe/Berlin',
];
const N = 100_000;

// Deterministic PRNG so runs are comparable.
let seed = 0x2545f491;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};

const now = Date.UTC(2026, 5, 15, 12, 0, 0);
const TEN_YEARS = 10 * 365 * 86_400_000;

function rules(type: RecurrenceType): RecurrenceRule[] {
  return Array.from({ length: N }, () => {
    const timeZone = ZONES[Math.floor(rand() * ZONES.length)]!;
    const { date, time } = instantToDateTime(Math.floor((now - TEN_YEARS * rand()) / 60_000) * 60_000, timeZone);
    return { date, time, timeZone, recurrence: type };
  });
}

function run(rs: RecurrenceRule[], afters: number[]): number {
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < rs.length; i++) sink += nextOccurrenceAfter(rs[i]!, afters[i]!) ?? 0;
  const ms = performance.now() - t0;
  if (sink === 42) console.log('');
  return ms;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
console.log(`${N.toLocaleString('en-US')} calls per type; first pass = cold offset cache for that burst`);
console.log(`${'type'.padEnd(10)}${'first calls/s'.padStart(14)}${'µs/call'.padStart(9)}${'warm calls/s'.padStart(14)}${'µs/call'.padStart(9)}`);
for (const type of TYPES) {
  const rs = rules(type);
  const afters = rs.map(() => now + Math.floor(rand() * 3_600_000));
  const cold = run(rs, afters);
  const warm = Math.min(run(rs, afters), run(rs, afters));
  console.log(
    `${type.padEnd(10)}${fmt((N / cold) * 1000).padStart(14)}${((cold * 1000) / N).toFixed(2).padStart(9)}` +
      `${fmt((N / warm) * 1000).padStart(14)}${((warm * 1000) / N).toFixed(2).padStart(9)}`,
  );
}
