import type { Reminder } from '@/lib/api/reminders';
import type { CalendarEvent } from './use-calendar-events';

/**
 * A reminder firing more than this many times on one day (every hour, every 15 minutes) is shown
 * as one entry for the day instead of one per occurrence, in the grid, the phone list and the day
 * dialog alike.
 */
export const SERIES_THRESHOLD = 3;

/** What a day shows: single occurrences, and the dense series of the day as one entry each. */
export type DayEntry =
  | { kind: 'single'; key: string; event: CalendarEvent }
  | { kind: 'series'; key: string; reminder: Reminder; events: CalendarEvent[] };

/** Groups one day's events (sorted by time); a series takes the place of its first occurrence. */
export function dayEntries(events: CalendarEvent[]): DayEntry[] {
  const byReminder = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    const list = byReminder.get(event.reminder.id);
    if (list) list.push(event);
    else byReminder.set(event.reminder.id, [event]);
  }
  const out: DayEntry[] = [];
  const placed = new Set<string>();
  for (const event of events) {
    const id = event.reminder.id;
    const all = byReminder.get(id)!;
    if (all.length <= SERIES_THRESHOLD) out.push({ kind: 'single', key: `${id}-${event.at}`, event });
    else if (!placed.has(id)) {
      placed.add(id);
      out.push({ kind: 'series', key: `${id}-series`, reminder: event.reminder, events: all });
    }
  }
  return out;
}

/** Groups every day of a bucketed map. */
export function entriesByDate(byDate: Map<string, CalendarEvent[]>): Map<string, DayEntry[]> {
  const out = new Map<string, DayEntry[]>();
  for (const [date, events] of byDate) out.set(date, dayEntries(events));
  return out;
}
