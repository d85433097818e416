import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { exportReminders } from '../../reminders/transfer/export.ts';
import { MAX_IMPORT_BYTES } from '../../reminders/transfer/formats.ts';
import { importReminders } from '../../reminders/transfer/import.ts';
import { errorResponses, IdempotencyHeaders, REPLAYED_HEADER } from '../../schemas/common.ts';
import { ExportQuery, ImportBody, ImportOut } from './schemas.ts';

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
      return result;
    },
  );
};

export default transfer;
