import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Prometheus exposition of this instance's registry (delivery counters, due gauge, process). */
const metrics: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/metrics', async (_request, reply) => {
    const body = await app.scheduler.registry.metrics();
    return reply.header('content-type', app.scheduler.registry.contentType).header('cache-control', 'no-store').send(body);
  });
};

export default metrics;
