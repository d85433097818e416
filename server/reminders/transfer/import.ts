/**
 * Import: a file of reminders read (read-json-csv.ts, read-ics.ts), each row through the same
 * checks as a create (prepare-row.ts), then created in one transaction (docs/time.md "Calendar feed, export and import").
 */
import type { StoredRecurrence } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { findAccountById, lockAccountForWrites } from '../../repositories/accounts.ts';
import type { Executor } from '../../repositories/executor.ts';
import { countRemindersOfAccount, findReminderOfAccount, insertReminder, listRemindersOfAccount, type ReminderWithDestinations } from '../../repositories/reminders.ts';
import { MAX_REMINDERS_PER_ACCOUNT } from '../input.ts';
import { earlierResult, idempotencyScope, runOnce } from '../idempotency.ts';
import { destinationsSaved } from '../../destinations/validate.ts';
import { type CreateOptions, saveDestinations, type ReminderDeps } from '../service.ts';
import { nextAlertUtc, parseStoredAlerts } from '../../scheduler/alerts.ts';
import { fileError, MAX_IMPORT_BYTES, type ImportMode, type TransferFormat, type TransferReminder } from './formats.ts';
import { prepareRow, type PreparedRow } from './prepare-row.ts';
import { readIcs } from './read-ics.ts';
import { readCsv, readJson } from './read-json-csv.ts';

const PREVIEW_ROWS = 20;

export interface ImportRequest {
  format: TransferFormat;
  content: string;
  dry_run?: boolean | undefined;
  mode?: ImportMode | undefined;
}

/** A row as it would be created: the file's reminder once checked, and when it would first fire. */
export interface ImportPreview extends TransferReminder {
  row: number;
  next_fire_utc: string | null;
}

/** A webhook signing secret issued by the import (a file carries none), shown once like after a create. */
export interface ImportedSecret {
  reminder_id: string;
  destination_id: string;
  message: string;
  url: string;
  secret: string;
}

export interface ImportResult {
  valid: number;
  created: number;
  errors: Array<{ row: number; code: string; error: string }>;
  preview: ImportPreview[];
  secrets: ImportedSecret[];
}

/** What an import records under its Idempotency-Key: the answer without its secrets, and what it created. */
type ImportRecord = Omit<ImportResult, 'secrets'> & { reminder_ids: string[] };

function previewOf(p: PreparedRow): ImportPreview {
  const s = p.valid.schedule;
  return {
    row: p.row,
    message: p.valid.message,
    date: s.local_date,
    time: s.local_time,
    timezone: s.timezone,
    recurrence: s.recurrence_type,
    rrule: s.rrule ?? null,
    exceptions: JSON.parse(p.exceptions) as string[],
    paused: p.paused,
    destinations: p.valid.destinations.map((d) => ({ type: d.type, metadata: { ...d.metadata } })),
    alerts: parseStoredAlerts(p.valid.alerts).map((m) => ({ before_minutes: m })),
    next_fire_utc: new Date(p.nextMs).toISOString(),
  };
}

/** The signing secrets of a created reminder's webhooks; `only`: those just issued (else every one it holds). */
function secretsOf(reminder: ReminderWithDestinations, only?: Map<string, string>): ImportedSecret[] {
  return reminder.destinations.flatMap((d) => {
    const secret = only ? only.get(d.id) : d.secret;
    if (!secret) return [];
    const url = (JSON.parse(d.metadata) as { url?: unknown }).url;
    return [{ reminder_id: reminder.id, destination_id: d.id, message: reminder.message, url: typeof url === 'string' ? url : '', secret }];
  });
}

/**
 * The answer to an import an earlier request with the same key made: its answer, with the secrets
 * its reminders hold now (that answer, which showed them, may never have arrived).
 */
async function replayed(deps: Pick<ReminderDeps, 'db'>, accountId: string, earlier: ImportRecord): Promise<ImportResult & { replayed: true }> {
  const { reminder_ids, ...result } = earlier;
  // In the order the import created them (the file's), as the first answer listed their secrets.
  const byId = new Map((await listRemindersOfAccount(deps.db, accountId)).map((r) => [r.id, r]));
  const reminders = reminder_ids.flatMap((id) => byId.get(id) ?? []);
  return { ...result, secrets: reminders.flatMap((r) => secretsOf(r)), replayed: true };
}

