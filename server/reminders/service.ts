/**
 * The reminders service: every rule about reminders lives here once, for the HTTP API and the
 * Discord bot alike (docs/architecture.md "Layers"). Adapters translate their transport into one
 * call of these functions and the result (or AppError) back. This file reads, validates, creates
 * and edits; lifecycle.ts pauses, resumes, snoozes and deletes; occurrences.ts says when a
 * reminder fires; skip.ts skips and restores single occurrences.
 *
 * A reminder stores what the user chose (local date, wall-clock time, IANA zone, recurrence);
 * remind_at_utc, next_fire_utc and next_occurrence_utc are derived here (docs/time.md "How a reminder keeps time").
 */
import type { FastifyInstance } from 'fastify';
import type { Destination } from '../db/database.ts';
import { destinationsSaved, preflightDestinations, parseDestinations, needsDiscordIdentity, type DestinationInput, type RawDestination } from '../destinations/validate.ts';
import { destinationModule } from '../destinations/registry.ts';
import { AppError, badRequest } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { requireTimeZone } from '../accounts/validation.ts';
import { findAccountById, findIdentity, lockAccountForWrites, reminderListVersion } from '../repositories/accounts.ts';
import type { Executor } from '../repositories/executor.ts';
import { discardPreparedDeliveries } from '../repositories/outbox.ts';
import {
  countRemindersOfAccount,
  deleteDestinations,
  findReminderOfAccount,
  insertDestination,
  insertReminder,
  listRemindersOfAccount,
  type NewReminder,
  type ReminderWithDestinations,
  updateDestination,
  updateReminder,
} from '../repositories/reminders.ts';
import { quoted, recordServerChange } from '../servers/audit.ts';
import { enforceServerRules } from '../servers/rules.ts';
import { checkRRuleFires } from '../time/rrule.ts';
import { MAX_REMINDERS_PER_ACCOUNT, parseAlerts, parseLocalDate, parseLocalTime, parseMessage, parseRepetition } from './input.ts';
import { nextAlertUtc, parseStoredAlerts, storedAlertsText } from '../scheduler/alerts.ts';
import { earliestInstant } from '../scheduler/wake-hint.ts';
import { earlierResult, idempotencyScope, type IdempotentOperation, runOnce } from './idempotency.ts';
import { anchorOf, firstFireFrom, type ScheduleFields } from './schedule.ts';

/** `mail`, when given, mails the confirmation link of an email address a save adds. */
export type ReminderDeps = Pick<FastifyInstance, 'db' | 'scheduler' | 'config' | 'discord' | 'log'> & Partial<Pick<FastifyInstance, 'mail'>>;

/** What a client sends to create or replace a reminder (unvalidated). */
export interface ReminderInput {
  date: unknown;
  time: unknown;
  message: unknown;
  recurrence?: unknown;
  /** The RFC 5545 rule of a CUSTOM recurrence. */
  rrule?: unknown;
  destinations?: readonly RawDestination[] | undefined;
  /** The zone of date/time. Create: defaults to the account's zone; update: to the reminder's own. */
  timezone?: unknown;
  /** `[{ before_minutes }]`, up to 3. Create: none when absent; update: the reminder's own when absent. */
  alerts?: unknown;
}

export interface SavedReminder {
  reminder: ReminderWithDestinations;
  /** Signing secrets of destinations created by this call, by destination id (shown once). */
  secrets: Map<string, string>;
  /** An earlier request with the same Idempotency-Key created it; this one created nothing. */
  replayed?: boolean;
}

/** How a create runs: its "now", and the client's Idempotency-Key (idempotency.ts). */
export interface CreateOptions {
  nowMs?: number;
  idempotencyKey?: string | undefined;
}

