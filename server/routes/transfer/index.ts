import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { exportReminders } from '../../reminders/transfer/export.ts';
import { MAX_IMPORT_BYTES } from '../../reminders/transfer/formats.ts';
import { importReminders, type ImportPreview } from '../../reminders/transfer/import.ts';
import { recurrenceSummary } from '../../reminders/recurrence-summary.ts';
import { languageFromHeader, type Language } from '../../lib/language.ts';
import type { RecurrenceType } from '../../db/database.ts';
import { errorResponses, IdempotencyHeaders, REPLAYED_HEADER } from '../../schemas/common.ts';
import { ExportQuery, ImportBody, ImportOut } from './schemas.ts';

/** A previewed row with its repetition in words, in the caller's language (the rule itself stays in `rrule`). */
const withRecurrenceText = (p: ImportPreview, language: Language) => ({
  ...p,
  recurrence_text: recurrenceSummary({ local_date: p.date, local_time: p.time, timezone: p.timezone, recurrence_type: p.recurrence as RecurrenceType, rrule: p.rrule }, language),
});

/** Export and import of an account's reminders: one call of server/reminders/transfer/ each. */
const transfer: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/api/reminders/export', { config: { tokenScope: 'reminders:read' }, schema: { querystring: ExportQuery, response: { 200: Type.String(), ...errorResponses } } }, async (request, reply) => {
    const file = await exportReminders(app, request.auth!.accountId, request.query.format ?? 'json');
    return reply.type(file.contentType).header('content-disposition', `attachment; filename=${file.filename}`).header('cache-control', 'no-store').send(file.body);
  });

  app.post(
    '/api/reminders/import',
    // JSON escaping can make a 1 MiB file's text take up to twice as much in the body.
    { bodyLimit: 2 * MAX_IMPORT_BYTES + 4096, config: { tokenScope: 'reminders:write' }, schema: { body: ImportBody, headers: IdempotencyHeaders, response: { 200: ImportOut, ...errorResponses } } },
    async (request, reply) => {
      const { replayed, ...result } = await importReminders(app, request.auth!.accountId, request.body, { idempotencyKey: request.headers['idempotency-key'] });
      if (replayed) reply.header(REPLAYED_HEADER, 'true');
      const language = languageFromHeader(request.headers['accept-language']);
      return { ...result, preview: result.preview.map((p) => withRecurrenceText(p, language)) };
    },
  );
};

export default transfer;
