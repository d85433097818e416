import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const health: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        response: {
          200: Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]), reason: Type.Optional(Type.String()) }),
          503: Type.Object({ status: Type.String(), error: Type.String(), code: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      const state = await app.checkDatabase();
      if (state === 'ok') return { status: 'ok' as const };
      // Still serving (reads work); writes wait for another process's lock and may answer 503.
      if (state === 'degraded') return { status: 'degraded' as const, reason: 'The database is locked by another process' };
      if (state === 'storage-full') return { status: 'degraded' as const, reason: 'The database storage is full: writes fail until there is room' };
      return reply.status(503).send({ status: 'unavailable', error: 'Database unreachable', code: 'DATABASE_UNAVAILABLE' });
    },
  );
};
export default health;
