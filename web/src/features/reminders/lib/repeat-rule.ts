/**
 * The custom repeat editor's state and the RFC 5545 RRULE it stands for (docs/time.md "Custom
 * repetition"). The server is the authority (it validates and expands every rule); this only
 * builds the shapes the editor offers and reads them back when a reminder is edited.
 */
import type { Recurrence, Repetition } from '@/lib/api/types';

export type Freq = 'MINUTELY' | 'HOURLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
export const FREQS: readonly Freq[] = ['MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';
export const WEEKDAYS: readonly Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
/** The server refuses MINUTELY below this interval. */
export const MIN_MINUTES = 5;

/** Monthly: on the date's day, on the last day, or on the date's Nth (or last) weekday. */
export type MonthlyMode = 'day' | 'last-day' | 'nth-weekday' | 'last-weekday';

export interface CustomRepeat {
  freq: Freq;
  interval: number;
  /** WEEKLY only. */
  weekdays: Weekday[];
  /** MONTHLY only. */
  monthly: MonthlyMode;
}

export type RepeatEnd = { kind: 'never' } | { kind: 'on'; date: string } | { kind: 'after'; count: number };

/** What the form holds besides date, time and message. */
export interface Repeat {
  preset: Recurrence;
  /** Set: the custom editor's rule (preset is ignored). */
  custom: CustomRepeat | null;
  end: RepeatEnd;
  /** A stored rule the editor cannot show (edit of a rule made elsewhere): kept as it is. */
  raw: string | null;
}

const WEEKDAY_OF_JS: readonly Weekday[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

function civil(date: string): { year: number; month: number; day: number; weekday: Weekday; lastDay: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCDate() !== day) return null;
  return { year, month, day, weekday: WEEKDAY_OF_JS[d.getUTCDay()]!, lastDay: new Date(Date.UTC(year, month, 0)).getUTCDate() };
}

export const weekdayOfDate = (date: string): Weekday => civil(date)?.weekday ?? 'MO';

/** Which of the date's month positions it has: its ordinal weekday (1..5) and whether it is the last such weekday / the last day. */
export function monthPosition(date: string) {
  const c = civil(date);
  if (!c) return { day: 1, nth: 1, weekday: 'MO' as Weekday, lastWeekday: false, lastDay: false };
  return { day: c.day, nth: Math.ceil(c.day / 7), weekday: c.weekday, lastWeekday: c.day + 7 > c.lastDay, lastDay: c.day === c.lastDay };
}

export const defaultCustom = (date: string): CustomRepeat => ({ freq: 'WEEKLY', interval: 1, weekdays: [weekdayOfDate(date)], monthly: 'day' });

function endPart(end: RepeatEnd): string {
  if (end.kind === 'on' && /^\d{4}-\d{2}-\d{2}$/.test(end.date)) return `;UNTIL=${end.date.replaceAll('-', '')}`;
  if (end.kind === 'after' && end.count >= 1) return `;COUNT=${Math.floor(end.count)}`;
  return '';
}

function customRule(c: CustomRepeat, date: string): string {
  const parts = [`FREQ=${c.freq}`];
  const interval = Math.max(c.freq === 'MINUTELY' ? MIN_MINUTES : 1, Math.floor(c.interval) || 1);
  if (interval > 1) parts.push(`INTERVAL=${interval}`);
  if (c.freq === 'WEEKLY') parts.push(`BYDAY=${(c.weekdays.length ? WEEKDAYS.filter((d) => c.weekdays.includes(d)) : [weekdayOfDate(date)]).join(',')}`);
  if (c.freq === 'MONTHLY') {
    const p = monthPosition(date);
    if (c.monthly === 'day') parts.push(`BYMONTHDAY=${p.day}`);
    if (c.monthly === 'last-day') parts.push('BYMONTHDAY=-1');
    if (c.monthly === 'nth-weekday') parts.push(`BYDAY=${Math.min(p.nth, 4)}${p.weekday}`);
    if (c.monthly === 'last-weekday') parts.push(`BYDAY=-1${p.weekday}`);
  }
  return parts.join(';');
}

/** The equivalent rule of a preset from this date (for a preset given an end). */
export function presetRule(preset: Recurrence, date: string): string {
  const p = monthPosition(date);
  switch (preset) {
    case 'HOURLY':
      return 'FREQ=HOURLY';
    case 'DAILY':
      return 'FREQ=DAILY';
    case 'WEEKLY':
      return `FREQ=WEEKLY;BYDAY=${p.weekday}`;
    case 'WORKDAYS':
      return 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR';
    case 'WEEKEND':
      return 'FREQ=WEEKLY;BYDAY=SA,SU';
    case 'MONTHLY':
      return p.day <= 28 ? `FREQ=MONTHLY;BYMONTHDAY=${p.day}` : p.day === 31 ? 'FREQ=MONTHLY;BYMONTHDAY=-1' : `FREQ=MONTHLY;BYMONTHDAY=28,29${p.day === 30 ? ',30' : ''};BYSETPOS=-1`;
    case 'YEARLY':
      return civil(date)?.month === 2 && p.day === 29 ? 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1' : 'FREQ=YEARLY';
    default:
      return 'FREQ=DAILY;COUNT=1';
  }
}

/** What the API takes: a preset, or CUSTOM with its rule. */
export function repetitionPayload(repeat: Repeat, date: string): { recurrence: Repetition; rrule: string | null } {
  if (repeat.raw !== null) return { recurrence: 'CUSTOM', rrule: repeat.raw };
  if (repeat.custom) return { recurrence: 'CUSTOM', rrule: customRule(repeat.custom, date) + endPart(repeat.end) };
  if (repeat.preset !== 'ONCE' && repeat.end.kind !== 'never') return { recurrence: 'CUSTOM', rrule: presetRule(repeat.preset, date) + endPart(repeat.end) };
  return { recurrence: repeat.preset, rrule: null };
}

export const emptyRepeat = (preset: Recurrence = 'ONCE'): Repeat => ({ preset, custom: null, end: { kind: 'never' }, raw: null });

/**
 * A stored reminder's repetition as editor state. Rules of a shape the editor builds open in it;
 * any other rule is kept as it is (`raw`).
 */
export function repeatFromReminder(r: { recurrence_type: Repetition; rrule: string | null; date: string }): Repeat {
  if (r.recurrence_type !== 'CUSTOM' || !r.rrule) return emptyRepeat(r.recurrence_type === 'CUSTOM' ? 'ONCE' : r.recurrence_type);
  const parts = new Map(r.rrule.split(';').map((p) => p.split('=') as [string, string]));
  const freq = parts.get('FREQ') as Freq | undefined;
  const end: RepeatEnd = parts.has('COUNT')
    ? { kind: 'after', count: Number(parts.get('COUNT')) }
    : parts.has('UNTIL') && /^\d{8}$/.test(parts.get('UNTIL')!)
      ? { kind: 'on', date: parts.get('UNTIL')!.replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3') }
      : { kind: 'never' };
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const custom: CustomRepeat | null = freq && FREQS.includes(freq) ? { freq, interval, weekdays: [], monthly: 'day' } : null;
  if (custom && freq === 'WEEKLY') custom.weekdays = (parts.get('BYDAY') ?? weekdayOfDate(r.date)).split(',') as Weekday[];
  if (custom && freq === 'MONTHLY') {
    const byDay = parts.get('BYDAY');
    custom.monthly = parts.get('BYMONTHDAY') === '-1' ? 'last-day' : byDay?.startsWith('-1') ? 'last-weekday' : byDay ? 'nth-weekday' : 'day';
  }
  const rebuilt = custom ? { preset: 'ONCE' as Recurrence, custom, end, raw: null } : null;
  // Only when the editor would write back exactly the stored rule; otherwise keep it untouched.
  if (rebuilt && repetitionPayload(rebuilt, r.date).rrule === r.rrule) return rebuilt;
  return { preset: 'ONCE', custom: null, end: { kind: 'never' }, raw: r.rrule };
}
