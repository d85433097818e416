/**
 * Reminders as an RFC 5545 calendar (the calendar feed and the ICS export): one VEVENT per
 * reminder whose expansion by any RFC 5545 client gives Chime's own occurrences (series.ts).
 *
 *  - DTSTART is the series' first occurrence at the reminder's wall-clock time, with TZID = its
 *    zone and a VTIMEZONE per zone (vtimezone.ts). A WORKDAYS reminder anchored on a Saturday
 *    starts on the Monday: RFC 5545 counts DTSTART as an occurrence even when it does not match
 *    the rule, Chime (like python-dateutil) does not.
 *  - Presets become their equivalent rule (presetToRRule); custom rules go as stored, a date
 *    UNTIL ("through that local day") as the UTC instant that day ends, since RFC 5545 wants a
 *    UTC UNTIL with a zoned DTSTART.
 *  - Spring-forward gaps: Chime fires a time that does not exist at the end of the gap (02:30 ->
 *    03:00 in Paris); RFC 5545 reads it with the offset before the gap (03:30). Each such
 *    occurrence in the years written out is an EXDATE of the nominal time plus an RDATE of the
 *    instant Chime fires. Fall-back overlaps agree (both take the first).
 *  - HOURLY and MINUTELY series step in absolute time in Chime: their DTSTART is in UTC, so
 *    clients step in absolute time too (unless the rule filters by day or month, which must be
 *    read on the local calendar: then DTSTART is local, and on DST days a client may differ).
 *  - Skipped occurrences are EXDATEs.
 */
import { escapeText, localStamp, paramValue, serializeLines, utcStamp } from '../calendar/ics.ts';
import { gapsBetween, localDateOf, transitionsBetween, vtimezoneLines } from '../calendar/vtimezone.ts';
import type { RecurrenceType, Reminder } from '../db/database.ts';
import { DAY } from '../time/civil.ts';
import { formatRRule, presetToRRule, type ParsedRRule } from '../time/rrule.ts';
import { firstOccurrence, isOccurrence } from '../time/series.ts';
import { wallClockToInstant, zonedParts } from '../time/zoned.ts';
import { ruleOf } from './schedule.ts';
import { parseStoredAlerts } from '../scheduler/alerts.ts';
import { BoundedMemo } from '../lib/bounded-memo.ts';
import { reminderPageUrl } from '../lib/reminder-page-url.ts';

export type CalendarReminder = Pick<
  Reminder,
  'id' | 'message' | 'local_date' | 'local_time' | 'timezone' | 'recurrence_type' | 'rrule' | 'exceptions' | 'is_paused' | 'updated_at'
> & { destinations?: ReadonlyArray<{ type: string; metadata: string }>; alerts?: string | undefined };

export interface CalendarOptions {
  /** Chime's address: links to each reminder, and the host part of UIDs. */
  publicUrl: string;
  nowMs: number;
  /** The calendar's name (X-WR-CALNAME). */
  name: string;
  /**
   * Export: add X-CHIME-* properties (the preset, the stored rule and anchor, paused, the
   * destinations) so that Chime's import recreates each reminder exactly. Other readers ignore them.
   */
  chimeProperties?: boolean;
}

/**
 * Years after the current one (or the reminder's start, if later) written out explicitly: zone
 * changes, gap and overlap corrections, replacement days. Past them a client goes on with the
 * zone's yearly rule and its own reading of gaps, which may differ on those days.
 */
export const YEARS_AHEAD = 20;

function secondsOfDay(time: string): number {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  return (h * 3600 + m * 60 + s) * 1000;
}

function isAbsolute(recurrence: string, rule: ParsedRRule | null): boolean {
  if (recurrence === 'HOURLY') return true;
  if (!rule || (rule.freq !== 'HOURLY' && rule.freq !== 'MINUTELY')) return false;
  return !rule.byDay && !rule.byMonth && !rule.byMonthDay;
}

interface RuleText {
  text: string | null;
  /**
   * Presets whose day some months or years lack (MONTHLY on the 29th/30th, YEARLY on Feb 29)
   * fire on the last day instead. RFC 5545 says that with BYSETPOS=-1 (presetToRRule), but
   * several clients (ical.js among them) ignore BYSETPOS next to BYMONTHDAY: the rule keeps the
   * day itself and the replacement days are RDATEs over the years written out.
   */
  shortDay: { day: number; month: number | null } | null;
}

