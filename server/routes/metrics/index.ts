import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors.ts';
import { errorResponses } from '../../schemas/common.ts';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Prometheus exposition of this instance's registry (delivery counters, due gauge, process).
 * Usage figures are not for the public: with METRICS_TOKEN set, a scraper sends it as a bearer
 * token; without it, only the machine itself (loopback) may read them.
 */
const metrics: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/metrics', { schema: { response: errorResponses } }, async (request, reply) => {
    const token = app.config.metricsToken;
    if (token) {
      const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!sameSecret(given, token)) throw new AppError('NOT_AUTHENTICATED', 'Send the metrics token as a bearer token');
    } else if (!LOOPBACK.test(request.ip)) {
      throw new AppError('FORBIDDEN', 'Metrics are only served on loopback unless METRICS_TOKEN is set');
    }
    const body = await app.scheduler.registry.metrics();
    // Prometheus text, not JSON: strings are sent as they are.
    return reply.header('content-type', app.scheduler.registry.contentType).header('cache-control', 'no-store').send(body as never);
  });
};

export default metrics;
