/**
 * Input rules of a reminder, the same for the API and the bot: message, recurrence, local date,
 * wall-clock time and zone. Each failure is an AppError with a stable code (docs/decisions/specification-gaps.md).
 */
import type { RecurrenceType, StoredRecurrence } from '../db/database.ts';
import { AppError, badRequest } from '../errors.ts';
import { formatRRule, parseRRule, type ParsedRRule } from '../time/rrule.ts';
import { localTimeString, parseDate } from '../time/zoned.ts';
import { MAX_ALERT_MINUTES, MAX_ALERTS } from '../scheduler/alerts.ts';

/** The recurrence presets (docs/time.md "How a reminder keeps time" says what each one means). */
export const RECURRENCES: readonly RecurrenceType[] = ['ONCE', 'YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'WORKDAYS', 'WEEKEND'];
/** Discord's message limit (docs/decisions/specification-gaps.md). */
export const MAX_MESSAGE_LENGTH = 2000;
/** Keeps one account's list (and the memory to serve it) bounded. */
export const MAX_REMINDERS_PER_ACCOUNT = 10_000;

/** A rule longer than this is no rule a person wrote. */
export const MAX_RRULE_LENGTH = 500;

export function parseRecurrence(value: unknown): StoredRecurrence {
  if (value === undefined || value === null || value === '') return 'ONCE';
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (upper === 'CUSTOM') return 'CUSTOM';
  const found = RECURRENCES.find((r) => r === upper);
  if (!found) throw new AppError('INVALID_RECURRENCE', `Recurrence must be one of ${RECURRENCES.join(', ')} or CUSTOM (with rrule)`);
  return found;
}

/**
 * The `rrule` of a CUSTOM reminder: an RFC 5545 RRULE value (an `RRULE:` prefix is tolerated),
 * refused with RRULE_INVALID naming the part at fault. Returns the parsed rule and its canonical
 * text, which is what gets stored.
 */
export function parseRRuleInput(value: unknown): { rule: ParsedRRule; text: string } {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw new AppError('RRULE_INVALID', 'rrule: a CUSTOM recurrence needs an RRULE value such as FREQ=WEEKLY;BYDAY=MO,WE');
  }
  if (typeof value !== 'string') throw new AppError('RRULE_INVALID', 'rrule must be a string');
  if (value.length > MAX_RRULE_LENGTH) throw new AppError('RRULE_INVALID', `rrule must be at most ${MAX_RRULE_LENGTH} characters`);
  const parsed = parseRRule(value.trim().replace(/^RRULE:/i, ''));
  if (!parsed.ok) throw badRequest('RRULE_INVALID', `rrule ${parsed.part}: ${parsed.message}`, { part: parsed.part });
  return { rule: parsed.rule, text: formatRRule(parsed.rule) };
}

/** The repetition of a reminder: a preset (rrule absent or null) or CUSTOM with its rule. */
export function parseRepetition(recurrence: unknown, rrule: unknown): { recurrence_type: StoredRecurrence; rrule: string | null; rule: ParsedRRule | null } {
  const recurrence_type = parseRecurrence(recurrence);
  if (recurrence_type !== 'CUSTOM') {
    if (rrule !== undefined && rrule !== null && rrule !== '') {
      throw new AppError('RRULE_INVALID', `rrule: only a CUSTOM recurrence takes a rule (recurrence is ${recurrence_type})`);
    }
    return { recurrence_type, rrule: null, rule: null };
  }
  const { rule, text } = parseRRuleInput(rrule);
  return { recurrence_type, rrule: text, rule };
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

/**
 * The alerts before each occurrence (`alerts: [{ before_minutes }]`, docs/time.md "Alerts before"):
 * at most MAX_ALERTS, each a whole number of minutes from 1 to MAX_ALERT_MINUTES (28 days), no two
 * the same. Answers them largest first (the order they fire in). An alert at or after the event
 * (0 or fewer minutes before) is ALERT_AFTER_EVENT.
 */
export function parseAlerts(value: unknown): number[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new AppError('ALERTS_INVALID', 'alerts must be a list of { before_minutes }');
  if (value.length > MAX_ALERTS) throw badRequest('ALERT_TOO_MANY', `A reminder can have at most ${MAX_ALERTS} alerts`, { max: MAX_ALERTS });
  const minutes: number[] = [];
  for (const item of value) {
    const m = item && typeof item === 'object' ? (item as { before_minutes?: unknown }).before_minutes : undefined;
    if (typeof m !== 'number' || !Number.isInteger(m)) throw new AppError('ALERTS_INVALID', 'Each alert needs before_minutes, a whole number of minutes');
    if (m <= 0) throw new AppError('ALERT_AFTER_EVENT', 'An alert must come before the reminder: before_minutes must be at least 1');
    if (m > MAX_ALERT_MINUTES) throw badRequest('ALERTS_INVALID', `An alert can be at most ${MAX_ALERT_MINUTES} minutes (28 days) before the reminder`, { max: MAX_ALERT_MINUTES });
    if (minutes.includes(m)) throw new AppError('ALERTS_INVALID', `Two alerts are ${m} minutes before: each must be different`);
    minutes.push(m);
  }
  return minutes.sort((a, b) => b - a);
}