/** The rule to write: the preset's equivalent, or the stored one with a date UNTIL as a UTC instant. */
function ruleText(r: CalendarReminder, rule: ParsedRRule | null): RuleText {
  if (r.recurrence_type === 'ONCE') return { text: null, shortDay: null };
  if (r.recurrence_type !== 'CUSTOM' || !rule) {
    const [, month = 1, day = 1] = r.local_date.split('-').map(Number);
    if (r.recurrence_type === 'MONTHLY' && (day === 29 || day === 30)) return { text: `FREQ=MONTHLY;BYMONTHDAY=${day}`, shortDay: { day, month: null } };
    if (r.recurrence_type === 'YEARLY' && month === 2 && day === 29) return { text: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', shortDay: { day, month: 2 } };
    return { text: formatRRule(presetToRRule(r.recurrence_type as RecurrenceType, { date: r.local_date, time: r.local_time, timeZone: r.timezone })), shortDay: null };
  }
  if (rule.until?.kind !== 'date') return { text: formatRRule(rule), shortDay: null };
  const [y, m, d] = rule.until.date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d) + DAY);
  const endMs = wallClockToInstant({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0 }, r.timezone) - 1000;
  return { text: formatRRule({ ...rule, until: { kind: 'utc', ms: endMs } }), shortDay: null };
}

const isoDate = (days: number) => new Date(days * DAY).toISOString().slice(0, 10);

interface BuiltEvent {
  lines: string[];
  /** The lines folded and joined, once. */
  text?: string;
  zone: string;
  fromYear: number;
}

function buildEvent(r: CalendarReminder, options: CalendarOptions, host: string, toYear: number): BuiltEvent | null {
  const series = ruleOf(r);
  const first = firstOccurrence(series);
  if (first === null) return null;
  const zone = r.timezone;
  const tz = `;TZID=${paramValue(zone)}`;
  const absolute = isAbsolute(r.recurrence_type, series.rrule ?? null);
  const { text: rrule, shortDay } = ruleText(r, series.rrule ?? null);
  const firstDate = localDateOf(first, zone);
  const lines = [
    'BEGIN:VEVENT',
    `UID:${r.id}@${host}`,
    `DTSTAMP:${utcStamp(Date.parse(r.updated_at) || 0)}`,
    `SUMMARY:${escapeText(r.message)}`,
  ];
  const link = reminderPageUrl(options.publicUrl, r.id);
  lines.push(`DESCRIPTION:${escapeText(`${r.message}\n\n${link}`)}`, `URL:${link}`);

  let dtstart: string;
  if (absolute) dtstart = `DTSTART:${utcStamp(first)}`;
  else if (!rrule) {
    // A one-off: the instant it fires, read in its zone (an existing wall clock even in a gap).
    const p = zonedParts(first, zone);
    dtstart = `DTSTART${tz}:${localStamp(localDateOf(first, zone), `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}:${String(p.second).padStart(2, '0')}`)}`;
  } else dtstart = `DTSTART${tz}:${localStamp(firstDate, r.local_time)}`;
  lines.push(dtstart);
  if (rrule) lines.push(`RRULE:${rrule}`);

  const exdates = new Set<string>();
  const rdates = new Set<number>();
  const skipped = series.skipped ?? new Set<number>();
  const wall = secondsOfDay(r.local_time);
  const [h = 0, mi = 0, sec = 0] = r.local_time.split(':').map(Number);
  const nominal = (ms: number) => (absolute ? utcStamp(ms) : localStamp(localDateOf(ms, zone), r.local_time));
  const fromYear = new Date(first).getUTCFullYear();
  if (rrule && !absolute) {
    const raw = { ...series, skipped: new Set<number>() };
    // Spring-forward gaps: the nominal time out, the instant Chime fires in.
    for (const gap of gapsBetween(zone, fromYear, toYear)) {
      if (gap.at < first) continue;
      for (const day of new Set([Math.floor(gap.localStart / DAY), Math.floor((gap.localEnd - 1) / DAY)])) {
        const local = day * DAY + wall;
        if (local < gap.localStart || local >= gap.localEnd || !isOccurrence(raw, gap.at)) continue;
        exdates.add(localStamp(isoDate(day), r.local_time));
        if (!skipped.has(gap.at)) rdates.add(gap.at);
      }
    }
    // Fall-back overlaps: RFC 5545 and Chime take the first reading of a time that happens twice;
    // some clients (ical.js) take the second. Excluding the second reading by its instant and
    // adding the first changes nothing for the former and corrects the latter.
    for (const tr of transitionsBetween(zone, fromYear, toYear)) {
      if (tr.to >= tr.from || tr.at < first) continue;
      const start = tr.at + tr.to;
      const end = tr.at + tr.from;
      for (const day of new Set([Math.floor(start / DAY), Math.floor((end - 1) / DAY)])) {
        const local = day * DAY + wall;
        if (local < start || local >= end) continue;
        const firstReading = local - tr.from;
        if (skipped.has(firstReading) || !isOccurrence(raw, firstReading)) continue;
        exdates.add(utcStamp(local - tr.to));
        rdates.add(firstReading);
      }
    }
    // Days some months lack (see RuleText).
    if (shortDay) {
      for (let y = fromYear; y <= toYear; y++) {
        for (let m = shortDay.month ?? 1; m <= (shortDay.month ?? 12); m++) {
          const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
          if (last >= shortDay.day) continue;
          const at = wallClockToInstant({ year: y, month: m, day: last, hour: h, minute: mi, second: sec }, zone);
          if (at >= first && !skipped.has(at) && isOccurrence(raw, at)) rdates.add(at);
        }
      }
    }
  }
  for (const ms of [...skipped].sort((a, b) => a - b)) {
    // A skipped replacement day is simply not an RDATE: an EXDATE that matches nothing the rule
    // makes would only confuse clients (ical.js then misses the next EXDATE).
    if (ms < first || (shortDay && zonedParts(ms, zone).day !== shortDay.day)) continue;
    exdates.add(nominal(ms));
  }
  for (const ex of exdates) lines.push(absolute || ex.endsWith('Z') ? `EXDATE:${ex}` : `EXDATE${tz}:${ex}`);
  for (const ms of [...rdates].sort((a, b) => a - b)) lines.push(`RDATE:${utcStamp(ms)}`);

  if (options.chimeProperties) {
    lines.push(`X-CHIME-RECURRENCE:${r.recurrence_type}`);
    if (r.rrule) lines.push(`X-CHIME-RRULE:${r.rrule}`);
    lines.push(`X-CHIME-ANCHOR${tz}:${localStamp(r.local_date, r.local_time)}`);
    lines.push(`X-CHIME-PAUSED:${r.is_paused ? 'TRUE' : 'FALSE'}`);
    lines.push(`X-CHIME-EXCEPTIONS:${escapeText(JSON.stringify([...skipped].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString())))}`);
    const destinations = (r.destinations ?? []).map((d) => ({ type: d.type, metadata: JSON.parse(d.metadata) as unknown }));
    lines.push(`X-CHIME-DESTINATIONS:${escapeText(JSON.stringify(destinations))}`);
    // The alerts as the API takes them (the VALARMs below are for calendar apps).
    const alerts = parseStoredAlerts(r.alerts);
    if (alerts.length > 0) lines.push(`X-CHIME-ALERTS:${escapeText(JSON.stringify(alerts.map((m) => ({ before_minutes: m }))))}`);
  }
  lines.push('BEGIN:VALARM', 'ACTION:DISPLAY', `DESCRIPTION:${escapeText(r.message)}`, 'TRIGGER:PT0S', 'END:VALARM');
  // One more per alert before the event (docs/time.md "Alerts before"), e.g. TRIGGER:-PT15M.
  for (const m of parseStoredAlerts(r.alerts)) lines.push('BEGIN:VALARM', 'ACTION:DISPLAY', `DESCRIPTION:${escapeText(r.message)}`, `TRIGGER:-PT${m}M`, 'END:VALARM');
  lines.push('END:VEVENT');
  return { lines, zone, fromYear: Math.min(new Date(first).getUTCFullYear(), Number(r.local_date.slice(0, 4))) };
}

