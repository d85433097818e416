/** Reading an iCalendar file into rows, unvalidated: one row per VEVENT series (prepare-row.ts checks them). */
import { allProperties, firstProperty, IcsSyntaxError, parseIcs, unescapeText, type IcsComponent, type IcsProperty } from '../../calendar/ics.ts';
import type { RecurrenceType } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { formatRRule, parseRRule, presetToRRule, type ParsedRRule } from '../../time/rrule.ts';
import { anchorInstant, nextOccurrences } from '../../time/series.ts';
import { canonicalTimeZone, instantToDateTime, localTimeString, wallClockToInstant } from '../../time/zoned.ts';
import { fileError, MAX_IMPORT_ROWS, tooManyRowsError, type RawRow } from './formats.ts';

/** ICS date or date-time values of one property -> instants, given the zone for local ones. */
function icsInstants(prop: IcsProperty, zone: string, time: string): number[] {
  const tzid = prop.params.TZID ? canonicalTimeZone(prop.params.TZID.replace(/^\//, '')) : null;
  return prop.value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .map((v) => {
      const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(v);
      if (!m) return NaN;
      const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
      if (!existingDay(year, month, day) || Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59 || Number(m[6] ?? 0) > 59) return NaN;
      if (m[4] === undefined) {
        const [h = 0, mi = 0, s = 0] = time.split(':').map(Number);
        return wallClockToInstant({ year, month, day, hour: h, minute: mi, second: s }, zone);
      }
      const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6])];
      if (m[7]) return Date.UTC(year, month - 1, day, hour, minute, second);
      return wallClockToInstant({ year, month, day, hour, minute, second }, tzid ?? zone);
    });
}

export function readIcs(content: string, accountZone: string): RawRow[] {
  let roots: IcsComponent[];
  try {
    roots = parseIcs(content);
  } catch (err) {
    if (err instanceof IcsSyntaxError) throw fileError('ICS_SYNTAX', 'The file is not a valid iCalendar file', err.message);
    throw err;
  }
  const calendars = roots.filter((c) => c.name === 'VCALENDAR');
  if (calendars.length === 0) throw fileError('NOT_ICS', 'The file is not an iCalendar file (no BEGIN:VCALENDAR)');
  // Modified single instances (RECURRENCE-ID) belong to their series; cancelled events are left out.
  const events = calendars
    .flatMap((c) => c.components)
    .filter((c) => c.name === 'VEVENT' && !firstProperty(c, 'RECURRENCE-ID') && firstProperty(c, 'STATUS')?.value.toUpperCase() !== 'CANCELLED');
  if (events.length > MAX_IMPORT_ROWS) throw tooManyRowsError();
  return events.map((event, i) => {
    const row: RawRow = { row: i + 1, fields: {}, lenientExceptions: true };
    try {
      row.fields = icsEventFields(event, accountZone);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      row.error = err;
    }
    return row;
  });
}

const PRESETS_BY_FREQ: Partial<Record<ParsedRRule['freq'], RecurrenceType[]>> = {
  HOURLY: ['HOURLY'],
  DAILY: ['DAILY'],
  WEEKLY: ['WEEKLY', 'WORKDAYS', 'WEEKEND'],
  MONTHLY: ['MONTHLY'],
  YEARLY: ['YEARLY'],
};

/**
 * The preset a calendar's rule is, from this anchor (FREQ=YEARLY from July 4 is YEARLY, BYDAY=MO..FR
 * is WORKDAYS), when their first 30 occurrences agree and the rule never ends; else null.
 */
function presetOf(rule: ParsedRRule, anchor: { date: string; time: string; timeZone: string }): RecurrenceType | null {
  if (rule.count !== null || rule.until !== null || rule.interval !== 1) return null;
  const base = { date: anchor.date, time: anchor.time, timeZone: anchor.timeZone };
  const from = anchorInstant({ ...base, recurrence: 'ONCE' }) - 1;
  const custom = nextOccurrences({ ...base, recurrence: 'CUSTOM', rrule: rule }, from, 30);
  for (const preset of PRESETS_BY_FREQ[rule.freq] ?? []) {
    if (formatRRule(presetToRRule(preset, base)) === formatRRule(rule)) return preset;
    const theirs = nextOccurrences({ ...base, recurrence: preset }, from, 30);
    if (theirs.length === custom.length && theirs.every((t, i) => t === custom[i])) return preset;
  }
  return null;
}

