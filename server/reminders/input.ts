/**
 * Input rules of a reminder, the same for the API and the bot: message, recurrence, local date,
 * wall-clock time and zone. Each failure is an AppError with a stable code (README "Response style").
 */
import type { RecurrenceType } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { localTimeString, parseDate } from '../time/zoned.ts';

/** The recurrence presets (README "Time" says what each one means). */
export const RECURRENCES: readonly RecurrenceType[] = ['ONCE', 'YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'WORKDAYS', 'WEEKEND'];
/** Discord's message limit (README "Limits SPEC does not give"). */
export const MAX_MESSAGE_LENGTH = 2000;
/** Keeps one account's list (and the memory to serve it) bounded. */
export const MAX_REMINDERS_PER_ACCOUNT = 10_000;

export function parseRecurrence(value: unknown): RecurrenceType {
  if (value === undefined || value === null || value === '') return 'ONCE';
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  const found = RECURRENCES.find((r) => r === upper);
  if (!found) throw new AppError('INVALID_RECURRENCE', `Recurrence must be one of ${RECURRENCES.join(', ')}`);
  return found;
}

export function parseMessage(value: unknown): string {
  const message = typeof value === 'string' ? value.trim() : '';
  // A message of only invisible characters reads as empty wherever it is delivered: controls
  // (NUL included), format characters (zero-width space/joiners, word joiner, BOM, bidi marks,
  // tags), lone surrogates, separators and whitespace, the other default-ignorable code points
  // (variation selectors, Hangul fillers) and the blank braille pattern. Visible text is kept as is.
  if (/^[\p{Cc}\p{Cf}\p{Cs}\p{Z}\s\p{Default_Ignorable_Code_Point}\u2800]*$/u.test(message)) {
    throw new AppError('MESSAGE_REQUIRED', 'Message is required');
  }
  if ([...message].length > MAX_MESSAGE_LENGTH) throw new AppError('MESSAGE_TOO_LONG', `Message must be at most ${MAX_MESSAGE_LENGTH} characters`);
  return message;
}

/** A real calendar date `YYYY-MM-DD`, as stored. */
export function parseLocalDate(value: unknown): string {
  const date = typeof value === 'string' ? value.trim() : '';
  if (!parseDate(date)) throw new AppError('INVALID_DATE', 'Please select a date (YYYY-MM-DD, a real calendar date)');
  return date;
}

/**
 * A 24-hour wall-clock time, stored as `HH:MM`, or `HH:MM:SS` when the seconds matter (the bot's
 * "in 10 minutes" keeps them).
 */
export function parseLocalTime(value: unknown): string {
  const m = typeof value === 'string' ? /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim()) : null;
  const [hour, minute, second] = m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : [NaN, NaN, NaN];
  if (!m || hour > 23 || minute > 59 || second > 59) throw new AppError('INVALID_TIME', 'Time must be HH:MM (24-hour)');
  return localTimeString(hour, minute, second);
}
