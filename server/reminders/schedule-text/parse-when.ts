/**
 * Natural-language times ("in 10 minutes", "demain à 9h", "mañana a las 9") in the user's zone.
 *
 * chrono's own `timezone` option takes a fixed offset, which is wrong whenever the parsed date is
 * on the other side of a DST change than "now". So chrono runs in UTC on the user's *wall clock*:
 * the reference is now's wall-clock reading in the zone, presented as if it were UTC; chrono's
 * answer is then a wall-clock reading too, and zoned.ts turns it into an instant with the zone's
 * rules at that date (gap -> end of the gap, overlap -> earlier instant).
 * Relative durations ("in 2 hours") are elapsed time, not wall-clock arithmetic: they are added to
 * the real instant. An explicit zone in the text ("9am EST") wins over the user's zone.
 *
 * The answer is what a reminder stores: the local date and wall-clock time in the user's zone
 * (a time typed inside a DST gap stays as typed; the reminders service derives the instant).
 */
import * as chrono from 'chrono-node';
import { instantToDateTime, wallClockStrings, wallClockToInstant, zonedParts } from '../../time/zoned.ts';
import { languageOf } from '../../discord/i18n.ts';

const PARSERS = { en: chrono.en.casual, fr: chrono.fr.casual, es: chrono.es.casual };

export type ParsedWhen = { ok: true; instantMs: number; date: string; time: string } | { ok: false; reason: 'unparseable' };

/** An instant, as the wall clock it reads in the zone. */
const foundInstant = (instantMs: number, timeZone: string): ParsedWhen => ({ ok: true, instantMs, ...instantToDateTime(instantMs, timeZone) });

function wallAsUtc(instantMs: number, timeZone: string): number {
  const p = zonedParts(instantMs, timeZone);
  const ms = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return ms + (((instantMs % 1000) + 1000) % 1000);
}

export function parseWhen(text: string, timeZone: string, locale: string | null | undefined, nowMs = Date.now()): ParsedWhen {
  const input = text.trim().slice(0, 200);
  if (!input) return { ok: false, reason: 'unparseable' };
  const refWall = wallAsUtc(nowMs, timeZone);
  const reference = { instant: new Date(refWall), timezone: 0 };
  const option = { forwardDate: true };
  const lang = languageOf(locale);
  let results = PARSERS[lang].parse(input, reference, option);
  if (results.length === 0 && lang !== 'en') results = PARSERS.en.parse(input, reference, option);
  const result = results[0];
  if (!result) return { ok: false, reason: 'unparseable' };
  const start = result.start;
  const tags = start.tags();

  const get = (c: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second') => start.get(c) ?? 0;
  const wallMs = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  if (Number.isNaN(wallMs)) return { ok: false, reason: 'unparseable' };

  if (tags.has('result/relativeDateAndTime')) {
    // "in 10 minutes": elapsed time from now, whatever the clocks do in between.
    const delta = wallMs + (start.get('millisecond') ?? 0) - refWall;
    return foundInstant(Math.floor((nowMs + delta) / 1000) * 1000, timeZone);
  }
  if (start.isCertain('timezoneOffset')) {
    const offsetMinutes = start.get('timezoneOffset') ?? 0;
    return foundInstant(wallMs - offsetMinutes * 60_000, timeZone);
  }
  // As typed (a time inside a DST gap stays as typed): the reminder stores the wall clock.
  const wall = { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
  return { ok: true, instantMs: wallClockToInstant(wall, timeZone), ...wallClockStrings(wall) };
}
