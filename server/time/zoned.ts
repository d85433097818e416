/**
 * Wall-clock <-> instant conversion in IANA zones, on top of Intl only (no data files to ship).
 * Rules Chime promises (see docs/time.md "How a reminder keeps time"):
 *  - a wall-clock time that does not exist (spring-forward gap) maps to the instant the gap ends;
 *  - a wall-clock time that happens twice (fall-back overlap) maps to the earlier instant.
 */

export interface WallClock {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

export interface ZonedParts extends Required<WallClock> {
  /** 0 = Sunday ... 6 = Saturday */
  weekday: number;
}

import { preferredZoneName } from './zone-names.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const validZones = new Map<string, string | null>();

/**
 * The spelling Chime stores for an IANA zone id (as chosen, case fixed, legacy aliases under
 * their modern name: see zone-names.ts), or null when it is not one.
 */
export function canonicalTimeZone(zone: unknown): string | null {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64) return null;
  if (validZones.has(zone)) return validZones.get(zone) ?? null;
  let result: string | null = null;
  // Only Area/Location names and UTC: offsets like "+05:00" are not zones a person lives in.
  if (/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) {
    try {
      result = preferredZoneName(zone, new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone);
    } catch {
      result = null;
    }
  }
  validZones.set(zone, result);
  return result;
}

/** Date.UTC without its "years 0-99 mean 1900-1999" quirk. */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (year >= 100 || year < 0) return ms;
  const d = new Date(ms);
  d.setUTCFullYear(year);
  return d.getTime();
}

// en-US numeric output, e.g. "3/29/2026 AD, 03:00:00". Parsing the string is about 3x faster than
// formatToParts; anything that does not match (another ICU layout) falls back to formatToParts.
const FORMAT_RE = /^(\d{1,2})\/(\d{1,2})\/(\d{1,6}) (AD|BC), (\d{2}):(\d{2}):(\d{2})$/;

export function zonedParts(instantMs: number, timeZone: string): ZonedParts {
  const f = formatterFor(timeZone);
  const m = FORMAT_RE.exec(f.format(instantMs));
  let out: Required<WallClock>;
  if (m) {
    const y = +m[3]!;
    out = { year: m[4] === 'BC' ? 1 - y : y, month: +m[1]!, day: +m[2]!, hour: +m[5]!, minute: +m[6]!, second: +m[7]! };
  } else {
    const parts = f.formatToParts(new Date(instantMs));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    let year = get('year');
    if (parts.find((p) => p.type === 'era')?.value === 'BC') year = 1 - year;
    out = { year, month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
  }
  const days = Math.floor(utcMs(out.year, out.month, out.day) / 86_400_000);
  return { year: out.year, month: out.month, day: out.day, hour: out.hour, minute: out.minute, second: out.second, weekday: (((days + 4) % 7) + 7) % 7 };
}

/** Offset of the zone from UTC at an instant, in milliseconds (Paris in winter: +3_600_000). */
export function offsetMs(instantMs: number, timeZone: string): number {
  const p = zonedParts(instantMs, timeZone);
  const asUtc = utcMs(p.year, p.month, p.day, p.hour, p.minute, p.second);
  return asUtc - (instantMs - (((instantMs % 1000) + 1000) % 1000));
}

function sameWallClock(a: ZonedParts, b: Required<WallClock>): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === b.second;
}

/** The instant a wall-clock time in a zone stands for, with the gap and overlap rules above. */
export function wallClockToInstant(wall: WallClock, timeZone: string): number {
  // `second: undefined` must mean 0 too (a spread would copy the undefined over the default).
  const w: Required<WallClock> = { ...wall, second: wall.second ?? 0 };
  const local = utcMs(w.year, w.month, w.day, w.hour, w.minute, w.second);
  const DAY = 86_400_000;
  const before = offsetMs(local - DAY, timeZone);
  const after = offsetMs(local + DAY, timeZone);
  const candidates = [...new Set([before, after, offsetMs(local, timeZone)])]
    .map((o) => local - o)
    .filter((u) => sameWallClock(zonedParts(u, timeZone), w))
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0]!;
  // In a gap: find the first instant carrying the later offset, between the two readings.
  let lo = Math.min(local - before, local - after);
  let hi = Math.max(local - before, local - after);
  const target = offsetMs(hi, timeZone);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (offsetMs(mid, timeZone) === target) hi = mid;
    else lo = mid;
  }
  return hi - (hi % 1000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * `YYYY-MM-DD` and `HH:MM` (`HH:MM:SS` when the seconds are not zero) that an instant reads in a
 * zone: for turning a relative time ("in 10 minutes") into what a reminder stores. Never use it to
 * read a stored reminder's time back from its instant.
 */
export function instantToDateTime(instantMs: number, timeZone: string): { date: string; time: string } {
  return wallClockStrings(zonedParts(instantMs, timeZone));
}

/** A wall clock as a reminder stores it: `YYYY-MM-DD`, and `HH:MM` (`HH:MM:SS` when the seconds are not zero). */
export function wallClockStrings(w: WallClock): { date: string; time: string } {
  return { date: `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`, time: localTimeString(w.hour, w.minute, w.second ?? 0) };
}

/** `HH:MM`, or `HH:MM:SS` when the seconds are not zero. */
export function localTimeString(hour: number, minute: number, second = 0): string {
  return `${pad(hour)}:${pad(minute)}${second ? `:${pad(second)}` : ''}`;
}

/** Parses a real calendar date `YYYY-MM-DD`; null for anything else (2026-02-30 included). */
export function parseDate(value: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