/** Whether year-month-day is a day of the proleptic Gregorian calendar. */
function existingDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function icsEventFields(event: IcsComponent, accountZone: string): Record<string, unknown> {
  const text = (name: string) => {
    const p = firstProperty(event, name);
    return p ? unescapeText(p.value) : undefined;
  };
  const fields: Record<string, unknown> = { message: text('SUMMARY') ?? '' };
  const dtstart = firstProperty(event, 'X-CHIME-ANCHOR') ?? firstProperty(event, 'DTSTART');
  if (!dtstart) throw new AppError('INVALID_DATE', 'The event has no DTSTART');
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(dtstart.value.trim());
  if (!m) throw new AppError('INVALID_DATE', `DTSTART ${dtstart.value.slice(0, 40)} is not a date or date-time`);
  // A calendar day or time that does not exist (February 29 of 2031, 25:00) is the file's error, not a crash.
  if (!existingDay(Number(m[1]), Number(m[2]), Number(m[3]))) throw new AppError('INVALID_DATE', `DTSTART ${dtstart.value.slice(0, 40)} is not a day of the calendar`);
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) {
    throw new AppError('INVALID_TIME', `DTSTART ${dtstart.value.slice(0, 40)} is not a time of day`);
  }
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (m[4] === undefined) {
    // An all-day event: a reminder at 09:00 in the account's zone.
    Object.assign(fields, { date, time: '09:00', timezone: accountZone });
  } else if (m[7]) {
    const local = instantToDateTime(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])), accountZone);
    Object.assign(fields, { date: local.date, time: local.time, timezone: accountZone });
  } else {
    const tzid = dtstart.params.TZID;
    const zone = tzid ? canonicalTimeZone(tzid.replace(/^\//, '')) : accountZone;
    if (!zone) throw new AppError('INVALID_TIMEZONE', `TZID ${tzid!.slice(0, 64)} is not an IANA time zone Chime knows`);
    Object.assign(fields, { date, time: localTimeString(Number(m[4]), Number(m[5]), Number(m[6])), timezone: zone });
  }
  const zone = fields.timezone as string;
  const time = fields.time as string;

  const chimeRecurrence = text('X-CHIME-RECURRENCE');
  if (chimeRecurrence) {
    // Chime's own export: the stored repetition, skipped occurrences, paused and destinations.
    Object.assign(fields, { recurrence: chimeRecurrence, rrule: text('X-CHIME-RRULE') ?? null, paused: text('X-CHIME-PAUSED') === 'TRUE' });
    const exceptions = text('X-CHIME-EXCEPTIONS');
    const destinations = text('X-CHIME-DESTINATIONS');
    const alerts = text('X-CHIME-ALERTS');
    try {
      fields.exceptions = exceptions ? (JSON.parse(exceptions) as unknown) : [];
      fields.destinations = destinations ? (JSON.parse(destinations) as unknown) : [];
      if (alerts) fields.alerts = JSON.parse(alerts) as unknown;
    } catch {
      throw new AppError('VALIDATION_FAILED', 'X-CHIME-EXCEPTIONS, X-CHIME-DESTINATIONS and X-CHIME-ALERTS must be JSON');
    }
    return fields;
  }

  const rrules = allProperties(event, 'RRULE');
  if (rrules.length > 1) throw new AppError('RRULE_INVALID', 'rrule: an event with several RRULEs cannot be one Chime reminder');
  if (allProperties(event, 'RDATE').length > 0) throw new AppError('RRULE_INVALID', 'rrule: extra dates (RDATE) cannot be represented by a Chime repetition');
  if (rrules.length === 0) fields.recurrence = 'ONCE';
  else {
    const parsed = parseRRule(rrules[0]!.value.trim());
    if (!parsed.ok) throw new AppError('RRULE_INVALID', `rrule ${parsed.part}: ${parsed.message}`, 400, { part: parsed.part });
    const preset = presetOf(parsed.rule, { date, time, timeZone: zone });
    Object.assign(fields, preset ? { recurrence: preset, rrule: null } : { recurrence: 'CUSTOM', rrule: formatRRule(parsed.rule) });
  }
  fields.exceptions = allProperties(event, 'EXDATE').flatMap((p) => icsInstants(p, zone, time).map((ms) => (Number.isFinite(ms) ? new Date(ms).toISOString() : 'invalid')));
  fields.destinations = [];
  return fields;
}
