/**
 * Skipping single occurrences of a series (and restoring them), for the API and the bot. The
 * skipped instants are RFC 5545 EXDATEs on the reminder row (docs/time.md "Custom repetition").
 */
import { AppError } from '../errors.ts';
import { findReminderOfAccount, lockReminderOfAccount, type ReminderWithDestinations, updateReminder } from '../repositories/reminders.ts';
import { isOccurrence, nextOccurrenceAfter } from '../time/series.ts';
import { ruleOf } from './schedule.ts';
import { nextAlertUtc } from '../scheduler/alerts.ts';
import { getReminder, type ReminderDeps } from './service.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A series keeps at most this many skipped occurrences ahead. */
export const MAX_SKIPPED = 500;
/**
 * Skipped occurrences that passed are kept this long, so the calendar (which looks back up to
 * 400 days) still shows them as skipped, then dropped on the next change: the list stays bounded.
 */
const KEEP_PAST_MS = 400 * 86_400_000;

function occurrenceInstant(value: unknown): number {
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new AppError('VALIDATION_FAILED', 'occurrence must be an ISO-8601 date-time');
  return ms;
}

/**
 * Writes a new list of skipped occurrences and moves the pending occurrence accordingly: skipping
 * the pending one moves next_fire_utc on to the next occurrence left; restoring one before the
 * pending one makes it the pending one again. A snooze still ahead keeps its instant.
 */
async function saveSkipped(deps: ReminderDeps, accountId: string, id: string, change: (skipped: Set<number>, r: ReminderWithDestinations) => void, nowMs: number) {
  await deps.db.transaction().execute(async (trx) => {
    // Two changes of the list at once each keep the other's: the second reads after the first wrote.
    await lockReminderOfAccount(trx, accountId, id);
    const r = await findReminderOfAccount(trx, accountId, id);
    if (!r) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
    const skipped = new Set([...ruleOf(r).skipped!].filter((ms) => ms > nowMs - KEEP_PAST_MS));
    change(skipped, r);
    if ([...skipped].filter((ms) => ms > nowMs).length > MAX_SKIPPED) throw new AppError('SKIP_LIMIT', `A reminder can have at most ${MAX_SKIPPED} skipped occurrences ahead`);
    const exceptions = JSON.stringify([...skipped].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString()));
    const series = ruleOf({ ...r, exceptions });
    // The pending occurrence: the first one left after the last one handed to the scheduler.
    const pendingMs = r.next_occurrence_utc ? Date.parse(r.next_occurrence_utc) : null;
    const from = pendingMs !== null ? Math.min(pendingMs, nowMs) : nowMs;
    let next = nextOccurrenceAfter(series, from - 1);
    while (next !== null && next <= nowMs && next !== pendingMs) next = nextOccurrenceAfter(series, next);
    const snooze = r.snoozed_at_utc && Date.parse(r.snoozed_at_utc) > nowMs ? r.snoozed_at_utc : null;
    const nextIso = iso(next);
    await updateReminder(trx, r.id, {
      exceptions,
      next_occurrence_utc: nextIso,
      next_fire_utc: snooze ?? nextIso,
      next_alert_utc: nextAlertUtc(r.alerts, nextIso, nowMs),
      snoozed_at_utc: snooze,
      completed_at: snooze || nextIso ? null : (r.completed_at ?? new Date(nowMs).toISOString()),
    });
  });
  deps.scheduler.wake();
  return getReminder(deps, accountId, id);
}

/** Skips one future occurrence of the series (it must be one of its occurrences). Skipping one already skipped is a no-op. */
export function skipOccurrence(deps: ReminderDeps, accountId: string, id: string, occurrence: unknown, nowMs = Date.now()): Promise<ReminderWithDestinations> {
  const ms = occurrenceInstant(occurrence);
  return saveSkipped(
    deps,
    accountId,
    id,
    (skipped, r) => {
      if (skipped.has(ms)) return;
      if (!isOccurrence(ruleOf({ ...r, exceptions: '[]' }), ms)) {
        throw new AppError('OCCURRENCE_INVALID', `${new Date(ms).toISOString()} is not an occurrence of this reminder`);
      }
      if (ms <= nowMs) throw new AppError('OCCURRENCE_INVALID', 'This occurrence has already passed');
      skipped.add(ms);
    },
    nowMs,
  );
}

/** Skips the pending occurrence (the bot's /reminder skip); answers the reminder and the occurrence skipped. */
export async function skipNextOccurrence(deps: ReminderDeps, accountId: string, id: string, nowMs = Date.now()): Promise<{ reminder: ReminderWithDestinations; skippedMs: number }> {
  const r = await getReminder(deps, accountId, id);
  const pending = r.next_occurrence_utc ? Date.parse(r.next_occurrence_utc) : null;
  const next = pending !== null && pending > nowMs ? pending : nextOccurrenceAfter(ruleOf(r), nowMs);
  if (next === null) throw new AppError('OCCURRENCE_INVALID', 'This reminder has no occurrence left to skip');
  return { reminder: await skipOccurrence(deps, accountId, id, new Date(next).toISOString(), nowMs), skippedMs: next };
}

/** Restores a skipped occurrence. Restoring one that is not skipped is a no-op. */
export function restoreOccurrence(deps: ReminderDeps, accountId: string, id: string, occurrence: unknown, nowMs = Date.now()): Promise<ReminderWithDestinations> {
  const ms = occurrenceInstant(occurrence);
  return saveSkipped(deps, accountId, id, (skipped) => void skipped.delete(ms), nowMs);
}
