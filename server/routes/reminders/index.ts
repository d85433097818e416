import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ResponseCache } from '../../lib/response-cache.ts';
import { pauseReminder, removeReminder, resumeReminder, snoozeReminder } from '../../reminders/lifecycle.ts';
import { listOccurrences, previewOccurrences } from '../../reminders/occurrences.ts';
import { createReminder, duplicateReminder, getReminder, listReminders, reminderListToken, updateReminderFields } from '../../reminders/service.ts';
import { readScheduleText } from '../../reminders/schedule-text/read-schedule-text.ts';
import { restoreOccurrence, skipOccurrence } from '../../reminders/skip.ts';
import { errorResponses, IdempotencyHeaders, IdParams, Ok, REPLAYED_HEADER } from '../../schemas/common.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { recurrenceSummary } from '../../reminders/recurrence-summary.ts';
import { presentReminder } from './present.ts';
import { Occurrences, OccurrencesQuery, Preview, PreviewQuery, ReminderBody, ReminderOut, ScheduleFromText, ScheduleTextQuery, SkipBody, SkipParams, SnoozeBody } from './schemas.ts';

const optionalNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** The reminders API: each handler is one call of the reminders service (server/reminders/service.ts). */
const reminders: FastifyPluginAsyncTypebox = async (app) => {
  // What a personal access token needs for each route (docs/api.md).
  const read = { tokenScope: 'reminders:read' } as const;
  const write = { tokenScope: 'reminders:write' } as const;
  app.addHook('onRequest', app.authenticate);
  // Human text in answers (recurrence_text) follows the caller's Accept-Language.
  const lang = (request: { headers: Record<string, string | string[] | undefined> }) => languageFromHeader(request.headers['accept-language']);

  const one = { response: { 200: ReminderOut, ...errorResponses } };
  const created = { response: { 201: ReminderOut, ...errorResponses } };
  const params = IdParams;

  // The dashboard polls this list; while nothing of the account's changed, the serialized answer is reused.
  const listCache = new ResponseCache();
  app.get('/api/reminders', { config: read, schema: { response: { 200: Type.Array(ReminderOut), ...errorResponses } } }, async (request, reply) => {
    const { accountId, accountChangeToken } = request.auth!;
    // Read the token before the query: a write racing the query then invalidates the entry.
    const token = await reminderListToken(app, accountId, accountChangeToken);
    const language = lang(request);
    const key = `${accountId}|${language}`;
    let body = listCache.get(key, token);
    if (body === undefined) {
      const list = await listReminders(app, accountId);
      body = reply.serialize(list.map((r) => presentReminder(r, language))) as string;
      listCache.set(key, token, body);
    }
    // Already serialized with this route's response schema; Fastify sends strings as they are.
    return reply.type('application/json; charset=utf-8').send(body as never);
  });

  app.get('/api/reminders/preview', { config: read, schema: { querystring: PreviewQuery, response: { 200: Preview, ...errorResponses } } }, async (request) => {
    const { count, ...q } = request.query;
    const preview = await previewOccurrences(app, request.auth!.accountId, { ...q, count: optionalNumber(count) });
    return { occurrences: preview.occurrences, recurrence_text: recurrenceSummary(preview.schedule, lang(request)) };
  });

  // A schedule typed in words, read as the wizard's fields (the same reading as the bot's /remind).
  app.get('/api/reminders/schedule-from-text', { config: read, schema: { querystring: ScheduleTextQuery, response: { 200: ScheduleFromText, ...errorResponses } } }, async (request) => {
    const read = await readScheduleText(app, request.auth!.accountId, request.query.text);
    const schedule = { local_date: read.date, local_time: read.time, timezone: read.timezone, recurrence_type: read.recurrence, rrule: read.rrule };
    return { ...read, recurrence_text: recurrenceSummary(schedule, lang(request)) };
  });

  app.post('/api/reminders', { config: write, schema: { body: ReminderBody, headers: IdempotencyHeaders, ...created } }, async (request, reply) => {
    const saved = await createReminder(app, request.auth!.accountId, request.body, { idempotencyKey: request.headers['idempotency-key'] });
    if (saved.replayed) reply.header(REPLAYED_HEADER, 'true');
    return reply.status(201).send(presentReminder(saved.reminder, lang(request), saved.secrets));
  });

  app.get('/api/reminders/:id', { config: read, schema: { params, ...one } }, async (request) => {
    return presentReminder(await getReminder(app, request.auth!.accountId, request.params.id), lang(request));
  });

  app.put('/api/reminders/:id', { config: write, schema: { params, body: ReminderBody, ...one } }, async (request) => {
    const saved = await updateReminderFields(app, request.auth!.accountId, request.params.id, request.body);
    return presentReminder(saved.reminder, lang(request), saved.secrets);
  });

  app.delete('/api/reminders/:id', { config: write, schema: { params, response: { 200: Ok, ...errorResponses } } }, async (request) => {
    await removeReminder(app, request.auth!.accountId, request.params.id);
    return { ok: true };
  });

  app.post('/api/reminders/:id/pause', { config: write, schema: { params, ...one } }, async (request) => {
    return presentReminder(await pauseReminder(app, request.auth!.accountId, request.params.id), lang(request));
  });

  app.post('/api/reminders/:id/resume', { config: write, schema: { params, ...one } }, async (request) => {
    return presentReminder(await resumeReminder(app, request.auth!.accountId, request.params.id), lang(request));
  });

  app.post('/api/reminders/:id/snooze', { config: write, schema: { params, body: SnoozeBody, ...one } }, async (request) => {
    return presentReminder(await snoozeReminder(app, request.auth!.accountId, request.params.id, request.body), lang(request));
  });

  app.post('/api/reminders/:id/duplicate', { config: write, schema: { params, headers: IdempotencyHeaders, ...created } }, async (request, reply) => {
    const saved = await duplicateReminder(app, request.auth!.accountId, request.params.id, { idempotencyKey: request.headers['idempotency-key'] });
    if (saved.replayed) reply.header(REPLAYED_HEADER, 'true');
    return reply.status(201).send(presentReminder(saved.reminder, lang(request), saved.secrets));
  });

  app.post('/api/reminders/:id/skip', { config: write, schema: { params, body: SkipBody, ...one } }, async (request) => {
    return presentReminder(await skipOccurrence(app, request.auth!.accountId, request.params.id, request.body.occurrence), lang(request));
  });

  app.delete('/api/reminders/:id/skip/:occurrence', { config: write, schema: { params: SkipParams, ...one } }, async (request) => {
    return presentReminder(await restoreOccurrence(app, request.auth!.accountId, request.params.id, request.params.occurrence), lang(request));
  });

  app.get('/api/reminders/:id/occurrences', { config: read, schema: { params, querystring: OccurrencesQuery, response: { 200: Occurrences, ...errorResponses } } }, async (request) => {
    const { count, ...range } = request.query;
    return { occurrences: await listOccurrences(app, request.auth!.accountId, request.params.id, { ...range, count: optionalNumber(count) }) };
  });
};

export default reminders;
