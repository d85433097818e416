import i18n from './i18n';
import { relativeParts } from './relative-time';

/** Formatting with Intl in the current UI language and a given IANA zone. */
function locale(): string {
  return i18n.language || 'en';
}

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

function safeZone(timeZone?: string): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export function formatDate(value: string | number | Date, timeZone?: string, style: 'short' | 'medium' | 'long' | 'full' = 'medium'): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: style, timeZone: safeZone(timeZone) }).format(toDate(value));
}

/**
 * One time-of-day format per language: English keeps its 12-hour clock with two-digit hours
 * ("08:00 AM"); French and Spanish use the 24-hour clock their readers expect ("08:00", "23:15").
 * Every time the dashboard shows, alone or with a date, goes through these options.
 */
function timeOptions(withSeconds = false): Intl.DateTimeFormatOptions {
  const language = locale().split('-')[0];
  return {
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
    hourCycle: language === 'en' ? 'h12' : 'h23',
  };
}

export function formatTime(value: string | number | Date, timeZone?: string, withSeconds = false): string {
  return new Intl.DateTimeFormat(locale(), { ...timeOptions(withSeconds), timeZone: safeZone(timeZone) }).format(toDate(value));
}

/** "Nov 23, 2026, 08:00 AM" / "23 nov. 2026, 08:00" / "23 nov 2026, 08:00". */
/** "Mon 10:00 AM", "lun. 10:00": a day of the week and a time, in `timeZone`. */
export function formatWeekdayTime(value: string | number | Date, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale(), { weekday: 'short', ...timeOptions(), timeZone: safeZone(timeZone) }).format(toDate(value));
}

export function formatDateTime(value: string | number | Date, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale(), { year: 'numeric', month: 'short', day: 'numeric', ...timeOptions(), timeZone: safeZone(timeZone) }).format(toDate(value));
}

/** "Monday, November 23, 2026 at 08:00 AM" / "lundi 23 novembre 2026 à 08:00". */
export function formatLongDateTime(value: string | number | Date, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale(), {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    ...timeOptions(),
    timeZone: safeZone(timeZone),
  }).format(toDate(value));
}

/** e.g. "Tuesday, November 24, 2026" */
export function formatLongDate(value: string | number | Date, timeZone?: string): string {
  return formatDate(value, timeZone, 'full');
}

export function formatMonthYear(year: number, monthIndex: number): string {
  return new Intl.DateTimeFormat(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, monthIndex, 1));
}

/** Short weekday names starting on Monday (or Sunday with `startOnSunday`). */
export function weekdayNames(style: 'short' | 'narrow' | 'long' = 'short', startOnSunday = false): string[] {
  const fmt = new Intl.DateTimeFormat(locale(), { weekday: style, timeZone: 'UTC' });
  // 2024-01-07 was a Sunday.
  return Array.from({ length: 7 }, (_, i) => fmt.format(Date.UTC(2024, 0, (startOnSunday ? 7 : 8) + i)));
}

/** Wall-clock parts of an instant in a zone: { date: 'YYYY-MM-DD', time: 'HH:MM' }. */
export function wallClock(value: string | number | Date, timeZone = 'UTC'): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: safeZone(timeZone),
  }).formatToParts(toDate(value));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

/** Today's date (YYYY-MM-DD) in a zone. */
export function todayInZone(timeZone = 'UTC'): string {
  return wallClock(Date.now(), timeZone).date;
}

export function formatRelative(value: string | number | Date, now = Date.now()): string {
  const { amount, unit } = relativeParts(toDate(value), new Date(now));
  return new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' }).format(amount, unit);
}
