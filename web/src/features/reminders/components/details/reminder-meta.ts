import i18n from '@/lib/i18n';
import { RECURRENCES, type Recurrence } from '@/lib/api/reminders';

/** recurrence_type is case-insensitive; anything outside the 8 values is unknown (docs/dashboard.md "Dashboard and calendar"). */
export function knownRecurrence(value: string | null | undefined): Recurrence | null {
  const upper = (value ?? '').toUpperCase();
  return (RECURRENCES as readonly string[]).includes(upper) ? (upper as Recurrence) : null;
}

export function recurrenceLabel(value: string | null | undefined): string {
  const known = knownRecurrence(value);
  return known ? i18n.t(`reminders:recurrence.${known}`) : i18n.t('reminders:recurrence.unknown');
}

export const shortId = (id: string) => id.slice(0, 8);
