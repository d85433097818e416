import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const health: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    { schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: Type.Object({ status: Type.String(), error: Type.String(), code: Type.String() }) } } },
    async (_request, reply) => {
      if (await app.checkDatabase()) return { status: 'ok' as const };
      return reply.status(503).send({ status: 'unavailable', error: 'Database unreachable', code: 'DATABASE_UNAVAILABLE' });
    },
  );
};
export default health;
