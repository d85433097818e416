/** Checking one imported row as a create would (service.ts validateNewReminder), with what a file adds: skipped occurrences and paused. */
import { Value } from '@sinclair/typebox/value';
import { AppError } from '../../errors.ts';
import { DESTINATION_METADATA_KEYS, DestinationMetadataBody } from '../../schemas/destination-metadata.ts';
import { isOccurrence } from '../../time/series.ts';
import { firstFireFrom, ruleOf, type ScheduleFields } from '../schedule.ts';
import { validateNewReminder, type ReminderDeps, type ValidReminder } from '../service.ts';
import { MAX_SKIPPED } from '../skip.ts';
import type { RawRow } from './formats.ts';

/** Skipped occurrences that passed long ago are dropped, as skip.ts drops them. */
const KEEP_PAST_MS = 400 * 86_400_000;


export interface PreparedRow {
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
    if (metadata && typeof metadata === 'object') for (const key of DESTINATION_METADATA_KEYS) if (key in metadata) meta[key] = (metadata as Record<string, unknown>)[key];
    // The limits of the HTTP API hold for a file too (a 5,000-character URL...).
    const problem = Value.Errors(DestinationMetadataBody, meta).First();
    if (problem) throw new AppError('INVALID_DESTINATION', `destinations[${i}].metadata${problem.path.replace(/\//g, '.')} ${problem.message.toLowerCase()}`);
    return { type: typeof type === 'string' ? type : '', metadata: meta };
  });
}

/** One row through the checks of a create, plus its skipped occurrences and paused flag. */
export async function prepareRow(deps: ReminderDeps, accountId: string, raw: RawRow, nowMs: number): Promise<PreparedRow> {
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
      alerts: f.alerts,
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
