import type { RecurrenceType } from '../../server/db/database.ts';
import { recurrenceSummary } from '../../server/reminders/recurrence-summary.ts';
import type { ScheduleFields } from '../../server/reminders/schedule.ts';
import { languageOf, t } from '../../server/discord/i18n.ts';

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

/** Alerts /remind offers, in minutes before each occurrence, with their label keys. */
export const ALERT_CHOICES: Readonly<Record<number, string>> = {
  5: 'choices.alert.5',
  15: 'choices.alert.15',
  30: 'choices.alert.30',
  60: 'choices.alert.60',
  180: 'choices.alert.180',
  1440: 'choices.alert.1440',
  10080: 'choices.alert.10080',
};

/**
 * A reminder's alerts in words, largest first: "1 day and 30 minutes" (any whole number of
 * minutes the dashboard or the API set, in days, hours or minutes as the dashboard shows them).
 */
export function alertLeads(locale: string | null | undefined, minutes: readonly number[]): string {
  const language = BCP47[languageOf(locale)];
  const leads = [...minutes]
    .sort((a, b) => b - a)
    .map((m) => {
      const [value, unit] = m % 1440 === 0 ? [m / 1440, 'day'] : m % 60 === 0 ? [m / 60, 'hour'] : [m, 'minute'];
      return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
    });
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(leads);
}
