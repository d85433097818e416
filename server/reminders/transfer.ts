/**
 * Reminders that travel: export an account's reminders (JSON, CSV, ICS) and import a file of
 * them, each row through the same checks as a create (service.ts validateNewReminder), in one
 * transaction (README "Calendar feed, export and import").
 */
import { allProperties, firstProperty, IcsSyntaxError, parseIcs, unescapeText, type IcsComponent, type IcsProperty } from '../calendar/ics.ts';
import type { RecurrenceType, StoredRecurrence } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { csvRow, CsvSyntaxError, guardCell, parseCsv, unguardCell } from '../lib/csv.ts';
import { findAccountById } from '../repositories/accounts.ts';
import { countRemindersOfAccount, insertReminder, listRemindersOfAccount, type ReminderWithDestinations } from '../repositories/reminders.ts';
import { formatRRule, parseRRule, presetToRRule, type ParsedRRule } from '../time/rrule.ts';
import { anchorInstant, isOccurrence, nextOccurrences } from '../time/series.ts';
import { canonicalTimeZone, instantToDateTime, localTimeString, wallClockToInstant } from '../time/zoned.ts';
import { remindersToIcs } from './calendar.ts';
import { MAX_REMINDERS_PER_ACCOUNT } from './input.ts';
import { firstFireFrom, ruleOf, type ScheduleFields } from './schedule.ts';
import { saveDestinations, validateNewReminder, type ReminderDeps, type ValidReminder } from './service.ts';
import { MAX_SKIPPED } from './skip.ts';

export type TransferFormat = 'json' | 'csv' | 'ics';
export type ImportMode = 'all_or_nothing' | 'valid_only';

/** A file of at most 1 MiB, of at most 10,000 reminders. */
export const MAX_IMPORT_BYTES = 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;
const PREVIEW_ROWS = 20;
/** Skipped occurrences that passed long ago are dropped, as skip.ts drops them. */
const KEEP_PAST_MS = 400 * 86_400_000;

/** One reminder as files carry it: what a create takes, plus skipped occurrences and paused. */
export interface TransferReminder {
  message: string;
  date: string;
  time: string;
  timezone: string;
  recurrence: string;
  rrule: string | null;
  exceptions: string[];
  paused: boolean;
  destinations: Array<{ type: string; metadata: Record<string, unknown> }>;
}

export const CSV_COLUMNS = ['message', 'date', 'time', 'timezone', 'recurrence', 'rrule', 'paused', 'destinations'] as const;

/** Metadata keys a client may send (the HTTP schema's); display names come from Discord, never from a file. */
const METADATA_KEYS = ['guild_id', 'channel_id', 'mention_role_id', 'url', 'platform', 'username'];

function transferOf(r: ReminderWithDestinations): TransferReminder {
  return {
    message: r.message,
    date: r.local_date,
    time: r.local_time,
    timezone: r.timezone,
    recurrence: r.recurrence_type,
    rrule: r.rrule,
    exceptions: [...ruleOf(r).skipped!].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString()),
    paused: r.is_paused === 1,
    // No secrets: a webhook gets a new signing secret when imported.
    destinations: r.destinations.map((d) => ({ type: d.type, metadata: JSON.parse(d.metadata) as Record<string, unknown> })),
  };
}

// -------------------------------------------------------------------------------------------
// Export

export interface ExportFile {
  filename: string;
  contentType: string;
  body: string;
}

export async function exportReminders(deps: Pick<ReminderDeps, 'db' | 'config'>, accountId: string, format: TransferFormat, nowMs = Date.now()): Promise<ExportFile> {
  // Oldest first: imported in this order, they list (newest first) as they did.
  const reminders = (await listRemindersOfAccount(deps.db, accountId)).reverse();
  const filename = `chime-reminders-${new Date(nowMs).toISOString().slice(0, 10)}.${format}`;
  if (format === 'json') {
    const body = JSON.stringify({ format: 'chime-reminders', version: 1, exported_at: new Date(nowMs).toISOString(), reminders: reminders.map(transferOf) }, null, 2);
    return { filename, contentType: 'application/json; charset=utf-8', body };
  }
  if (format === 'csv') {
    let body = '\uFEFF' + csvRow([...CSV_COLUMNS]);
    for (const r of reminders.map(transferOf)) {
      body += csvRow(
        [r.message, r.date, r.time, r.timezone, r.recurrence, r.rrule ?? '', r.paused ? 'true' : 'false', JSON.stringify(r.destinations)].map(guardCell),
      );
    }
    // A UTF-8 byte-order mark, so spreadsheets read the accents right.
    return { filename, contentType: 'text/csv; charset=utf-8', body };
  }
  const body = remindersToIcs(reminders, { publicUrl: deps.config.publicUrl, nowMs, name: 'Chime', chimeProperties: true });
  return { filename, contentType: 'text/calendar; charset=utf-8', body };
}

