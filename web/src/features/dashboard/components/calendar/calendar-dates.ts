import { wallClock } from '@/lib/format';

/*
 * Calendar arithmetic on plain dates ("YYYY-MM-DD", no zone): the grid is a wall-clock view in
 * the account zone, so only instants are converted (with wallClock) and days are never shifted
 * by the browser's own zone.
 */

export const GRID_CELLS = 42;
export const NEXT_REMINDER_SEARCH_MONTHS = 24;
const DAY_MS = 86_400_000;

/** A month as year + 0-based month index. */
export interface YearMonth {
  year: number;
  month: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function toPlainDate(year: number, monthIndex: number, day: number): string {
  const d = new Date(Date.UTC(year, monthIndex, day));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

export function parsePlainDate(date: string): { year: number; month: number; day: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { year: y, month: m - 1, day: d };
}

/** Midnight UTC of a plain date: used only for arithmetic and zone-free (UTC) formatting. */
export function plainDateMs(date: string): number {
  const { year, month, day } = parsePlainDate(date);
  return Date.UTC(year, month, day);
}

export function addDays(date: string, days: number): string {
  const { year, month, day } = parsePlainDate(date);
  return toPlainDate(year, month, day + days);
}

export function addMonths(ym: YearMonth, months: number): YearMonth {
  const index = ym.year * 12 + ym.month + months;
  return { year: Math.floor(index / 12), month: ((index % 12) + 12) % 12 };
}

export function monthIndex(ym: YearMonth): number {
  return ym.year * 12 + ym.month;
}

export function monthOf(date: string): YearMonth {
  const { year, month } = parsePlainDate(date);
  return { year, month };
}

/**
 * First day of the week as ISO weekday (1 = Monday ... 7 = Sunday) from the locale's week data
 * (`Intl.Locale#getWeekInfo()`, or the older `weekInfo` getter); en falls back to Sunday, the
 * others to Monday.
 */
export function weekStartOf(language: string): number {
  try {
    const locale = new Intl.Locale(language) as Intl.Locale & {
      getWeekInfo?: () => { firstDay?: number };
      weekInfo?: { firstDay?: number };
    };
    const info = typeof locale.getWeekInfo === 'function' ? locale.getWeekInfo() : locale.weekInfo;
    const first = info?.firstDay;
    if (typeof first === 'number' && first >= 1 && first <= 7) return first;
  } catch {
    /* older engines: fall through */
  }
  return language.toLowerCase().startsWith('en') ? 7 : 1;
}

/** The 42 plain dates of a month grid (6 weeks), starting on the locale's first weekday. */
export function monthGrid(ym: YearMonth, weekStart: number): string[] {
  const first = toPlainDate(ym.year, ym.month, 1);
  const jsWeekday = new Date(plainDateMs(first)).getUTCDay(); // 0 = Sunday
  const offset = (jsWeekday - (weekStart % 7) + 7) % 7;
  const start = addDays(first, -offset);
  return Array.from({ length: GRID_CELLS }, (_, i) => addDays(start, i));
}

/**
 * Instants that surely cover the given plain dates in any zone (offsets stay within +-14 h):
 * one day of margin on both sides; callers bucket by the account-zone date and drop the rest.
 */
export function coveringRange(firstDate: string, lastDate: string): { from: string; to: string } {
  return {
    from: new Date(plainDateMs(firstDate) - DAY_MS).toISOString(),
    to: new Date(plainDateMs(lastDate) + 2 * DAY_MS).toISOString(),
  };
}

const dateFormats = new Map<string, Intl.DateTimeFormat | null>();

/**
 * The account-zone plain date of an instant. Called for every occurrence on the grid (an hourly
 * reminder has ~1,000), so the formatter is built once per zone.
 */
export function zonedDate(instant: string | number | Date, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone });
    } catch {
      format = null; // unknown zone: wallClock falls back to UTC
    }
    dateFormats.set(timeZone, format);
  }
  if (!format) return wallClock(instant, timeZone).date;
  const parts = format.formatToParts(instant instanceof Date ? instant : new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '01';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Weekday names (Intl, current language) starting on `weekStart`. */
export function weekdayHeaders(language: string, weekStart: number, style: 'short' | 'long' | 'narrow'): string[] {
  const fmt = new Intl.DateTimeFormat(language, { weekday: style, timeZone: 'UTC' });
  // 2024-01-01 was a Monday (ISO weekday 1).
  return Array.from({ length: 7 }, (_, i) => fmt.format(Date.UTC(2024, 0, 1 + ((weekStart - 1 + i) % 7))));
}

/** "novembre 2026" -> "Novembre 2026": month titles read as headings in every language. */
export function capitalize(text: string, language: string): string {
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}
