/**
 * Reminder operations shared by callers other than the HTTP routes (the Discord bot). They follow
 * the exact semantics of the matching API endpoints in server/routes/reminders/index.ts and reuse
 * its input rules (parseMessage, parseDestinations, firstFire), so a reminder made with /remind is
 * indistinguishable from one made on the dashboard.
 */
import type { FastifyInstance } from 'fastify';
import type { RecurrenceType } from '../db/database.ts';
import { AppError } from '../errors.ts';
import {
  deleteReminder as deleteReminderRows,
  findReminderOfAccount,
  insertReminder,
  replaceDestinations,
  type DestinationInput,
  type ReminderWithDestinations,
  updateReminder,
} from '../repositories/reminders.ts';
import { firstFire, parseDestinations, parseMessage, parseRecurrence } from '../routes/reminders/reminder-input.ts';
import { nextOccurrenceAfter } from '../time/recurrence.ts';
import { requireTimeZone } from '../lib/validation.ts';
import { listIdentities } from '../repositories/accounts.ts';

type App = Pick<FastifyInstance, 'db' | 'scheduler' | 'config'>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface CreateReminderInput {
  accountId: string;
  message: string;
  /** The anchor instant (first occurrence), already resolved from the user's wall clock. */
  anchorMs: number;
  timezone: string;
  recurrence: RecurrenceType | string | null | undefined;
  destinations: DestinationInput[];
}

export async function loadReminder(app: App, accountId: string, id: string): Promise<ReminderWithDestinations> {
  const reminder = await findReminderOfAccount(app.db, accountId, id);
  if (!reminder) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
  return reminder;
}

/** POST /api/reminders, for callers that already have an instant instead of date + time strings. */
export async function createReminder(app: App, input: CreateReminderInput): Promise<ReminderWithDestinations> {
  const message = parseMessage(input.message);
  const recurrence = parseRecurrence(input.recurrence);
  const timezone = requireTimeZone(input.timezone);
  const next = firstFire(input.anchorMs, timezone, recurrence);
  if (next === null) throw new AppError('REMINDER_IN_PAST', 'The reminder time is in the past. Pick a time in the future.');
  const identities = await listIdentities(app.db, input.accountId);
  const destinations = parseDestinations(input.destinations, {
    hasDiscordIdentity: identities.some((i) => i.provider === 'discord'),
    allowPrivateWebhookTargets: app.config.webhookAllowPrivateTargets,
  });
  const id = await app.db.transaction().execute(async (trx) => {
    const row = await insertReminder(trx, {
      account_id: input.accountId,
      message,
      remind_at_utc: iso(input.anchorMs)!,
      timezone,
      recurrence_type: recurrence,
      is_paused: 0,
      snoozed_at_utc: null,
      next_fire_utc: iso(next),
      next_occurrence_utc: iso(next),
    });
    await replaceDestinations(trx, row.id, destinations);
    return row.id;
  });
  app.scheduler.wake();
  return loadReminder(app, input.accountId, id);
}

/** POST /api/reminders/:id/pause */
export async function pauseReminder(app: App, accountId: string, id: string): Promise<ReminderWithDestinations> {
  const existing = await loadReminder(app, accountId, id);
  if (!existing.is_paused) await updateReminder(app.db, existing.id, { is_paused: 1 });
  app.scheduler.wake();
  return loadReminder(app, accountId, id);
}

/** POST /api/reminders/:id/resume: occurrences that passed while paused are skipped. */
export async function resumeReminder(app: App, accountId: string, id: string, nowMs = Date.now()): Promise<ReminderWithDestinations> {
  const existing = await loadReminder(app, accountId, id);
  if (existing.is_paused) {
    const patch: Parameters<typeof updateReminder>[2] = { is_paused: 0 };
    if (existing.recurrence_type !== 'ONCE') {
      const rule = { anchorMs: Date.parse(existing.remind_at_utc), timeZone: existing.timezone, recurrence: existing.recurrence_type };
      const snooze = existing.snoozed_at_utc && Date.parse(existing.snoozed_at_utc) > nowMs ? existing.snoozed_at_utc : null;
      const next = iso(nextOccurrenceAfter(rule, nowMs));
      Object.assign(patch, { snoozed_at_utc: snooze, next_occurrence_utc: next, next_fire_utc: snooze ?? next });
    }
    await updateReminder(app.db, existing.id, patch);
  }
  app.scheduler.wake();
  return loadReminder(app, accountId, id);
}

/**
 * POST /api/reminders/:id/snooze { until }: fires once more at `atMs` (whole seconds);
 * next_occurrence_utc is left alone so the regular schedule goes on from it afterwards.
 */
export async function snoozeReminder(app: App, accountId: string, id: string, atMs: number, nowMs = Date.now()): Promise<ReminderWithDestinations> {
  const existing = await loadReminder(app, accountId, id);
  if (!Number.isFinite(atMs) || atMs <= nowMs) throw new AppError('REMINDER_IN_PAST', 'Snooze time must be in the future');
  const snoozedAt = new Date(Math.floor(atMs / 1000) * 1000).toISOString();
  await updateReminder(app.db, existing.id, { snoozed_at_utc: snoozedAt, next_fire_utc: snoozedAt, completed_at: null });
  app.scheduler.wake();
  return loadReminder(app, accountId, id);
}

/** DELETE /api/reminders/:id */
export async function removeReminder(app: App, accountId: string, id: string): Promise<void> {
  const existing = await loadReminder(app, accountId, id);
  await app.db.transaction().execute((trx) => deleteReminderRows(trx, existing.id));
  app.scheduler.wake();
}
