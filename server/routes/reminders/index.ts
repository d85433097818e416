import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Destination } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { listIdentities, findAccountById } from '../../repositories/accounts.ts';
import {
  insertReminder,
  listDeliveryErrors,
  listRemindersOfAccount,
  replaceDestinations,
  type ReminderWithDestinations,
  updateReminder,
} from '../../repositories/reminders.ts';
import { errorResponses, IdParams, Ok } from '../../schemas/common.ts';
import { nextOccurrences, occurrencesBetween } from '../../time/recurrence.ts';
import { instantToDateTime } from '../../time/zoned.ts';
import { requireTimeZone } from '../../lib/validation.ts';
import { ResponseCache } from '../../lib/response-cache.ts';
import { loadReminder, pauseReminder, removeReminder, resumeReminder, snoozeReminder } from '../../reminders/service.ts';
import { firstFire, parseDestinations, parseMessage, parseRecurrence, parseWhen, type DestinationRules } from './reminder-input.ts';
import { DeliveryErrorOut, Occurrences, ReminderBody, ReminderOut, SnoozeBody } from './schemas.ts';
import type { DestinationInput } from '../../repositories/reminders.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Extra checks on Discord destinations (guild membership, channel permissions, role
     * mentionability); installed by the Discord plugin when Discord is configured.
     */
    checkDiscordDestinations?: (accountId: string, destinations: DestinationInput[]) => Promise<void>;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function destinationLabel(type: string, metadataJson: string): string {
  try {
    const meta = JSON.parse(metadataJson) as Record<string, string>;
    if (type === 'webhook' && meta.url) return `${meta.platform ?? 'generic'} webhook ${new URL(meta.url).host}`;
    if (type === 'discord_channel') return `Discord channel ${meta.channel_id}`;
  } catch {
    /* fall through to the plain label */
  }
  return type === 'discord_dm' ? 'Discord direct message' : type;
}

function presentDestination(d: Destination, secret?: string) {
  return {
    id: d.id,
    type: d.type,
    metadata: JSON.parse(d.metadata) as Record<string, string>,
    disabled_reason: d.disabled_reason,
    ...(secret ? { secret } : {}),
  };
}

export function presentReminder(r: ReminderWithDestinations, secrets: Map<string, string> = new Map()) {
  const { date, time } = instantToDateTime(Date.parse(r.remind_at_utc), r.timezone);
  return {
    id: r.id,
    account_id: r.account_id,
    remind_at_utc: r.remind_at_utc,
    snoozed_at_utc: r.snoozed_at_utc,
    next_fire_utc: r.next_fire_utc,
    message: r.message,
    created_at: r.created_at,
    updated_at: r.updated_at,
    recurrence_type: r.recurrence_type,
    is_paused: r.is_paused === 1,
    timezone: r.timezone,
    date,
    time,
    status: r.is_paused ? ('paused' as const) : r.next_fire_utc ? ('active' as const) : ('completed' as const),
    last_fired_at: r.last_fired_at,
    destinations: r.destinations.map((d) => presentDestination(d, secrets.get(d.id))),
  };
}

