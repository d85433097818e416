import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { DatabaseBusyError } from '../db/database-busy.ts';
import { StorageFullError } from '../db/storage-full.ts';
import { AppError } from '../errors.ts';

/** Readable text for a schema validation failure: "message must be string" -> "body.message must be string". */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = error.validationContext ?? 'body';
  const field = first.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
  if (first.keyword === 'required') return `${where}.${(first.params as { missingProperty: string }).missingProperty} is required`;
  if (first.keyword === 'additionalProperties') return `${where}${field ? '.' + field : ''} has an unknown field "${(first.params as { additionalProperty: string }).additionalProperty}"`;
  return `${where}${field ? '.' + field : ''} ${first.message ?? 'is invalid'}`;
}

export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        // Every refusal that says when to come back says it in the header too (RFC 9110, 10.2.3).
        const retryAfter = error.details?.retry_after_seconds;
        if (typeof retryAfter === 'number') reply.header('retry-after', retryAfter);
        return reply.status(error.status).send({ error: error.message, code: error.code, ...(error.details ?? {}) });
      }
      if (error instanceof DatabaseBusyError) {
        // The database cannot serve the query now (database-busy.ts): nothing was written; try again.
        return reply.status(503).header('retry-after', '2').send({ error: 'The database is busy. Please try again in a moment.', code: 'DATABASE_BUSY' });
      }
      if (error instanceof StorageFullError) {
        // The operator must act (free disk space); the user learns that nothing was saved.
        request.log.error({ err: error }, 'database storage is full');
        return reply.status(507).send({ error: 'The server has run out of storage space, so nothing was saved. Please tell its administrator.', code: 'STORAGE_FULL' });
      }
      if ((error as { code?: unknown }).code === '22021') {
        // PostgreSQL refused text it cannot store (a NUL that reached it some other way than a request
        // field, which no-nul-text.ts refuses first): the input is at fault, and nothing was written.
        return reply.status(400).send({ error: 'The request contains text that cannot be stored', code: 'VALIDATION_FAILED' });
      }
      const fe = error as FastifyError;
      if (fe.validation) {
        return reply.status(400).send({ error: validationMessage(fe), code: 'VALIDATION_FAILED' });
      }
      const status = fe.statusCode ?? 500;
      if (status === 429) {
        return reply.status(429).send({ error: fe.message || 'Too many requests. Please wait and try again.', code: 'RATE_LIMITED' });
      }
      if (status === 413) return reply.status(413).send({ error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
      if (status === 415) return reply.status(415).send({ error: 'Send the request body as application/json', code: 'UNSUPPORTED_MEDIA_TYPE' });
      if (status >= 400 && status < 500) {
        const code = fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError ? 'INVALID_JSON' : 'VALIDATION_FAILED';
        const message = code === 'INVALID_JSON' ? 'The request body is not valid JSON' : fe.message;
        return reply.status(status).send({ error: message, code });
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
    });

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      const isApi = path === '/api' || path.startsWith('/api/') || path === '/metrics' || path === '/healthz';
      if (app.spaFallback && !isApi && (request.method === 'GET' || request.method === 'HEAD')) return app.spaFallback(reply);
      reply.status(404).send({ error: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' });
    });
  },
  { name: 'errors' },
);
