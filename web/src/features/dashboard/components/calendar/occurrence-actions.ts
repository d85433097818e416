import type { Reminder } from '@/lib/api/reminders';

/** Actions an occurrence row calls; `opener` is the button pressed (focus moves on from it). */
export interface OccurrenceActions {
  skip: (reminder: Reminder, at: string, opener: HTMLElement) => void;
  remove: (reminder: Reminder, opener: HTMLElement) => void;
}

/** Whether an occurrence can still be skipped (the API refuses past ones). */
export const isAhead = (instant: string) => Date.parse(instant) > Date.now();
