import type { Static } from '@sinclair/typebox';
import type { OwnerDestination, ReminderWithDestinations } from '../../repositories/reminders.ts';
import type { Language } from '../../lib/language.ts';
import { recurrenceSummary } from '../../reminders/recurrence-summary.ts';
import { exceptionsOf, firstOccurrenceOf, reminderStatus } from '../../reminders/schedule.ts';
import { parseStoredAlerts } from '../../scheduler/alerts.ts';
import type { ReminderOut } from './schemas.ts';

function presentDestination(d: OwnerDestination, secret?: string) {
  return {
    id: d.id,
    type: d.type,
    metadata: JSON.parse(d.metadata) as Record<string, string>,
    disabled_reason: d.disabled_reason,
    disabled_code: d.disabled_code,
    ...(secret ? { secret } : {}),
    ...(d.server_paused_at ? { server_paused: true } : {}),
  };
}

function firstOccurrenceUtc(r: ReminderWithDestinations): string | null {
  try {
    const ms = firstOccurrenceOf(r);
    return ms === null ? null : new Date(ms).toISOString();
  } catch {
    // A row the recurrence code refuses (a zone this ICU no longer knows): show what is stored.
    return null;
  }
}

/** A stored reminder as the API answers it: `date`/`time` are what the user chose, never read back from an instant. */
export function presentReminder(r: ReminderWithDestinations, language: Language, secrets: Map<string, string> = new Map()): Static<typeof ReminderOut> {
  return {
    id: r.id,
    account_id: r.account_id,
    remind_at_utc: r.remind_at_utc,
    first_occurrence_utc: firstOccurrenceUtc(r),
    snoozed_at_utc: r.snoozed_at_utc,
    next_fire_utc: r.next_fire_utc,
    message: r.message,
    created_at: r.created_at,
    updated_at: r.updated_at,
    recurrence_type: r.recurrence_type,
    rrule: r.rrule,
    exceptions: exceptionsOf(r),
    recurrence_text: recurrenceSummary(r, language),
    is_paused: r.is_paused === 1,
    timezone: r.timezone,
    date: r.local_date,
    time: r.local_time,
    status: reminderStatus(r),
    last_fired_at: r.last_fired_at,
    alerts: parseStoredAlerts(r.alerts).map((m) => ({ before_minutes: m })),
    next_alert_utc: r.is_paused ? null : r.next_alert_utc,
    destinations: r.destinations.map((d) => presentDestination(d, secrets.get(d.id))),
    subscriber_count: r.subscriber_count ?? 0,
    ...(r.server_notice ? { server_notice: r.server_notice } : {}),
  };
}
