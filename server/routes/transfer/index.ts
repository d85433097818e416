import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { exportReminders, importReminders, MAX_IMPORT_BYTES } from '../../reminders/transfer.ts';
import { errorResponses, Nullable } from '../../schemas/common.ts';

const Format = Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('ics')]);

const ExportQuery = Type.Object({ format: Type.Optional(Format) });

const ImportBody = Type.Object({
  format: Format,
  /** The file's text (at most 1 MiB). */
  content: Type.String({ maxLength: MAX_IMPORT_BYTES }),
  /** Check and preview only; nothing is created. */
  dry_run: Type.Optional(Type.Boolean()),
  mode: Type.Optional(Type.Union([Type.Literal('all_or_nothing'), Type.Literal('valid_only')])),
});

const ImportOut = Type.Object({
  valid: Type.Integer(),
  created: Type.Integer(),
  errors: Type.Array(Type.Object({ row: Type.Integer(), code: Type.String(), error: Type.String() })),
  preview: Type.Array(
    Type.Object({
      row: Type.Integer(),
      message: Type.String(),
      date: Type.String(),
      time: Type.String(),
      timezone: Type.String(),
      recurrence: Type.String(),
      rrule: Nullable(Type.String()),
      exceptions: Type.Array(Type.String()),
      paused: Type.Boolean(),
      destinations: Type.Array(Type.Object({ type: Type.String(), metadata: Type.Record(Type.String(), Type.Unknown()) })),
      next_fire_utc: Nullable(Type.String()),
    }),
  ),
});

/** Export and import of an account's reminders: one call of server/reminders/transfer.ts each. */
const transfer: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/api/reminders/export', { schema: { querystring: ExportQuery, response: { 200: Type.String(), ...errorResponses } } }, async (request, reply) => {
    const file = await exportReminders(app, request.auth!.accountId, request.query.format ?? 'json');
    return reply.type(file.contentType).header('content-disposition', `attachment; filename=${file.filename}`).header('cache-control', 'no-store').send(file.body);
  });

  app.post(
    '/api/reminders/import',
    // JSON escaping can make a 1 MiB file's text take up to twice as much in the body.
    { bodyLimit: 2 * MAX_IMPORT_BYTES + 4096, schema: { body: ImportBody, response: { 200: ImportOut, ...errorResponses } } },
    async (request) => importReminders(app, request.auth!.accountId, request.body),
  );
};

export default transfer;
