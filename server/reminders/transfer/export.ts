/** Export: an account's reminders as one JSON, CSV or ICS file. */
import { csvRow, guardCell } from '../../lib/csv.ts';
import { listRemindersOfAccount, type ReminderWithDestinations } from '../../repositories/reminders.ts';
import { remindersToIcs } from '../calendar.ts';
import { ruleOf } from '../schedule.ts';
import { parseStoredAlerts } from '../../scheduler/alerts.ts';
import type { ReminderDeps } from '../service.ts';
import { CSV_COLUMNS, type TransferFormat, type TransferReminder } from './formats.ts';

function transferOf(r: ReminderWithDestinations): TransferReminder {
  return {
    message: r.message,
    date: r.local_date,
    time: r.local_time,
    timezone: r.timezone,
    recurrence: r.recurrence_type,
    rrule: r.rrule,
    exceptions: [...ruleOf(r).skipped!].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString()),
    paused: r.is_paused === 1,
    // No secrets: a webhook gets a new signing secret when imported.
    destinations: r.destinations.map((d) => ({ type: d.type, metadata: JSON.parse(d.metadata) as Record<string, unknown> })),
    alerts: parseStoredAlerts(r.alerts).map((m) => ({ before_minutes: m })),
  };
}

export interface ExportFile {
  filename: string;
  contentType: string;
  body: string;
}

export async function exportReminders(deps: Pick<ReminderDeps, 'db' | 'config'>, accountId: string, format: TransferFormat, nowMs = Date.now()): Promise<ExportFile> {
  // Oldest first: imported in this order, they list (newest first) as they did.
  const reminders = (await listRemindersOfAccount(deps.db, accountId)).reverse();
  const filename = `chime-reminders-${new Date(nowMs).toISOString().slice(0, 10)}.${format}`;
  if (format === 'json') {
    const body = JSON.stringify({ format: 'chime-reminders', version: 1, exported_at: new Date(nowMs).toISOString(), reminders: reminders.map(transferOf) }, null, 2);
    return { filename, contentType: 'application/json; charset=utf-8', body };
  }
  if (format === 'csv') {
    let body = '\uFEFF' + csvRow([...CSV_COLUMNS]);
    for (const r of reminders.map(transferOf)) {
      body += csvRow(
        [
          r.message,
          r.date,
          r.time,
          r.timezone,
          r.recurrence,
          r.rrule ?? '',
          r.exceptions.join(' '),
          r.paused ? 'true' : 'false',
          JSON.stringify(r.destinations),
          (r.alerts ?? []).map((a) => a.before_minutes).join(' '),
        ].map(guardCell),
      );
    }
    // A UTF-8 byte-order mark, so spreadsheets read the accents right.
    return { filename, contentType: 'text/csv; charset=utf-8', body };
  }
  const body = remindersToIcs(reminders, { publicUrl: deps.config.publicUrl, nowMs, name: 'Chime', chimeProperties: true });
  return { filename, contentType: 'text/calendar; charset=utf-8', body };
}
