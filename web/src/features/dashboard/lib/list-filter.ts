import type { DestinationType, Reminder } from '@/lib/api/reminders';
import { reminderStatus } from '@/lib/reminder-status';
import { destinationCounts, isRecurring } from './reminder-display';

/*
 * What the reminder list shows (docs/dashboard.md "Dashboard and calendar"): the words searched
 * for and three filters, all applied in the browser to the list the dashboard already holds.
 */

export const STATUS_FILTERS = ['all', 'open', 'active', 'paused', 'completed'] as const;
export const REPEAT_FILTERS = ['all', 'repeating', 'once'] as const;

export interface ListFilter {
  /** Words that must all appear in the message, in any case and with or without accents. */
  text: string;
  /** `open`: everything not completed. */
  status: (typeof STATUS_FILTERS)[number];
  /** `none`: reminders without a destination. */
  destination: 'all' | 'none' | DestinationType;
  repeat: (typeof REPEAT_FILTERS)[number];
}

export const NO_FILTER: ListFilter = { text: '', status: 'all', destination: 'all', repeat: 'all' };

export const isFiltering = (filter: ListFilter): boolean => filter.text.trim() !== '' || filter.status !== 'all' || filter.destination !== 'all' || filter.repeat !== 'all';

/** Lower case without accents: "Réunion" and "reunion" match each other. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

function statusMatches(reminder: Reminder, status: ListFilter['status']): boolean {
  if (status === 'all') return true;
  const actual = reminderStatus(reminder);
  return status === 'open' ? actual !== 'completed' : actual === status;
}

function destinationMatches(reminder: Reminder, destination: ListFilter['destination']): boolean {
  if (destination === 'all') return true;
  if (destination === 'none') return reminder.destinations.length === 0;
  return reminder.destinations.some((d) => d.type === destination);
}

function repeatMatches(reminder: Reminder, repeat: ListFilter['repeat']): boolean {
  return repeat === 'all' || (repeat === 'repeating') === isRecurring(reminder);
}

export function filterReminders(reminders: Reminder[], filter: ListFilter): Reminder[] {
  const words = foldText(filter.text).split(/\s+/).filter(Boolean);
  return reminders.filter((reminder) => {
    if (!statusMatches(reminder, filter.status) || !destinationMatches(reminder, filter.destination) || !repeatMatches(reminder, filter.repeat)) return false;
    if (words.length === 0) return true;
    const message = foldText(reminder.message);
    return words.every((word) => message.includes(word));
  });
}

/** The destination types the account's reminders use, for the filter's choices, in display order. */
export function destinationTypesIn(reminders: Reminder[]): DestinationType[] {
  return destinationCounts(reminders.flatMap((r) => r.destinations)).map(({ type }) => type);
}
