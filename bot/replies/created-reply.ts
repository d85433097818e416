import type { FastifyInstance } from 'fastify';
import { t } from '../../server/discord/i18n.ts';
import { truncate, unix } from '../../server/discord/message-text.ts';
import { reminderPageUrl } from '../../server/lib/reminder-page-url.ts';
import { listOccurrences } from '../../server/reminders/occurrences.ts';
import { parseStoredAlerts } from '../../server/scheduler/alerts.ts';
import type { ScheduleFields } from '../../server/reminders/schedule.ts';
import { ALERT_CHOICES, recurrenceLabel } from './format.ts';

type CreatedReminder = ScheduleFields & { id: string; message: string; next_fire_utc: string | null; remind_at_utc: string; alerts?: string | null };

/**
 * The confirmation of a new reminder (/remind, "Remind me about this"): when as `<t:…:F>`
 * (`<t:…:R>`), the repetition in words, the next 3 occurrences of a repeating one (so the rule can
 * be checked at a glance), its alerts before the first one, where, the message, the link to its page. The echo of the message is
 * what gets shortened when the whole reply would exceed Discord's 2000.
 */
export async function createdReminderText(
  app: FastifyInstance,
  accountId: string,
  locale: string | null | undefined,
  reminder: CreatedReminder,
  destinationText: string,
  nowMs: number,
): Promise<string> {
  const fireMs = Date.parse(reminder.next_fire_utc ?? reminder.remind_at_utc);
  const next = reminder.recurrence_type === 'ONCE' ? [] : await listOccurrences(app, accountId, reminder.id, { count: 3 }, nowMs);
  const top = [
    t(locale, 'remind.created', { unix: unix(fireMs) }),
    t(locale, 'remind.repeats', { recurrence: recurrenceLabel(locale, reminder) }),
    ...(next.length > 1 ? [t(locale, 'remind.next', { list: next.map((iso) => `<t:${unix(Date.parse(iso))}:f>`).join(', ') })] : []),
    // Only /remind's choices can be set from Discord, so each has its label.
    ...parseStoredAlerts(reminder.alerts)
      .filter((minutes) => ALERT_CHOICES[minutes])
      .map((minutes) => t(locale, 'remind.alert', { before: t(locale, ALERT_CHOICES[minutes]!), unix: unix(fireMs - minutes * 60_000) })),
    t(locale, 'remind.where', { destination: destinationText }),
  ].join('\n');
  const link = t(locale, 'remind.link', { url: reminderPageUrl(app.config.publicUrl, reminder.id) });
  const room = 2000 - top.length - link.length - t(locale, 'remind.message', { message: '' }).length - 2;
  const echo = t(locale, 'remind.message', { message: truncate(reminder.message, Math.max(room, 10)) });
  return `${top}\n${echo}\n${link}`;
}
