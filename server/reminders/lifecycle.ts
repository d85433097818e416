/**
 * A reminder's state changes after it was made: pause, resume, snooze and delete. Part of the
 * reminders service (service.ts), shared by the API and the bot.
 */
import { AppError, notFound } from '../errors.ts';
import type { Reminder } from '../db/database.ts';
import { deleteReminder, type ReminderWithDestinations, updateReminder } from '../repositories/reminders.ts';
import { nextOccurrenceAfter } from '../time/series.ts';
import { guildsOf, quoted, recordServerChange } from '../servers/audit.ts';
import { ruleOf } from './schedule.ts';
import { nextAlertUtc } from '../scheduler/alerts.ts';
import { earliestInstant } from '../scheduler/wake-hint.ts';
import { getReminder, type ReminderDeps } from './service.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The answer of a pause, resume or snooze: the row as the write left it, with the destinations
 * read before it (these writes leave them alone). Saves reading the reminder again, a round trip
 * on PostgreSQL. Deleted in between: not found, as the read would have said.
 */
function asWritten(existing: ReminderWithDestinations, row: Reminder | undefined): ReminderWithDestinations {
  if (!row) throw notFound();
  return { ...row, destinations: existing.destinations, subscriber_count: existing.subscriber_count ?? 0 };
}

export async function pauseReminder(deps: ReminderDeps, accountId: string, id: string): Promise<ReminderWithDestinations> {
  const existing = await getReminder(deps, accountId, id);
  let answer = existing;
  if (!existing.is_paused) {
    answer = asWritten(existing, await updateReminder(deps.db, existing.id, { is_paused: 1 }));
    await recordServerChange(deps.db, { guildIds: guildsOf(existing.destinations), actorAccountId: accountId, action: 'pause', reminderId: id, detail: { kind: 'paused', params: { message: quoted(existing.message) } } });
  }
  // Nothing becomes due sooner: the timer, if it stood for this reminder, finds nothing and re-arms.
  deps.scheduler.wake(null);
  return answer;
}

/** Occurrences that passed while paused are skipped; a snooze still ahead is kept. */
export async function resumeReminder(deps: ReminderDeps, accountId: string, id: string, nowMs = Date.now()): Promise<ReminderWithDestinations> {
  const existing = await getReminder(deps, accountId, id);
  let hint: number | null = null;
  let answer = existing;
  if (existing.is_paused) {
    // Alerts that came due while paused are not sent: the pointer starts again from now.
    const patch: Parameters<typeof updateReminder>[2] = { is_paused: 0, next_alert_utc: nextAlertUtc(existing.alerts, existing.next_occurrence_utc, nowMs) };
    if (existing.recurrence_type !== 'ONCE') {
      const snooze = existing.snoozed_at_utc && Date.parse(existing.snoozed_at_utc) > nowMs ? existing.snoozed_at_utc : null;
      const next = iso(nextOccurrenceAfter(ruleOf(existing), nowMs));
      Object.assign(patch, { snoozed_at_utc: snooze, next_occurrence_utc: next, next_fire_utc: snooze ?? next, next_alert_utc: nextAlertUtc(existing.alerts, next, nowMs) });
    }
    answer = asWritten(existing, await updateReminder(deps.db, existing.id, patch));
    hint = earliestInstant(patch.next_fire_utc === undefined ? existing.next_fire_utc : patch.next_fire_utc, patch.next_alert_utc);
    await recordServerChange(deps.db, { guildIds: guildsOf(existing.destinations), actorAccountId: accountId, action: 'resume', reminderId: id, detail: { kind: 'resumed', params: { message: quoted(existing.message) } } });
  }
  deps.scheduler.wake(hint);
  return answer;
}

/** "In N minutes", "until an instant" (ISO), or an instant the caller computed (the bot's buttons). */
export type SnoozeRequest = { minutes?: number | undefined; until?: string | undefined; atMs?: number | undefined };

function snoozeInstant(request: SnoozeRequest, nowMs: number): number {
  if (request.atMs !== undefined) return request.atMs;
  if (request.until !== undefined) {
    const at = Date.parse(request.until);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(request.until) || Number.isNaN(at)) throw new AppError('VALIDATION_FAILED', 'until must be an ISO-8601 date-time');
    return at;
  }
  if (request.minutes !== undefined) return nowMs + request.minutes * 60_000;
  throw new AppError('VALIDATION_FAILED', 'Give minutes or until');
}

/**
 * Fires once more at the snooze instant (whole seconds); next_occurrence_utc is left alone so the
 * regular schedule goes on from it afterwards.
 */
export async function snoozeReminder(deps: ReminderDeps, accountId: string, id: string, request: SnoozeRequest, nowMs = Date.now()): Promise<ReminderWithDestinations> {
  const atMs = snoozeInstant(request, nowMs);
  const existing = await getReminder(deps, accountId, id);
  if (!Number.isFinite(atMs) || atMs <= nowMs) throw new AppError('REMINDER_IN_PAST', 'Snooze time must be in the future');
  const snoozedAt = new Date(Math.floor(atMs / 1000) * 1000).toISOString();
  const answer = asWritten(existing, await updateReminder(deps.db, existing.id, { snoozed_at_utc: snoozedAt, next_fire_utc: snoozedAt, completed_at: null }));
  deps.scheduler.wake(earliestInstant(snoozedAt));
  return answer;
}

export async function removeReminder(deps: ReminderDeps, accountId: string, id: string): Promise<void> {
  const existing = await getReminder(deps, accountId, id);
  await deps.db.transaction().execute((trx) => deleteReminder(trx, existing.id));
  deps.scheduler.wake(null);
  await recordServerChange(deps.db, { guildIds: guildsOf(existing.destinations), actorAccountId: accountId, action: 'delete', reminderId: id, detail: { kind: 'deleted', params: { message: quoted(existing.message) } } });
}
