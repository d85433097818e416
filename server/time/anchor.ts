/**
 * A reminder's anchor (docs/time.md "Custom repetition"): the local date and wall-clock time the user
 * chose, in an IANA zone. The recurrence engine (rrule/expand.ts) starts from it,
 * parsed and checked here once.
 */
import { DAY, cacheFor, daysFromCivil, localToInstant, monthLength, type ZoneOffsets } from './civil.ts';
import { canonicalTimeZone } from './zoned.ts';

/** The reminder's wall clock: local date `YYYY-MM-DD`, time `HH:MM` or `HH:MM:SS`, IANA zone. */
export interface WallClockAnchor {
  date: string;
  time: string;
  timeZone: string;
}

/** The anchor in numbers, with its zone's offset cache. */
export interface CompiledAnchor extends ZoneOffsets {
  /** The instant of the anchor's wall clock (gap -> gap end, overlap -> earlier). */
  anchorMs: number;
  /** Local day number, year, month and day of the anchor. */
  aDays: number;
  aYear: number;
  aMonth: number;
  aDay: number;
  /** Milliseconds since local midnight of the anchor's wall-clock time (as chosen, even on a gap day). */
  timeOfDay: number;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

function checkedDate(match: RegExpExecArray | null, date: unknown): [number, number, number] {
  if (!match) throw new RangeError(`invalid anchor date: ${String(date)}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > monthLength(year, month)) throw new RangeError(`invalid anchor date: ${String(date)}`);
  return [year, month, day];
}

/** [year, month, day] of an anchor date; RangeError when it is not a real `YYYY-MM-DD` date. */
export function parseAnchorDate(date: unknown): [number, number, number] {
  return checkedDate(typeof date === 'string' ? DATE_RE.exec(date) : null, date);
}

/** Parses and checks the anchor (RangeError naming what is wrong: the date, the time, then the zone). */
export function compileAnchor(anchor: WallClockAnchor): CompiledAnchor {
  const { date, time, timeZone } = anchor;
  const d = typeof date === 'string' ? DATE_RE.exec(date) : null;
  const t = typeof time === 'string' ? TIME_RE.exec(time) : null;
  if (!d) throw new RangeError(`invalid anchor date: ${String(date)}`);
  if (!t) throw new RangeError(`invalid anchor time: ${String(time)}`);
  const [year, month, day] = checkedDate(d, date);
  const [hour, minute, second] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) throw new RangeError(`invalid anchor time: ${String(time)}`);
  const zone = canonicalTimeZone(timeZone);
  if (zone === null) throw new RangeError(`invalid time zone: ${String(timeZone)}`);
  const aDays = daysFromCivil(year, month, day);
  const timeOfDay = ((hour * 60 + minute) * 60 + second) * 1000;
  const c: CompiledAnchor = { zone, cache: cacheFor(zone), anchorMs: 0, aDays, aYear: year, aMonth: month, aDay: day, timeOfDay };
  c.anchorMs = localToInstant(c, aDays * DAY + timeOfDay);
  return c;
}