const reminders: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  async function rulesFor(accountId: string): Promise<DestinationRules> {
    const identities = await listIdentities(app.db, accountId);
    return { hasDiscordIdentity: identities.some((i) => i.provider === 'discord'), allowPrivateWebhookTargets: app.config.webhookAllowPrivateTargets };
  }

  async function accountZone(accountId: string): Promise<string> {
    const account = await findAccountById(app.db, accountId);
    if (!account) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists');
    return account.timezone;
  }

  const loadOwned = (accountId: string, id: string) => loadReminder(app, accountId, id);

  /** Validates a create/update body into the row fields it sets. */
  async function readBody(accountId: string, body: typeof ReminderBody.static, isNew: boolean) {
    const message = parseMessage(body.message);
    const recurrence = parseRecurrence(body.recurrence);
    const timezone = body.timezone ? requireTimeZone(body.timezone) : await accountZone(accountId);
    const anchor = parseWhen(body.date, body.time, timezone);
    const next = firstFire(anchor, timezone, recurrence);
    if (next === null) {
      throw new AppError('REMINDER_IN_PAST', isNew ? 'The reminder time is in the past. Pick a time in the future.' : 'A one-time reminder cannot be moved into the past');
    }
    const destinations = parseDestinations(body.destinations, await rulesFor(accountId));
    if (app.checkDiscordDestinations && destinations.some((d) => d.type !== 'webhook')) {
      await app.checkDiscordDestinations(accountId, destinations);
    }
    return { message, recurrence, timezone, anchor, next, destinations };
  }

  const one = { response: { 200: ReminderOut, ...errorResponses } };
  const params = IdParams;

  // The dashboard polls this list; while nothing was written, the serialized answer is reused.
  const listCache = new ResponseCache();
  app.get('/api/reminders', { schema: { response: { 200: Type.Array(ReminderOut), ...errorResponses } } }, async (request, reply) => {
    const accountId = request.auth!.accountId;
    // Read the token before the query: a write racing the query then invalidates the entry.
    const token = app.dbChangeToken();
    let body = listCache.get(accountId, token);
    if (body === undefined) {
      const list = await listRemindersOfAccount(app.db, accountId);
      body = reply.serialize(list.map((r) => presentReminder(r))) as string;
      listCache.set(accountId, token, body);
    }
    // Already serialized with this route's response schema; Fastify sends strings as they are.
    return reply.type('application/json; charset=utf-8').send(body as never);
  });

  app.get('/api/reminders/errors', { schema: { response: { 200: Type.Array(DeliveryErrorOut), ...errorResponses } } }, async (request) => {
    const rows = await listDeliveryErrors(app.db, request.auth!.accountId);
    return rows.map(({ destination_metadata, ...row }) => ({ ...row, destination_label: destinationLabel(row.destination_type, destination_metadata) }));
  });

  app.get(
    '/api/reminders/preview',
    {
      schema: {
        querystring: Type.Object({
          date: Type.String({ maxLength: 32 }),
          time: Type.String({ maxLength: 16 }),
          recurrence: Type.Optional(Type.String({ maxLength: 32 })),
          timezone: Type.Optional(Type.String({ maxLength: 100 })),
          count: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
        }),
        response: { 200: Occurrences, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const timezone = q.timezone ? requireTimeZone(q.timezone) : await accountZone(request.auth!.accountId);
      const recurrence = parseRecurrence(q.recurrence);
      const anchor = parseWhen(q.date, q.time, timezone);
      const count = Math.min(Math.max(Number(q.count ?? 5), 1), 50);
      const first = firstFire(anchor, timezone, recurrence);
      if (first === null) return { occurrences: [] };
      const rule = { anchorMs: anchor, timeZone: timezone, recurrence };
      return { occurrences: [first, ...nextOccurrences(rule, first, count - 1)].map((ms) => new Date(ms).toISOString()) };
    },
  );

  app.post('/api/reminders', { schema: { body: ReminderBody, response: { 201: ReminderOut, ...errorResponses } } }, async (request, reply) => {
    const accountId = request.auth!.accountId;
    const input = await readBody(accountId, request.body, true);
    const created = await app.db.transaction().execute(async (trx) => {
      const row = await insertReminder(trx, {
        account_id: accountId,
        message: input.message,
        remind_at_utc: iso(input.anchor)!,
        timezone: input.timezone,
        recurrence_type: input.recurrence,
        is_paused: 0,
        snoozed_at_utc: null,
        next_fire_utc: iso(input.next),
        next_occurrence_utc: iso(input.next),
      });
      const secrets = await replaceDestinations(trx, row.id, input.destinations);
      return { id: row.id, secrets };
    });
    app.scheduler.wake();
    const reminder = await loadOwned(accountId, created.id);
    return reply.status(201).send(presentReminder(reminder, created.secrets));
  });

  app.get('/api/reminders/:id', { schema: { params, ...one } }, async (request) => {
    return presentReminder(await loadOwned(request.auth!.accountId, request.params.id));
  });

  app.put('/api/reminders/:id', { schema: { params, body: ReminderBody, ...one } }, async (request) => {
    const accountId = request.auth!.accountId;
    const existing = await loadOwned(accountId, request.params.id);
    const input = await readBody(accountId, request.body, false);
    const secrets = await app.db.transaction().execute(async (trx) => {
      await updateReminder(trx, existing.id, {
        message: input.message,
        remind_at_utc: iso(input.anchor)!,
        timezone: input.timezone,
        recurrence_type: input.recurrence,
        // An edit reschedules from the new anchor; a pending snooze belonged to the old schedule.
        snoozed_at_utc: null,
        next_fire_utc: iso(input.next),
        next_occurrence_utc: iso(input.next),
        completed_at: null,
      });
      return replaceDestinations(trx, existing.id, input.destinations, existing.destinations);
    });
    app.scheduler.wake();
    return presentReminder(await loadOwned(accountId, existing.id), secrets);
  });

  // Pause, resume, snooze and delete share their rules with the bot (server/reminders/service.ts).
  app.delete('/api/reminders/:id', { schema: { params, response: { 200: Ok, ...errorResponses } } }, async (request) => {
    await removeReminder(app, request.auth!.accountId, request.params.id);
    return { ok: true };
  });

  app.post('/api/reminders/:id/pause', { schema: { params, ...one } }, async (request) => {
    return presentReminder(await pauseReminder(app, request.auth!.accountId, request.params.id));
  });

  app.post('/api/reminders/:id/resume', { schema: { params, ...one } }, async (request) => {
    return presentReminder(await resumeReminder(app, request.auth!.accountId, request.params.id));
  });

  app.post('/api/reminders/:id/snooze', { schema: { params, body: SnoozeBody, ...one } }, async (request) => {
    const { minutes, until } = request.body;
    let at: number;
    if (until !== undefined) {
      at = Date.parse(until);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(until) || Number.isNaN(at)) throw new AppError('VALIDATION_FAILED', 'until must be an ISO-8601 date-time');
    } else if (minutes !== undefined) {
      at = Date.now() + minutes * 60_000;
    } else {
      throw new AppError('VALIDATION_FAILED', 'Give minutes or until');
    }
    return presentReminder(await snoozeReminder(app, request.auth!.accountId, request.params.id, at));
  });

  app.post('/api/reminders/:id/duplicate', { schema: { params, response: { 201: ReminderOut, ...errorResponses } } }, async (request, reply) => {
    const accountId = request.auth!.accountId;
    const source = await loadOwned(accountId, request.params.id);
    const anchor = Date.parse(source.remind_at_utc);
    // A copy of a finished one-off keeps its date and shows as completed until the user edits it.
    const next = iso(firstFire(anchor, source.timezone, source.recurrence_type));
    const created = await app.db.transaction().execute(async (trx) => {
      const row = await insertReminder(trx, {
        account_id: accountId,
        message: source.message,
        remind_at_utc: source.remind_at_utc,
        timezone: source.timezone,
        recurrence_type: source.recurrence_type,
        is_paused: 0,
        snoozed_at_utc: null,
        next_fire_utc: next,
        next_occurrence_utc: next,
        completed_at: next ? null : new Date().toISOString(),
      });
      const inputs = source.destinations.map((d) => ({ type: d.type, metadata: JSON.parse(d.metadata) as Record<string, unknown> }));
      const secrets = await replaceDestinations(trx, row.id, inputs);
      return { id: row.id, secrets };
    });
    app.scheduler.wake();
    return reply.status(201).send(presentReminder(await loadOwned(accountId, created.id), created.secrets));
  });

  app.get(
    '/api/reminders/:id/occurrences',
    {
      schema: {
        params,
        querystring: Type.Object({
          count: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
          from: Type.Optional(Type.String({ maxLength: 40 })),
          to: Type.Optional(Type.String({ maxLength: 40 })),
        }),
        response: { 200: Occurrences, ...errorResponses },
      },
    },
    async (request) => {
      const r = await loadOwned(request.auth!.accountId, request.params.id);
      const rule = { anchorMs: Date.parse(r.remind_at_utc), timeZone: r.timezone, recurrence: r.recurrence_type };
      const { from, to, count } = request.query;
      if (from !== undefined || to !== undefined) {
        const fromMs = from ? Date.parse(from) : NaN;
        const toMs = to ? Date.parse(to) : NaN;
        if (Number.isNaN(fromMs) || Number.isNaN(toMs) || toMs <= fromMs) throw new AppError('VALIDATION_FAILED', 'from and to must be ISO-8601 date-times with from < to');
        if (toMs - fromMs > 400 * 86_400_000) throw new AppError('VALIDATION_FAILED', 'The range may span at most 400 days');
        return { occurrences: occurrencesBetween(rule, fromMs, toMs, 2000).map((ms) => new Date(ms).toISOString()) };
      }
      const n = Math.min(Math.max(Number(count ?? 5), 1), 100);
      if (r.is_paused || !r.next_occurrence_utc) {
        return { occurrences: r.is_paused ? nextOccurrences(rule, Date.now(), n).map((ms) => new Date(ms).toISOString()) : [] };
      }
      const first = Date.parse(r.next_occurrence_utc);
      return { occurrences: [first, ...nextOccurrences(rule, first, n - 1)].map((ms) => new Date(ms).toISOString()) };
    },
  );
};

export default reminders;
