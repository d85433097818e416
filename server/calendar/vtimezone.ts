/**
 * VTIMEZONE components built from the zone data of this Node (Intl), so a calendar client turns
 * the feed's local times into the same instants Chime does, whatever its own zone database.
 *
 * Each offset change in the years asked for is one STANDARD/DAYLIGHT onset; after the last of
 * them, when the zone's last year follows a yearly rule ("last Sunday of March at 02:00") that
 * the next ten years confirm, that rule goes on as an RRULE, so clients stay right past the years
 * written out. Zones without changes get one STANDARD.
 */
import { DAY } from '../time/civil.ts';
import { offsetMs, zonedParts } from '../time/zoned.ts';

export interface Transition {
  /** The instant the new offset starts. */
  at: number;
  from: number;
  to: number;
}

const byYear = new Map<string, Transition[]>();

/**
 * Zones change offset at most a few times a year, months apart (the closest pairs in the tz
 * database since 1970 are weeks apart): a scan by this step, then a binary search to the second.
 */
const SCAN_STEP = 4 * DAY;

/** The offset changes of a zone in one (UTC) year, found by a scan and a binary search to the second. */
export function transitionsInYear(zone: string, year: number): Transition[] {
  const key = `${zone}|${year}`;
  const cached = byYear.get(key);
  if (cached) return cached;
  const out: Transition[] = [];
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  let t = start;
  let offset = offsetMs(t, zone);
  while (t < end) {
    const next = Math.min(t + SCAN_STEP, end);
    const nextOffset = offsetMs(next, zone);
    if (nextOffset !== offset) {
      let lo = t;
      let hi = next;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (offsetMs(mid, zone) === offset) lo = mid;
        else hi = mid;
      }
      // Two changes within one step (none since 1970): the scan would keep the net one.
      out.push({ at: hi, from: offset, to: nextOffset });
    }
    t = next;
    offset = nextOffset;
  }
  if (byYear.size > 20_000) byYear.clear();
  byYear.set(key, out);
  return out;
}

