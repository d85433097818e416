/**
 * Calendar and zone arithmetic of the recurrence engine (rrule/expand.ts, presets and custom rules
 * alike): proleptic Gregorian day numbers, and wall clock <-> instant through
 * a small cache of zone offsets sampled on a 6-hour UTC grid. When the offsets at the grid points
 * around an instant agree, the offset is taken as constant there (this assumes no zone changes its
 * offset and back within 6 hours); otherwise the exact Intl-based helpers of zoned.ts are used.
 */
import { offsetMs, wallClockToInstant } from './zoned.ts';

export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** What the offset helpers need: a zone and its grid cache (from cacheFor). */
export interface ZoneOffsets {
  zone: string;
  cache: OffsetCache;
}

// ---------------------------------------------------------------------------------------------
// Proleptic Gregorian day numbers (days since 1970-01-01), H. Hinnant's algorithms.

export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** [year, month 1-12, day] of a day number. */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

export const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
export const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export const monthLength = (y: number, m: number) => (m === 2 && isLeap(y) ? 29 : MONTH_DAYS[m - 1]!);

/** 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export const weekdayOf = (days: number) => (((days + 4) % 7) + 7) % 7;

// ---------------------------------------------------------------------------------------------
// Zone offsets, sampled on a UTC grid and cached.

export const GRID = 6 * HOUR;
/** Real offsets lie within -12h..+14h; a little margin on both sides. */
export const MAX_EAST = 15 * HOUR;
export const MAX_WEST = 13 * HOUR;
const MAX_CACHED = 200_000;

export type OffsetCache = Map<number, number>;
const caches = new Map<string, OffsetCache>();
let cachedCount = 0;

export function cacheFor(zone: string): OffsetCache {
  let cache = caches.get(zone);
  if (!cache) {
    cache = new Map();
    caches.set(zone, cache);
  }
  return cache;
}

export function gridOffset(zone: string, cache: OffsetCache, index: number): number {
  let o = cache.get(index);
  if (o === undefined) {
    if (cachedCount >= MAX_CACHED) {
      for (const c of caches.values()) c.clear();
      cachedCount = 0;
    }
    o = offsetMs(index * GRID, zone);
    cache.set(index, o);
    cachedCount++;
  }
  return o;
}

/** Offset of the zone at an instant (ms, floored to the second like zoned.offsetMs). */
export function offsetAt(c: ZoneOffsets, t: number): number {
  const i = Math.floor(t / GRID);
  const o = gridOffset(c.zone, c.cache, i);
  if (gridOffset(c.zone, c.cache, i + 1) === o) return o;
  return offsetMs(t, c.zone);
}

/** Local day number of an instant. */
export const localDays = (c: ZoneOffsets, t: number) => Math.floor((t + offsetAt(c, t)) / DAY);

/**
 * The instant of a local wall-clock time given as "local milliseconds" (the wall clock read as
 * if it were UTC), with the gap and overlap rules of zoned.wallClockToInstant.
 */
export function localToInstant(c: ZoneOffsets, local: number): number {
  const first = Math.floor((local - MAX_EAST) / GRID);
  const last = Math.ceil((local + MAX_WEST) / GRID);
  const o = gridOffset(c.zone, c.cache, first);
  let constant = true;
  for (let i = first + 1; i <= last; i++) {
    if (gridOffset(c.zone, c.cache, i) !== o) {
      constant = false;
      break;
    }
  }
  if (constant) return local - o;
  // A transition is near: let zoned.ts decide (gap -> gap end, overlap -> earlier).
  const frac = ((local % 1000) + 1000) % 1000;
  const whole = local - frac;
  const days = Math.floor(whole / DAY);
  const [year, month, day] = civilFromDays(days);
  const s = (whole - days * DAY) / 1000;
  const t = wallClockToInstant({ year, month, day, hour: Math.floor(s / 3600), minute: Math.floor(s / 60) % 60, second: s % 60 }, c.zone);
  // In a gap the result is the transition itself, whose wall clock is not the one asked for.
  return t + offsetMs(t, c.zone) === whole ? t + frac : t;
}
