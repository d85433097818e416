import type { Reminder } from '@/lib/api/reminders';

/*
 * The one reading of a reminder's status in the dashboard, used by the list, the stat cards, the
 * calendar and the details page. The server computes `status` (server/reminders/schedule.ts:
 * paused, else active while a future firing exists, else completed); the dashboard never
 * recomputes it from times, so a recurring reminder past its first firing stays "active".
 */

export type ReminderStatus = Reminder['status'];

export function reminderStatus(reminder: Pick<Reminder, 'status'>): ReminderStatus {
  return reminder.status;
}

/** Locale keys of the status labels (common namespace), as literals for the locale checks. */
export const STATUS_LABEL_KEYS = {
  active: 'common:reminderStatus.active',
  paused: 'common:reminderStatus.paused',
  completed: 'common:reminderStatus.completed',
} as const satisfies Record<ReminderStatus, string>;

const STATUS_RANK: Record<ReminderStatus, number> = { active: 0, paused: 1, completed: 2 };

/** Orders by status: active, then paused, then completed. */
export function compareStatus(a: Pick<Reminder, 'status'>, b: Pick<Reminder, 'status'>): number {
  return STATUS_RANK[reminderStatus(a)] - STATUS_RANK[reminderStatus(b)];
}