export function transitionsBetween(zone: string, fromYear: number, toYear: number): Transition[] {
  const out: Transition[] = [];
  for (let y = fromYear; y <= toYear; y++) out.push(...transitionsInYear(zone, y));
  return out;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function offsetText(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  const abs = Math.abs(ms) / 1000;
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  return `${sign}${pad(h)}${pad(m)}${s ? pad(s) : ''}`;
}

/** The local wall clock (as read in the `from` offset) at which a transition happens: `19700329T020000`. */
function onsetLocal(tr: Transition): { stamp: string; month: number; day: number; weekday: number; year: number } {
  const d = new Date(tr.at + tr.from);
  return {
    stamp: `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`,
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    year: d.getUTCFullYear(),
  };
}

const WEEKDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** "the Nth (or last) <weekday> of <month> at <time>" for a transition, as an RRULE BYDAY. */
function yearlyRuleOf(tr: Transition): { month: number; byDay: string; time: string } {
  const local = onsetLocal(tr);
  const monthLength = new Date(Date.UTC(local.year, local.month, 0)).getUTCDate();
  const n = local.day + 7 > monthLength ? -1 : Math.ceil(local.day / 7);
  return { month: local.month, byDay: `${n}${WEEKDAY[local.weekday]}`, time: local.stamp.slice(9) };
}

function sameRule(a: Transition, b: Transition): boolean {
  const ra = yearlyRuleOf(a);
  const rb = yearlyRuleOf(b);
  return ra.month === rb.month && ra.byDay === rb.byDay && ra.time === rb.time && a.from === b.from && a.to === b.to;
}

function isDaylight(tr: Transition, yearTransitions: Transition[]): boolean {
  const offsets = yearTransitions.flatMap((t) => [t.from, t.to]);
  return tr.to > Math.min(...offsets, tr.from);
}

/**
 * Past this year the zone data only repeats yearly rules (the tz database writes changes out to
 * 2037 and generates later years from its rules; Casablanca's Ramadan changes, the longest list,
 * end in 2087). Writing every year out to `toYear` would cost a scan per year: one reminder dated
 * 9999 made a feed of 1.5 MB per zone that took two seconds to build.
 */
const RULES_ONLY_AFTER = 2050;
const LAST_LISTED_CHANGE = 2150;

/**
 * The VTIMEZONE of `zone` with every offset change from `fromYear` to `toYear`, then the zone's
 * yearly rule (if it has one the following years confirm). Lines are unfolded. Past
 * RULES_ONLY_AFTER the rule stands for the years it repeats; a zone without one has its changes
 * listed to LAST_LISTED_CHANGE, after which the zone data has none.
 */
export function vtimezoneLines(zone: string, fromYear: number, toYear: number): string[] {
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  const initial = offsetMs(Date.UTC(fromYear, 0, 1), zone);
  const ruleYear = Math.min(toYear, Math.max(fromYear, RULES_ONLY_AFTER));
  // The observance in force from the start of the range.
  lines.push('BEGIN:STANDARD', `DTSTART:${pad(fromYear, 4)}0101T000000`, `TZOFFSETFROM:${offsetText(initial)}`, `TZOFFSETTO:${offsetText(initial)}`, 'END:STANDARD');

  // A yearly rule: the rule year's changes repeat, as rules, for each of the ten years after.
  const last = transitionsInYear(zone, ruleYear);
  let ruled: Transition[] = [];
  if (last.length > 0 && last.length <= 2) {
    let holds = true;
    for (let y = ruleYear + 1; y <= ruleYear + 10 && holds; y++) {
      const those = transitionsInYear(zone, y);
      holds = those.length === last.length && those.every((t, i) => sameRule(t, last[i]!));
    }
    if (holds) ruled = last;
  }
  const listedTo = ruled.length > 0 ? ruleYear : Math.min(toYear, Math.max(fromYear, LAST_LISTED_CHANGE));
  const explicit = transitionsBetween(zone, fromYear, listedTo);
  for (const tr of explicit) {
    if (ruled.includes(tr)) continue;
    const kind = isDaylight(tr, transitionsInYear(zone, new Date(tr.at).getUTCFullYear())) ? 'DAYLIGHT' : 'STANDARD';
    lines.push(`BEGIN:${kind}`, `DTSTART:${onsetLocal(tr).stamp}`, `TZOFFSETFROM:${offsetText(tr.from)}`, `TZOFFSETTO:${offsetText(tr.to)}`, `END:${kind}`);
  }
  for (const tr of ruled) {
    const kind = isDaylight(tr, ruled) ? 'DAYLIGHT' : 'STANDARD';
    const rule = yearlyRuleOf(tr);
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${onsetLocal(tr).stamp}`,
      `TZOFFSETFROM:${offsetText(tr.from)}`,
      `TZOFFSETTO:${offsetText(tr.to)}`,
      `RRULE:FREQ=YEARLY;BYMONTH=${rule.month};BYDAY=${rule.byDay}`,
      `END:${kind}`,
    );
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

/**
 * The spring-forward gaps of a zone in [fromYear, toYear]: local wall clocks in
 * [localStart, localEnd) do not exist (both as ms of a UTC-read local clock); `at` is where the
 * gap ends, the instant Chime fires a time that falls in it.
 */
export function gapsBetween(zone: string, fromYear: number, toYear: number): Array<{ at: number; localStart: number; localEnd: number }> {
  return transitionsBetween(zone, fromYear, toYear)
    .filter((t) => t.to > t.from)
    .map((t) => ({ at: t.at, localStart: t.at + t.from, localEnd: t.at + t.to }));
}

/** The local date (`YYYY-MM-DD`) of an instant in a zone. */
export function localDateOf(ms: number, zone: string): string {
  const p = zonedParts(ms, zone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}
