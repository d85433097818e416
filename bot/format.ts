import type { RecurrenceType } from '../server/db/database.ts';
import { recurrenceSummary } from '../server/reminders/recurrence-summary.ts';
import type { ScheduleFields } from '../server/reminders/schedule.ts';
import { languageOf, t } from './i18n.ts';

export const unix = (ms: number) => Math.floor(ms / 1000);

/** Cuts to at most `max` UTF-16 units (Discord's limits), never inside a surrogate pair, with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return '…'.slice(0, max);
  let cut = text.slice(0, max - 1);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** One line for lists and autocomplete names. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export const RECURRENCE_KEYS: Record<RecurrenceType, string> = {
  ONCE: 'choices.recurrence.ONCE',
  YEARLY: 'choices.recurrence.YEARLY',
  MONTHLY: 'choices.recurrence.MONTHLY',
  WEEKLY: 'choices.recurrence.WEEKLY',
  DAILY: 'choices.recurrence.DAILY',
  HOURLY: 'choices.recurrence.HOURLY',
  WORKDAYS: 'choices.recurrence.WORKDAYS',
  WEEKEND: 'choices.recurrence.WEEKEND',
};

/** A reminder's repetition: the preset's short label, or a custom rule in words. */
export const recurrenceLabel = (locale: string | null | undefined, r: ScheduleFields) =>
  r.recurrence_type === 'CUSTOM' ? recurrenceSummary(r, languageOf(locale)) : t(locale, RECURRENCE_KEYS[r.recurrence_type]);

const BCP47 = { en: 'en-GB', fr: 'fr-FR', es: 'es-ES' } as const;

/** "5 Jan 2027, 08:00" in the zone and language; for places where Discord's <t:...> markup does not render. */
export function formatInZone(ms: number, timeZone: string, locale: string | null | undefined, opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(BCP47[languageOf(locale)], { ...opts, timeZone }).format(ms);
}

export const reminderUrl = (publicUrl: string, id: string) => `${publicUrl.replace(/\/+$/, '')}/reminders/${id}`;
