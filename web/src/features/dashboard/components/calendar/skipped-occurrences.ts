import type { Reminder } from '@/lib/api/reminders';
import { zonedDate } from './calendar-dates';

/** One occurrence of a reminder that was skipped. */
export interface SkippedOccurrence {
  reminder: Reminder;
  at: string;
}

/** Occurrences skipped on this day (the API lists those still ahead), so they can be restored. */
export function skippedOn(date: string | null, reminders: Reminder[], zone: string): SkippedOccurrence[] {
  return date
    ? reminders
        .flatMap((reminder) => (reminder.exceptions ?? []).map((instant) => ({ reminder, at: instant })))
        .filter((s) => zonedDate(s.at, zone) === date)
        .sort((a, b) => a.at.localeCompare(b.at))
    : [];
}
