/**
 * A schedule typed in words ("every monday at 9", "demain 18h30", "el primer lunes de cada mes"),
 * read in the account's zone and language, as the fields the wizard and the bot's /remind fill:
 * the dashboard's "Type it" box (docs/dashboard.md "Creating a reminder") asks here.
 */
import { AppError } from '../../errors.ts';
import type { RecurrenceType } from '../../db/database.ts';
import { findAccountById } from '../../repositories/accounts.ts';
import type { Executor } from '../../repositories/executor.ts';

export interface ScheduleFromText {
  date: string;
  /** `HH:MM`, or `HH:MM:SS` for words such as "in 90 seconds". */
  time: string;
  recurrence: RecurrenceType | 'CUSTOM';
  rrule: string | null;
  /** The first occurrence the words mean. */
  first_occurrence_utc: string;
  timezone: string;
}

export async function readScheduleText(deps: { db: Executor }, accountId: string, text: string, nowMs = Date.now()): Promise<ScheduleFromText> {
  const account = await findAccountById(deps.db, accountId);
  if (!account) throw new AppError('NOT_AUTHENTICATED', 'Sign in again');
  // The parser (and its date library) loads on the first use, not at every start.
  const { parseSchedule } = await import('./parse-schedule.ts');
  const parsed = parseSchedule(text, account.timezone, account.locale, nowMs);
  if (!parsed.ok) {
    throw parsed.reason === 'repeat-unparseable'
      ? new AppError('SCHEDULE_REPEAT_UNREADABLE', 'The repetition in these words could not be read')
      : new AppError('SCHEDULE_UNREADABLE', 'No date or time could be read in these words');
  }
  const repeat = parsed.repeat ?? { recurrence: 'ONCE' as const, rrule: null };
  return {
    date: parsed.date,
    time: parsed.time,
    recurrence: repeat.recurrence,
    rrule: repeat.rrule,
    first_occurrence_utc: new Date(parsed.instantMs).toISOString(),
    timezone: account.timezone,
  };
}