/**
 * Built events by everything they are made of: a feed is rebuilt whenever the database changed
 * (any write), while its reminders mostly did not. Bounded; cleared when full.
 */
const eventCache = new BoundedMemo<BuiltEvent | null>(50_000);

function cachedEvent(r: CalendarReminder, options: CalendarOptions, host: string, toYear: number): BuiltEvent | null {
  const key = JSON.stringify([r.id, r.message, r.local_date, r.local_time, r.timezone, r.recurrence_type, r.rrule, r.exceptions, r.is_paused, r.updated_at, r.alerts ?? '[]', options.publicUrl, !!options.chimeProperties, toYear, options.chimeProperties ? r.destinations : null]);
  return eventCache.get(key, () => {
    const built = buildEvent(r, options, host, toYear);
    if (built) built.text = serializeLines(built.lines);
    return built;
  });
}

/** The calendar text (CRLF, folded) of these reminders. Reminders without any occurrence are left out. */
export function remindersToIcs(reminders: readonly CalendarReminder[], options: CalendarOptions): string {
  const host = new URL(options.publicUrl).hostname || 'chime';
  const nowYear = new Date(options.nowMs).getUTCFullYear();
  const events: BuiltEvent[] = [];
  const zones = new Map<string, { from: number; to: number }>();
  for (const r of reminders) {
    const startYear = Number(r.local_date.slice(0, 4));
    const toYear = Math.max(nowYear, startYear) + YEARS_AHEAD;
    let built: BuiltEvent | null;
    try {
      built = cachedEvent(r, options, host, toYear);
    } catch {
      // A row the time code refuses (a zone this ICU no longer knows): leave it out of the calendar.
      continue;
    }
    if (!built) continue;
    events.push(built);
    const range = zones.get(built.zone);
    zones.set(built.zone, { from: Math.min(range?.from ?? Infinity, built.fromYear), to: Math.max(range?.to ?? 0, toYear) });
  }
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Chime//Reminders//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', `X-WR-CALNAME:${escapeText(options.name)}`];
  for (const [zone, range] of [...zones.entries()].sort(([a], [b]) => a.localeCompare(b))) lines.push(...vtimezoneLines(zone, range.from, range.to));
  return serializeLines(lines) + events.map((e) => e.text ?? serializeLines(e.lines)).join('') + 'END:VCALENDAR\r\n';
}

