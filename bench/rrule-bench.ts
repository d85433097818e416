/**
 * nextRRuleOccurrenceAfter cost per call, for a few rule shapes. Run by hand: `npx tsx bench/rrule-bench.ts`
 * (also part of `npm run bench`). Like bench/recurrence-bench.ts: 50,000 anchors spread over ten
 * years in a mix of zones, each asked for its next occurrence after "now" (which moves a little
 * within the burst). The rule is parsed once per shape; the last column adds parseRRule to each
 * call (a caller that keeps only the string). Goal (issue 9): < 20 µs per call for a weekly rule
 * with 3 BYDAY.
 */
import { nextRRuleOccurrenceAfter, parseRRule, type ParsedRRule, type RRuleAnchor } from '../server/time/rrule.ts';
import { instantToDateTime } from '../server/time/zoned.ts';

const SHAPES = [
  'FREQ=WEEKLY;BYDAY=MO,WE,FR',
  'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE',
  'FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR',
  'FREQ=MONTHLY;BYDAY=1MO',
  'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
  'FREQ=MONTHLY;BYMONTHDAY=31',
  'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
  'FREQ=HOURLY;INTERVAL=3',
  'FREQ=MINUTELY;INTERVAL=15;BYDAY=MO,TU,WE,TH,FR',
  'FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20300101T000000Z',
  'FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=1000',
  'FREQ=MONTHLY;BYDAY=-1FR;COUNT=120',
];
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
const N = 50_000;

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

const anchors: RRuleAnchor[] = Array.from({ length: N }, () => {
  const timeZone = ZONES[Math.floor(rand() * ZONES.length)]!;
  const { date, time } = instantToDateTime(Math.floor((now - TEN_YEARS * rand()) / 60_000) * 60_000, timeZone);
  return { date, time, timeZone };
});
const afters = anchors.map(() => now + Math.floor(rand() * 3_600_000));

function parsed(text: string): ParsedRRule {
  const p = parseRRule(text);
  if (!p.ok) throw new Error(`${text}: ${p.message}`);
  return p.rule;
}

function run(text: string, parseEach: boolean): number {
  const rule = parsed(text);
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) sink += nextRRuleOccurrenceAfter(parseEach ? parsed(text) : rule, anchors[i]!, afters[i]!) ?? 0;
  const ms = performance.now() - t0;
  if (sink === 42) console.log('');
  return (ms * 1000) / N;
}

const us = (n: number) => n.toFixed(2).padStart(10);
console.log(`${N.toLocaleString('en-US')} calls per shape, µs per call; first pass = cold caches (offset grid, COUNT ends)`);
console.log(`${'rule'.padEnd(48)}${'first'.padStart(10)}${'warm'.padStart(10)}${'+parse'.padStart(10)}`);
for (const text of SHAPES) {
  const cold = run(text, false);
  const warm = Math.min(run(text, false), run(text, false));
  const withParse = run(text, true);
  console.log(`${text.padEnd(48)}${us(cold)}${us(warm)}${us(withParse)}`);
}