/** What a create records under its Idempotency-Key. */
interface CreatedRecord {
  reminder_id: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// -------------------------------------------------------------------------------------------
// Reading

export async function getReminder(deps: Pick<ReminderDeps, 'db'>, accountId: string, id: string): Promise<ReminderWithDestinations> {
  const reminder = await findReminderOfAccount(deps.db, accountId, id);
  // Another account's reminder is "not found" too: ids of others are never confirmed.
  if (!reminder) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
  return reminder;
}

export function listReminders(deps: Pick<ReminderDeps, 'db'>, accountId: string): Promise<ReminderWithDestinations[]> {
  return listRemindersOfAccount(deps.db, accountId);
}

/**
 * What a cached copy of the account's list is checked against: while it has not moved, the list is
 * the same. It moves on any change to the account's reminders or destinations, by any connection,
 * and other accounts' writes leave the copy valid. On SQLite, the account's change counter, which
 * triggers move; on PostgreSQL, the change notices the database sends for the account (exact
 * across instances; db/pg-changes.ts), as a per-account counter would make concurrent writers of
 * one account wait for each other. Read it before the list: a change racing the read then makes
 * the copy stale, never wrong.
 */
export async function reminderListToken(
  deps: Pick<FastifyInstance, 'db' | 'dbDialect' | 'dbAccountChangeToken'>,
  accountId: string,
  /** The token this request already read for the account (its authentication did, on PostgreSQL). */
  readThisRequest?: string,
): Promise<string> {
  if (deps.dbDialect !== 'sqlite') return readThisRequest ?? deps.dbAccountChangeToken(accountId);
  return `account:${(await reminderListVersion(deps.db, accountId)) ?? 'gone'}`;
}

// -------------------------------------------------------------------------------------------
// Validation shared by create, update and preview

async function accountZone(deps: Pick<ReminderDeps, 'db'>, accountId: string): Promise<string> {
  const account = await findAccountById(deps.db, accountId);
  if (!account) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists');
  return account.timezone;
}

/**
 * Date, time, zone and repetition -> the stored schedule fields (in the API's error order). A
 * custom rule must fire at least once from its anchor (RRULE_INVALID naming the part otherwise).
 */
export async function readSchedule(
  deps: Pick<ReminderDeps, 'db'>,
  accountId: string,
  input: Pick<ReminderInput, 'date' | 'time' | 'recurrence' | 'rrule' | 'timezone'>,
  defaultZone: string | null,
): Promise<ScheduleFields> {
  const repetition = parseRepetition(input.recurrence, input.rrule);
  const timezone =
    input.timezone !== undefined && input.timezone !== null && input.timezone !== '' ? requireTimeZone(input.timezone) : (defaultZone ?? (await accountZone(deps, accountId)));
  const schedule = { local_date: parseLocalDate(input.date), local_time: parseLocalTime(input.time), timezone, recurrence_type: repetition.recurrence_type, rrule: repetition.rrule };
  if (repetition.rule) {
    const fires = checkRRuleFires(repetition.rule, { date: schedule.local_date, time: schedule.local_time, timeZone: timezone });
    if (!fires.ok) throw badRequest('RRULE_INVALID', `rrule ${fires.part}: ${fires.message}`, { part: fires.part });
  }
  return schedule;
}

export interface ValidReminder {
  message: string;
  schedule: ScheduleFields;
  /** The alerts' stored text (reminders.alerts). */
  alerts: string;
  anchorMs: number;
  nextMs: number;
  destinations: DestinationInput[];
}

/** Whether two schedules are the same repetition from the same anchor (skipped occurrences then stay meaningful). */
const sameSchedule = (a: ScheduleFields, b: ScheduleFields) =>
  a.local_date === b.local_date && a.local_time === b.local_time && a.timezone === b.timezone && a.recurrence_type === b.recurrence_type && a.rrule === b.rrule;

/**
 * `existing` is the stored reminder of an update: its zone is the default one, and its skipped
 * occurrences are kept when the schedule does not change (they belong to the old one otherwise).
 */
async function validate(
  deps: ReminderDeps,
  accountId: string,
  input: ReminderInput,
  existing: (ScheduleFields & { id?: string; alerts?: string }) | null,
  nowMs: number,
): Promise<ValidReminder> {
  const message = parseMessage(input.message);
  const schedule: ScheduleFields = await readSchedule(deps, accountId, input, existing?.timezone ?? null);
  const alerts = input.alerts === undefined && existing ? storedAlertsText(parseStoredAlerts(existing.alerts)) : storedAlertsText(parseAlerts(input.alerts));
  schedule.exceptions = existing && sameSchedule(existing, schedule) ? (existing.exceptions ?? '[]') : '[]';
  const nextMs = firstFireFrom(schedule, nowMs);
  if (nextMs === null) {
    throw new AppError(
      'REMINDER_IN_PAST',
      schedule.recurrence_type !== 'ONCE'
        ? 'The series has no occurrence left in the future. Change its end or its start.'
        : existing
          ? 'A one-time reminder cannot be moved into the past'
          : 'The reminder time is in the past. Pick a time in the future.',
    );
  }
  // Webhooks and email, most reminders' destinations, need no read of the linked accounts.
  const hasDiscordIdentity = needsDiscordIdentity(input.destinations) && (await findIdentity(deps.db, accountId, 'discord')) !== undefined;
  const destinations = parseDestinations(input.destinations, {
    hasDiscordIdentity,
    allowPrivateWebhookTargets: deps.config.webhookAllowPrivateTargets,
  });
  await preflightDestinations(deps, accountId, destinations, existing && 'destinations' in existing ? (existing as ReminderWithDestinations).destinations : []);
  await enforceServerRules(deps, accountId, destinations, existing?.id ?? null);
  return { message, schedule, alerts, anchorMs: anchorOf(schedule), nextMs, destinations };
}

/** The checks of a create, without writing: transfer/prepare-row.ts runs each imported row through them. */
export function validateNewReminder(deps: ReminderDeps, accountId: string, input: ReminderInput, nowMs: number): Promise<ValidReminder> {
  return validate(deps, accountId, input, null, nowMs);
}

// -------------------------------------------------------------------------------------------
// Destinations of a reminder

/** The Discord server a destination posts in (a channel's), kept in its own column for the servers pages. */
export function guildOf(input: Pick<DestinationInput, 'type' | 'metadata'>): string | null {
  return input.type === 'discord_channel' && typeof input.metadata.guild_id === 'string' ? input.metadata.guild_id : null;
}

/**
 * Saves a reminder's destination list. A destination sent back with its id keeps its row (and so
 * its signing secret and delivery history) when its type is unchanged; the others are created
 * with a new secret where their type issues one; the rest are deleted.
 */
export async function saveDestinations(trx: Executor, reminderId: string, inputs: DestinationInput[], existing: Destination[] = []): Promise<Map<string, string>> {
  const secrets = new Map<string, string>();
  const kept = new Set<string>();
  for (const [position, input] of inputs.entries()) {
    const metadata = JSON.stringify(input.metadata);
    const match = existing.find((d) => d.id === input.id && d.type === input.type && !kept.has(d.id));
    if (match) {
      kept.add(match.id);
      // A changed target deserves a fresh chance: clear a "disabled" left by the old target.
      const newSecret = input.secret !== undefined && input.secret !== match.secret;
      const retarget = match.metadata === metadata && !newSecret ? {} : { disabled_at: null, disabled_reason: null, disabled_code: null };
      // A credential the user gave replaces the stored one; without one, the stored one stays.
      await updateDestination(trx, match.id, { metadata, position, guild_id: guildOf(input), ...retarget, ...(newSecret ? { secret: input.secret! } : {}) });
      continue;
    }
    const id = newId();
    const module = destinationModule(input.type);
    const issued = input.secret === undefined ? (module?.issueSecret?.() ?? null) : null;
    const secret = input.secret ?? issued;
    // Only a secret the server issued is shown (once), here or at a test send before the save
    // (webhook); a credential the user typed (an ntfy token...) never is.
    if (secret && module?.issueSecret) secrets.set(id, secret);
    await insertDestination(trx, { id, reminder_id: reminderId, type: input.type, metadata, secret, position, guild_id: guildOf(input) });
  }
  await deleteDestinations(
    trx,
    existing.filter((d) => !kept.has(d.id)).map((d) => d.id),
  );
  return secrets;
}

/**
 * Inserts a reminder within the account's limit, checked in the same transaction; parallel creates
 * of one account count one after the other.
 */
export async function insertWithinLimit(trx: Executor, row: NewReminder) {
  await lockAccountForWrites(trx, row.account_id);
  if ((await countRemindersOfAccount(trx, row.account_id)) >= MAX_REMINDERS_PER_ACCOUNT) {
    throw new AppError('REMINDER_LIMIT', `An account can hold at most ${MAX_REMINDERS_PER_ACCOUNT.toLocaleString('en-US')} reminders. Delete some first.`);
  }
  return insertReminder(trx, row);
}

// -------------------------------------------------------------------------------------------
// Writing

export function createReminder(deps: ReminderDeps, accountId: string, input: ReminderInput, options: CreateOptions = {}): Promise<SavedReminder> {
  return createOnce(deps, accountId, { operation: 'reminders.create', input }, options, async (nowMs) => {
    const v = await validate(deps, accountId, input, null, nowMs);
    const row: NewReminder = {
      account_id: accountId,
      message: v.message,
      ...v.schedule,
      rrule: v.schedule.rrule ?? null,
      exceptions: v.schedule.exceptions ?? '[]',
      remind_at_utc: iso(v.anchorMs)!,
      is_paused: 0,
      snoozed_at_utc: null,
      next_fire_utc: iso(v.nextMs),
      next_occurrence_utc: iso(v.nextMs),
      alerts: v.alerts,
      next_alert_utc: nextAlertUtc(v.alerts, iso(v.nextMs), nowMs),
    };
    return { row, destinations: v.destinations };
  });
}

/**
 * Inserts a new reminder and its destinations (built by `build`) under the request's
 * Idempotency-Key: when an earlier request with the key made it, answers that one instead. The key
 * is looked up before building, so a retry is answered even if building would now fail (the time
 * has passed, the source of a copy was deleted).
 */
async function createOnce(
  deps: ReminderDeps,
  accountId: string,
  request: { operation: IdempotentOperation; input: unknown },
  options: CreateOptions,
  build: (nowMs: number) => Promise<{ row: NewReminder; destinations: DestinationInput[] }>,
): Promise<SavedReminder> {
  const nowMs = options.nowMs ?? Date.now();
  const scope = idempotencyScope(accountId, options.idempotencyKey, request.operation, request.input, nowMs);
  const earlier = await earlierResult<CreatedRecord>(deps.db, scope);
  if (earlier) return replayCreated(deps, accountId, earlier);
  const { row, destinations } = await build(nowMs);
  const outcome = await runOnce(
    deps.db,
    scope,
    async (trx) => {
      const created = await insertWithinLimit(trx, row);
      return { id: created.id, secrets: await saveDestinations(trx, created.id, destinations) };
    },
    (created): CreatedRecord => ({ reminder_id: created.id }),
  );
  if (outcome.replayed) return replayCreated(deps, accountId, outcome.result);
  deps.scheduler.wake(earliestInstant(row.next_fire_utc, row.next_alert_utc));
  destinationsSaved(deps, accountId, destinations);
  await recordServerChange(deps.db, { guildIds: destinations.map(guildOf), actorAccountId: accountId, action: 'create', reminderId: outcome.value.id, detail: { kind: 'created', params: { message: quoted(row.message) } } });
  return { reminder: await getReminder(deps, accountId, outcome.value.id), secrets: outcome.value.secrets };
}

/**
 * The answer to a request whose creation an earlier request with the same key made: the reminder
 * as it is now, with its signing secrets (the earlier answer, which showed them, may never have
 * arrived; its owner can read new ones by rotating anyway).
 */
async function replayCreated(deps: ReminderDeps, accountId: string, earlier: CreatedRecord): Promise<SavedReminder> {
  const reminder = await getReminder(deps, accountId, earlier.reminder_id);
  const secrets = new Map(reminder.destinations.flatMap((d) => (d.secret ? [[d.id, d.secret] as const] : [])));
  return { reminder, secrets, replayed: true };
}

/** Replaces a reminder's fields; it keeps its own zone unless the input names another. */
export async function updateReminderFields(deps: ReminderDeps, accountId: string, id: string, input: ReminderInput, nowMs = Date.now()): Promise<SavedReminder> {
  const existing = await getReminder(deps, accountId, id);
  const v = await validate(deps, accountId, input, existing, nowMs);
  const nextFire = iso(v.nextMs);
  // Alerts whose time has passed by this edit are not sent.
  const nextAlert = nextAlertUtc(v.alerts, nextFire, nowMs);
  const secrets = await deps.db.transaction().execute(async (trx) => {
    await updateReminder(trx, existing.id, {
      message: v.message,
      ...v.schedule,
      rrule: v.schedule.rrule ?? null,
      exceptions: v.schedule.exceptions ?? '[]',
      remind_at_utc: iso(v.anchorMs)!,
      // An edit reschedules from the new anchor; a pending snooze belonged to the old schedule.
      snoozed_at_utc: null,
      next_fire_utc: nextFire,
      next_occurrence_utc: nextFire,
      alerts: v.alerts,
      next_alert_utc: nextAlert,
      completed_at: null,
    });
    // An occurrence the scheduler prepared for the coming second went by the old fields: the new
    // schedule, derived from now, prepares it again if it is still due (server/scheduler/README.md).
    await discardPreparedDeliveries(trx, existing.id, iso(nowMs)!);
    return saveDestinations(trx, existing.id, v.destinations, existing.destinations);
  });
  deps.scheduler.wake(earliestInstant(nextFire, nextAlert));
  destinationsSaved(deps, accountId, v.destinations);
  await recordServerChange(deps.db, {
    guildIds: [...existing.destinations.map((d) => d.guild_id), ...v.destinations.map(guildOf)],
    actorAccountId: accountId,
    action: 'edit',
    reminderId: existing.id,
    detail: { kind: 'edited', params: { message: quoted(v.message) } },
  });
  return { reminder: await getReminder(deps, accountId, existing.id), secrets };
}

/** What a partial edit may change (the bot's /reminder edit); absent fields keep their value. */
export interface ReminderPatch {
  message?: string | undefined;
  date?: string | undefined;
  time?: string | undefined;
  recurrence?: string | undefined;
  rrule?: string | null | undefined;
}

/**
 * Changes some fields of a reminder and keeps the rest (its zone, destinations and, when the
 * schedule is unchanged, its skipped occurrences), with the same rules as a full update.
 */
export async function editReminder(deps: ReminderDeps, accountId: string, id: string, patch: ReminderPatch, nowMs = Date.now()): Promise<SavedReminder> {
  const existing = await getReminder(deps, accountId, id);
  const recurrence = patch.recurrence ?? existing.recurrence_type;
  return updateReminderFields(
    deps,
    accountId,
    id,
    {
      message: patch.message ?? existing.message,
      date: patch.date ?? existing.local_date,
      time: patch.time ?? existing.local_time,
      recurrence,
      // A new preset drops the old rule; a new rule needs CUSTOM.
      rrule: patch.rrule !== undefined ? patch.rrule : recurrence === 'CUSTOM' ? existing.rrule : null,
      destinations: existing.destinations.map((d) => ({ id: d.id, type: d.type, metadata: JSON.parse(d.metadata) as Record<string, unknown> })),
    },
    nowMs,
  );
}

/** What a copy of a reminder keeps: what the user chose (message, schedule, skipped occurrences) and its anchor. */
export function scheduleOf(
  source: ReminderWithDestinations,
): Pick<NewReminder, 'message' | 'local_date' | 'local_time' | 'timezone' | 'recurrence_type' | 'rrule' | 'exceptions' | 'remind_at_utc' | 'alerts'> {
  const { message, local_date, local_time, timezone, recurrence_type, rrule, exceptions, remind_at_utc, alerts } = source;
  return { message, local_date, local_time, timezone, recurrence_type, rrule, exceptions, remind_at_utc, alerts };
}

/** A copy with new destination rows (and secrets). A copy of a finished one-off shows as completed until edited. */
export function duplicateReminder(deps: ReminderDeps, accountId: string, id: string, options: CreateOptions = {}): Promise<SavedReminder> {
  return createOnce(deps, accountId, { operation: 'reminders.duplicate', input: { id } }, options, async (nowMs) => {
    const source = await getReminder(deps, accountId, id);
    const next = iso(firstFireFrom(source, nowMs));
    const row: NewReminder = {
      account_id: accountId,
      ...scheduleOf(source),
      is_paused: 0,
      snoozed_at_utc: null,
      next_fire_utc: next,
      next_occurrence_utc: next,
      next_alert_utc: nextAlertUtc(source.alerts, next, nowMs),
      completed_at: next ? null : new Date(nowMs).toISOString(),
    };
    return { row, destinations: source.destinations.map((d) => ({ type: d.type, metadata: JSON.parse(d.metadata) as Record<string, unknown> })) };
  });
}