// -------------------------------------------------------------------------------------------
// Reading files into rows (unvalidated)

/** A row as read from a file; fields are checked by `prepare`. */
interface RawRow {
  row: number;
  fields: Record<string, unknown>;
  /** ICS: EXDATE instants that may not be occurrences (they exclude nothing then: dropped). */
  lenientExceptions?: boolean;
  /** A problem found while reading the row (an RRULE Chime cannot represent...). */
  error?: AppError;
}

const fileError = (message: string) => new AppError('IMPORT_FILE_INVALID', message);

function readJson(content: string): RawRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw fileError(`The file is not valid JSON: ${(err as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).reminders : undefined;
  if (!Array.isArray(list)) throw fileError('The JSON file must hold a "reminders" array (as Chime exports it) or an array of reminders');
  if (list.length > MAX_IMPORT_ROWS) throw new AppError('IMPORT_TOO_LARGE', `A file may hold at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} reminders`);
  return list.map((item, i) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? { row: i + 1, fields: item as Record<string, unknown> }
      : { row: i + 1, fields: {}, error: new AppError('VALIDATION_FAILED', 'Each reminder must be a JSON object') },
  );
}

function readCsv(content: string): RawRow[] {
  let records: string[][];
  try {
    records = parseCsv(content, MAX_IMPORT_ROWS + 1);
  } catch (err) {
    if (err instanceof CsvSyntaxError && err.message.startsWith('more than')) throw new AppError('IMPORT_TOO_LARGE', `A file may hold at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} reminders`);
    throw fileError(`The file is not valid CSV: ${(err as Error).message}`);
  }
  const header = records.shift()?.map((h) => h.trim().toLowerCase());
  if (!header || !['message', 'date', 'time'].every((c) => header.includes(c))) {
    throw fileError(`The first line of the CSV file must name its columns: ${CSV_COLUMNS.join(',')}`);
  }
  return records.map((cells, i) => {
    const fields: Record<string, unknown> = {};
    header.forEach((name, col) => {
      if ((CSV_COLUMNS as readonly string[]).includes(name)) fields[name] = unguardCell(cells[col] ?? '');
    });
    const row: RawRow = { row: i + 1, fields };
    const destinations = String(fields.destinations ?? '').trim();
    if (destinations === '') fields.destinations = [];
    else {
      try {
        fields.destinations = JSON.parse(destinations) as unknown;
      } catch {
        row.error = new AppError('INVALID_DESTINATION', 'destinations must be a JSON array such as [{"type":"discord_dm","metadata":{}}]');
      }
    }
    if (fields.rrule === '') fields.rrule = null;
    if (fields.timezone === '') delete fields.timezone;
    return row;
  });
}

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

function readIcs(content: string, accountZone: string): RawRow[] {
  let roots: IcsComponent[];
  try {
    roots = parseIcs(content);
  } catch (err) {
    if (err instanceof IcsSyntaxError) throw fileError(`The file is not a valid iCalendar file: ${err.message}`);
    throw err;
  }
  const calendars = roots.filter((c) => c.name === 'VCALENDAR');
  if (calendars.length === 0) throw fileError('The file is not an iCalendar file (no BEGIN:VCALENDAR)');
  // Modified single instances (RECURRENCE-ID) belong to their series; cancelled events are left out.
  const events = calendars
    .flatMap((c) => c.components)
    .filter((c) => c.name === 'VEVENT' && !firstProperty(c, 'RECURRENCE-ID') && firstProperty(c, 'STATUS')?.value.toUpperCase() !== 'CANCELLED');
  if (events.length > MAX_IMPORT_ROWS) throw new AppError('IMPORT_TOO_LARGE', `A file may hold at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} reminders`);
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
    try {
      fields.exceptions = exceptions ? (JSON.parse(exceptions) as unknown) : [];
      fields.destinations = destinations ? (JSON.parse(destinations) as unknown) : [];
    } catch {
      throw new AppError('VALIDATION_FAILED', 'X-CHIME-EXCEPTIONS and X-CHIME-DESTINATIONS must be JSON');
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

// -------------------------------------------------------------------------------------------
// Import

export interface ImportRequest {
  format: TransferFormat;
  content: string;
  dry_run?: boolean | undefined;
  mode?: ImportMode | undefined;
}

export interface ImportPreview {
  row: number;
  message: string;
  date: string;
  time: string;
  timezone: string;
  recurrence: string;
  rrule: string | null;
  exceptions: string[];
  paused: boolean;
  destinations: Array<{ type: string; metadata: Record<string, unknown> }>;
  next_fire_utc: string | null;
}

export interface ImportResult {
  valid: number;
  created: number;
  errors: Array<{ row: number; code: string; error: string }>;
  preview: ImportPreview[];
}

interface PreparedRow {
  row: number;
  valid: ValidReminder;
  exceptions: string;
  nextMs: number;
  paused: boolean;
}

const asString = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? undefined : String(v));

function readPaused(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false) return false;
  if (value === true) return true;
  const text = String(value).trim().toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no'].includes(text)) return false;
  throw new AppError('VALIDATION_FAILED', 'paused must be true or false');
}

function readDestinations(value: unknown): Array<{ type?: string; metadata?: Record<string, unknown> }> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new AppError('INVALID_DESTINATION', 'destinations must be an array');
  return value.map((d: unknown, i) => {
    if (!d || typeof d !== 'object') throw new AppError('INVALID_DESTINATION', `destinations[${i}] must be an object`);
    const { type, metadata } = d as { type?: unknown; metadata?: unknown };
    const meta: Record<string, unknown> = {};
    if (metadata && typeof metadata === 'object') for (const key of METADATA_KEYS) if (key in metadata) meta[key] = (metadata as Record<string, unknown>)[key];
    return { type: typeof type === 'string' ? type : '', metadata: meta };
  });
}

/** One row through the checks of a create, plus its skipped occurrences and paused flag. */
async function prepare(deps: ReminderDeps, accountId: string, raw: RawRow, nowMs: number): Promise<PreparedRow> {
  if (raw.error) throw raw.error;
  const f = raw.fields;
  const paused = readPaused(f.paused);
  const valid = await validateNewReminder(
    deps,
    accountId,
    {
      message: f.message,
      date: asString(f.date),
      time: asString(f.time),
      recurrence: f.recurrence,
      rrule: f.rrule,
      timezone: f.timezone,
      destinations: readDestinations(f.destinations),
    },
    nowMs,
  );
  const series = ruleOf({ ...valid.schedule, exceptions: '[]' });
  const list = f.exceptions === undefined || f.exceptions === null ? [] : f.exceptions;
  if (!Array.isArray(list)) throw new AppError('OCCURRENCE_INVALID', 'exceptions must be an array of ISO-8601 instants');
  const skipped = new Set<number>();
  for (const item of list) {
    const ms = typeof item === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(item) ? Date.parse(item) : NaN;
    if (Number.isNaN(ms)) throw new AppError('OCCURRENCE_INVALID', `exceptions: ${String(item).slice(0, 40)} is not an ISO-8601 instant`);
    if (!isOccurrence(series, ms)) {
      // An EXDATE that is no occurrence excludes nothing: dropping it keeps the calendar's meaning.
      if (raw.lenientExceptions) continue;
      throw new AppError('OCCURRENCE_INVALID', `exceptions: ${new Date(ms).toISOString()} is not an occurrence of this reminder`);
    }
    if (ms > nowMs - KEEP_PAST_MS) skipped.add(ms);
  }
  if ([...skipped].filter((ms) => ms > nowMs).length > MAX_SKIPPED) throw new AppError('SKIP_LIMIT', `A reminder can have at most ${MAX_SKIPPED} skipped occurrences ahead`);
  const exceptions = JSON.stringify([...skipped].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString()));
  const schedule: ScheduleFields = { ...valid.schedule, exceptions };
  const nextMs = skipped.size === 0 ? valid.nextMs : firstFireFrom(schedule, nowMs);
  if (nextMs === null) throw new AppError('REMINDER_IN_PAST', 'Every occurrence left of this reminder is skipped');
  return { row: raw.row, valid, exceptions, nextMs, paused };
}

function previewOf(p: PreparedRow): ImportPreview {
  const s = p.valid.schedule;
  return {
    row: p.row,
    message: p.valid.message,
    date: s.local_date,
    time: s.local_time,
    timezone: s.timezone,
    recurrence: s.recurrence_type,
    rrule: s.rrule ?? null,
    exceptions: JSON.parse(p.exceptions) as string[],
    paused: p.paused,
    destinations: p.valid.destinations.map((d) => ({ type: d.type, metadata: { ...d.metadata } })),
    next_fire_utc: new Date(p.nextMs).toISOString(),
  };
}

const limitMessage = `An account can hold at most ${MAX_REMINDERS_PER_ACCOUNT.toLocaleString('en-US')} reminders. Delete some first.`;

/**
 * Reads a file of reminders, checks every row as a create would, and (unless dry_run) creates
 * them in one transaction: all of them or none (all_or_nothing), or the valid ones (valid_only).
 * A file that cannot be read at all is an AppError (400); a row that fails is listed in errors.
 */
export async function importReminders(deps: ReminderDeps, accountId: string, request: ImportRequest, nowMs = Date.now()): Promise<ImportResult> {
  const mode: ImportMode = request.mode ?? 'all_or_nothing';
  if (Buffer.byteLength(request.content) > MAX_IMPORT_BYTES) throw new AppError('IMPORT_TOO_LARGE', 'The file is larger than 1 MiB');
  const account = await findAccountById(deps.db, accountId);
  if (!account) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists');
  const rows = request.format === 'json' ? readJson(request.content) : request.format === 'csv' ? readCsv(request.content) : readIcs(request.content, account.timezone);
  if (rows.length === 0) throw fileError('The file holds no reminder');

  const errors: ImportResult['errors'] = [];
  const prepared: PreparedRow[] = [];
  let room = MAX_REMINDERS_PER_ACCOUNT - (await countRemindersOfAccount(deps.db, accountId));
  for (const raw of rows) {
    try {
      const p = await prepare(deps, accountId, raw, nowMs);
      if (room <= 0) throw new AppError('REMINDER_LIMIT', limitMessage);
      room -= 1;
      prepared.push(p);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      errors.push({ row: raw.row, code: err.code, error: err.message });
    }
  }
  const result: ImportResult = { valid: prepared.length, created: 0, errors, preview: prepared.slice(0, PREVIEW_ROWS).map(previewOf) };
  if (request.dry_run || prepared.length === 0 || (mode === 'all_or_nothing' && errors.length > 0)) return result;

  await deps.db.transaction().execute(async (trx) => {
    // Checked again in the transaction: another request may have created reminders meanwhile.
    if ((await countRemindersOfAccount(trx, accountId)) + prepared.length > MAX_REMINDERS_PER_ACCOUNT) throw new AppError('REMINDER_LIMIT', limitMessage);
    for (const p of prepared) {
      const v = p.valid;
      const next = new Date(p.nextMs).toISOString();
      const row = await insertReminder(trx, {
        account_id: accountId,
        message: v.message,
        ...v.schedule,
        recurrence_type: v.schedule.recurrence_type as StoredRecurrence,
        rrule: v.schedule.rrule ?? null,
        exceptions: p.exceptions,
        remind_at_utc: new Date(v.anchorMs).toISOString(),
        is_paused: p.paused ? 1 : 0,
        snoozed_at_utc: null,
        next_fire_utc: next,
        next_occurrence_utc: next,
      });
      // New signing secrets for webhooks (shown by rotating them from the reminder's page).
      await saveDestinations(trx, row.id, v.destinations);
    }
  });
  deps.scheduler.wake();
  result.created = prepared.length;
  return result;
}

