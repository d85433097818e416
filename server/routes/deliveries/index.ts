import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { checkDestination } from '../../reminders/destination-check.ts';
import { deliveryHistory, deliveryProblems, dismissProblem, reenableDestination, resendDelivery } from '../../reminders/deliveries.ts';
import { errorResponses, IdempotencyHeaders, Ok, REPLAYED_HEADER } from '../../schemas/common.ts';
import {
  DeliveriesQuery,
  DeliveryOut,
  DeliveryPage,
  DeliveryParams,
  DeliveryProblemOut,
  DestinationCheckBody,
  DestinationCheckOut,
  DestinationParams,
  ProblemParams,
} from './schemas.ts';

/**
 * Delivery history, resend, the problems list and destination checks: adapters over
 * server/reminders/deliveries.ts and destination-check.ts.
 */
const deliveries: FastifyPluginAsyncTypebox = async (app) => {
  // What a personal access token needs for each route (docs/api.md); checking a destination is part of writing one.
  const read = { tokenScope: 'reminders:read' } as const;
  const write = { tokenScope: 'reminders:write' } as const;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/reminders/:id/deliveries',
    { config: read, schema: { params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }), querystring: DeliveriesQuery, response: { 200: DeliveryPage, ...errorResponses } } },
    async (request) => {
      const { limit, before } = request.query;
      return deliveryHistory(app, request.auth!.accountId, request.params.id, { limit: limit === undefined ? undefined : Number(limit), before });
    },
  );

  app.post(
    '/api/reminders/:id/deliveries/:deliveryId/resend',
    { config: write, schema: { params: DeliveryParams, headers: IdempotencyHeaders, response: { 202: DeliveryOut, ...errorResponses } } },
    async (request, reply) => {
      const { replayed, ...delivery } = await resendDelivery(app, request.auth!.accountId, request.params.id, request.params.deliveryId, {
        idempotencyKey: request.headers['idempotency-key'],
      });
      if (replayed) reply.header(REPLAYED_HEADER, 'true');
      return reply.status(202).send(delivery);
    },
  );

  app.get('/api/reminders/errors', { config: read, schema: { response: { 200: Type.Array(DeliveryProblemOut), ...errorResponses } } }, async (request) =>
    deliveryProblems(app, request.auth!.accountId),
  );

  app.post('/api/reminders/errors/:deliveryId/dismiss', { config: write, schema: { params: ProblemParams, response: { 200: Ok, ...errorResponses } } }, async (request) => {
    await dismissProblem(app, request.auth!.accountId, request.params.deliveryId);
    return { ok: true as const };
  });

  app.post(
    '/api/reminders/:id/destinations/:destinationId/enable',
    { config: write, schema: { params: DestinationParams, response: { 200: Ok, ...errorResponses } } },
    async (request) => {
      await reenableDestination(app, request.auth!.accountId, request.params.id, request.params.destinationId);
      return { ok: true as const };
    },
  );

  app.post('/api/destinations/check', { config: write, schema: { body: DestinationCheckBody, response: { 200: DestinationCheckOut, ...errorResponses } } }, async (request) =>
    checkDestination(app, request.auth!.accountId, request.body),
  );
};

export default deliveries;
