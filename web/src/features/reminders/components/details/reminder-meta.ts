import i18n from '@/lib/i18n';
import { RECURRENCES, type Recurrence, type Reminder } from '@/lib/api/reminders';

/** recurrence_type is case-insensitive; anything outside the 8 values is unknown (SPEC section 3). */
export function knownRecurrence(value: string | null | undefined): Recurrence | null {
  const upper = (value ?? '').toUpperCase();
  return (RECURRENCES as readonly string[]).includes(upper) ? (upper as Recurrence) : null;
}

export function recurrenceLabel(value: string | null | undefined): string {
  const known = knownRecurrence(value);
  return known ? i18n.t(`reminders:recurrence.${known}`) : i18n.t('reminders:recurrence.unknown');
}

export type DisplayStatus = 'active' | 'paused' | 'completed';

/** Paused wins; otherwise the server's status, falling back to "is the time in the future" (SPEC section 4). */
export function displayStatus(reminder: Pick<Reminder, 'is_paused' | 'status' | 'remind_at_utc'>): DisplayStatus {
  if (reminder.is_paused) return 'paused';
  if (reminder.status === 'active' || reminder.status === 'completed') return reminder.status;
  return Date.parse(reminder.remind_at_utc) > Date.now() ? 'active' : 'completed';
}

export const shortId = (id: string) => id.slice(0, 8);
