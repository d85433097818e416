/**
 * When a reminder fires: the wizard's preview of a reminder being written, and a saved reminder's
 * next occurrences or those in a calendar range. Part of the reminders service (service.ts).
 */
import { AppError } from '../errors.ts';
import { nextOccurrences, occurrencesBetween } from '../time/series.ts';
import { firstFireFrom, ruleOf, type ScheduleFields } from './schedule.ts';
import { getReminder, readSchedule, type ReminderDeps, type ReminderInput } from './service.ts';

const toIso = (list: number[]) => list.map((ms) => new Date(ms).toISOString());

/** The next `count` (1-50, default 5) firings a reminder with these fields would have: the wizard's preview. */
export async function previewOccurrences(
  deps: Pick<ReminderDeps, 'db'>,
  accountId: string,
  input: Pick<ReminderInput, 'date' | 'time' | 'recurrence' | 'rrule' | 'timezone'> & { count?: number | undefined },
  nowMs = Date.now(),
): Promise<{ occurrences: string[]; schedule: ScheduleFields }> {
  const schedule = await readSchedule(deps, accountId, input, null);
  const count = Math.min(Math.max(input.count ?? 5, 1), 50);
  const first = firstFireFrom(schedule, nowMs);
  if (first === null) return { occurrences: [], schedule };
  return { occurrences: toIso([first, ...nextOccurrences(ruleOf(schedule), first, count - 1)]), schedule };
}

/** Calendar ranges may span at most this long. */
const MAX_RANGE_MS = 400 * 86_400_000;

export type OccurrenceQuery = { count?: number | undefined; from?: string | undefined; to?: string | undefined };

/**
 * A reminder's occurrences: in [from, to) for the calendar (at most 2,000), or the next `count`
 * (1-100, default 5) from its pending occurrence (from now while paused).
 */
export async function listOccurrences(deps: Pick<ReminderDeps, 'db'>, accountId: string, id: string, query: OccurrenceQuery, nowMs = Date.now()): Promise<string[]> {
  const r = await getReminder(deps, accountId, id);
  const rule = ruleOf(r);
  if (query.from !== undefined || query.to !== undefined) {
    const fromMs = query.from ? Date.parse(query.from) : NaN;
    const toMs = query.to ? Date.parse(query.to) : NaN;
    if (Number.isNaN(fromMs) || Number.isNaN(toMs) || toMs <= fromMs) throw new AppError('VALIDATION_FAILED', 'from and to must be ISO-8601 date-times with from < to');
    if (toMs - fromMs > MAX_RANGE_MS) throw new AppError('VALIDATION_FAILED', 'The range may span at most 400 days');
    return toIso(occurrencesBetween(rule, fromMs, toMs, 2000));
  }
  const n = Math.min(Math.max(query.count ?? 5, 1), 100);
  if (r.is_paused) return toIso(nextOccurrences(rule, nowMs, n));
  if (!r.next_occurrence_utc) return [];
  const first = Date.parse(r.next_occurrence_utc);
  return toIso([first, ...nextOccurrences(rule, first, n - 1)]);
}
