/**
 * Cancelling a snooze that has not fired yet: "Done" under a delivered reminder means the user is
 * finished with it, so a "Snooze 10 min" or "Tomorrow" pressed earlier must not deliver it again.
 */
import { AppError } from '../errors.ts';
import { findReminderOfAccount, lockReminderOfAccount, updateReminder } from '../repositories/reminders.ts';
import { nextOccurrenceAfter } from '../time/series.ts';
import { ruleOf } from './schedule.ts';
import { nextAlertUtc } from '../scheduler/alerts.ts';
import type { ReminderDeps } from './service.ts';

/**
 * Drops the pending snooze (if any) and puts the schedule back on its regular course: the pending
 * occurrence when it is still ahead; when the snooze had taken the place of an occurrence that is
 * now past (a snooze asked for before it was sent), that occurrence is done too, and the series
 * goes on with the next one. A one-off (or a finished series) is completed again. Answers whether
 * a snooze was cancelled.
 */
export async function cancelPendingSnooze(deps: Pick<ReminderDeps, 'db' | 'scheduler'>, accountId: string, id: string, nowMs = Date.now()): Promise<boolean> {
  const cancelled = await deps.db.transaction().execute(async (trx) => {
    // The snooze read is the one cleared: a claim firing it, or another cancel, waits or skips.
    await lockReminderOfAccount(trx, accountId, id);
    const r = await findReminderOfAccount(trx, accountId, id);
    if (!r) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
    // The claimer clears snoozed_at_utc when the snooze fires: a value here has not fired yet.
    if (r.snoozed_at_utc === null) return false;
    const pendingMs = r.next_occurrence_utc ? Date.parse(r.next_occurrence_utc) : null;
    const next = pendingMs === null ? null : pendingMs > nowMs ? pendingMs : nextOccurrenceAfter(ruleOf(r), nowMs);
    const nextIso = next === null ? null : new Date(next).toISOString();
    await updateReminder(trx, r.id, {
      snoozed_at_utc: null,
      next_occurrence_utc: nextIso,
      next_fire_utc: nextIso,
      next_alert_utc: nextAlertUtc(r.alerts, nextIso, nowMs),
      completed_at: nextIso ? null : (r.completed_at ?? new Date(nowMs).toISOString()),
    });
    return true;
  });
  if (cancelled) deps.scheduler.wake();
  return cancelled;
}