const limitMessage = `An account can hold at most ${MAX_REMINDERS_PER_ACCOUNT.toLocaleString('en-US')} reminders. Delete some first.`;

/**
 * Reads a file of reminders, checks every row as a create would, and (unless dry_run) creates
 * them in one transaction: all of them or none (all_or_nothing), or the valid ones (valid_only).
 * A file that cannot be read at all is an AppError (400); a row that fails is listed in errors.
 */
export async function importReminders(deps: ReminderDeps, accountId: string, request: ImportRequest, options: CreateOptions = {}): Promise<ImportResult & { replayed?: boolean }> {
  const nowMs = options.nowMs ?? Date.now();
  const mode: ImportMode = request.mode ?? 'all_or_nothing';
  // A dry run creates nothing, so it neither needs nor uses up a key; the import that follows it does.
  const scope = request.dry_run ? null : idempotencyScope(accountId, options.idempotencyKey, 'reminders.import', { format: request.format, content: request.content, mode }, nowMs);
  const earlier = await earlierResult<ImportRecord>(deps.db, scope);
  if (earlier) return replayed(deps, accountId, earlier);
  if (Buffer.byteLength(request.content) > MAX_IMPORT_BYTES) throw new AppError('IMPORT_TOO_LARGE', 'The file is larger than 1 MiB');
  const account = await findAccountById(deps.db, accountId);
  if (!account) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists');
  const rows = request.format === 'json' ? readJson(request.content) : request.format === 'csv' ? readCsv(request.content) : readIcs(request.content, account.timezone);
  if (rows.length === 0) throw fileError('EMPTY', 'The file holds no reminder');

  const errors: ImportResult['errors'] = [];
  const prepared: PreparedRow[] = [];
  let room = MAX_REMINDERS_PER_ACCOUNT - (await countRemindersOfAccount(deps.db, accountId));
  for (const raw of rows) {
    try {
      const p = await prepareRow(deps, accountId, raw, nowMs);
      if (room <= 0) throw new AppError('REMINDER_LIMIT', limitMessage);
      room -= 1;
      prepared.push(p);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      errors.push({ row: raw.row, code: err.code, error: err.message });
    }
  }
  const result: ImportResult = { valid: prepared.length, created: 0, errors, preview: prepared.slice(0, PREVIEW_ROWS).map(previewOf), secrets: [] };
  if (request.dry_run || prepared.length === 0 || (mode === 'all_or_nothing' && errors.length > 0)) return result;

  const createAll = async (trx: Executor) => {
    // Checked again in the transaction: another request may have created reminders meanwhile,
    // and others of the account count after this one (the lock).
    await lockAccountForWrites(trx, accountId);
    if ((await countRemindersOfAccount(trx, accountId)) + prepared.length > MAX_REMINDERS_PER_ACCOUNT) throw new AppError('REMINDER_LIMIT', limitMessage);
    const ids: string[] = [];
    const secrets: ImportedSecret[] = [];
    for (const p of prepared) {
      const v = p.valid;
      const next = new Date(p.nextMs).toISOString();
      const row = await insertReminder(trx, {
        account_id: accountId,
        message: v.message,
        ...v.schedule,
        recurrence_type: v.schedule.recurrence_type as StoredRecurrence,
        rrule: v.schedule.rrule ?? null,
        exceptions: p.exceptions,
        remind_at_utc: new Date(v.anchorMs).toISOString(),
        is_paused: p.paused ? 1 : 0,
        snoozed_at_utc: null,
        next_fire_utc: next,
        next_occurrence_utc: next,
        alerts: v.alerts,
        next_alert_utc: nextAlertUtc(v.alerts, next, nowMs),
      });
      ids.push(row.id);
      // New signing secrets for webhooks: the answer shows them once, as a create's does.
      const issued = await saveDestinations(trx, row.id, v.destinations);
      if (issued.size > 0) secrets.push(...secretsOf((await findReminderOfAccount(trx, accountId, row.id))!, issued));
    }
    return { ids, secrets };
  };
  result.created = prepared.length;
  const { secrets: _none, ...answer } = result;
  const outcome = await runOnce(deps.db, scope, createAll, (created): ImportRecord => ({ ...answer, reminder_ids: created.ids }));
  if (outcome.replayed) return replayed(deps, accountId, outcome.result);
  deps.scheduler.wake();
  for (const p of prepared) destinationsSaved(deps, accountId, p.valid.destinations);
  return { ...result, secrets: outcome.value.secrets };
}

