import { api } from '@/lib/api-client';
import type { Reminder } from '@/lib/api/reminders';

/*
 * Skipping one occurrence of a series from the calendar (docs/time.md "Custom repetition"). Both calls
 * answer the whole reminder, whose `exceptions` then list (or no longer list) the occurrence.
 */

/** Skips one future occurrence (an ISO instant the occurrences call answered). */
export const skipOccurrence = (id: string, occurrence: string) => api.post<Reminder>(`/api/reminders/${id}/skip`, { occurrence });

/** Restores a skipped occurrence (the undo of skipOccurrence). */
export const restoreOccurrence = (id: string, occurrence: string) =>
  api.delete<Reminder>(`/api/reminders/${id}/skip/${encodeURIComponent(occurrence)}`);
