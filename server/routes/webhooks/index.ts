import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MAX_WEBHOOK_URL_LENGTH } from '../../net/address-policy.ts';
import { rotateDestinationSecret, testSavedDestination, testUnsavedWebhook } from '../../reminders/destination-actions.ts';
import { errorResponses } from '../../schemas/common.ts';
import { DestinationMetadataBody } from '../../schemas/destination-metadata.ts';

export const TestResult = Type.Object({
  ok: Type.Boolean(),
  http_status: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  /** Why a test failed, as a delivery code (EMAIL_NOT_CONFIRMED, DISCORD_CANNOT_POST...): what the dashboard translates. */
  code: Type.Optional(Type.String()),
  /** An unsaved webhook's test: the signing secret it was signed with, to save the webhook with (docs/webhooks.md). */
  secret: Type.Optional(Type.String()),
});

const WebhookTestBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH }),
    platform: Type.Union([Type.Literal('generic'), Type.Literal('discord'), Type.Literal('slack')]),
    username: Type.Optional(Type.String({ maxLength: 80 })),
    /** The secret an earlier test answered: the same webhook is signed with the same secret. */
    secret: Type.Optional(Type.String({ maxLength: 100 })),
    /** Generic webhooks: the body template, its format and extra headers it will be saved with (docs/notifications.md). */
    body_template: DestinationMetadataBody.properties.body_template,
    body_format: DestinationMetadataBody.properties.body_format,
    headers: DestinationMetadataBody.properties.headers,
  },
  { additionalProperties: false },
);

const DestinationParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  destinationId: Type.String({ minLength: 1, maxLength: 64 }),
});

/** Test sends and secret rotation: adapters over server/reminders/destination-actions.ts. */
const webhooks: FastifyPluginAsyncTypebox = async (app) => {
  // A personal access token needs the write scope for these (docs/api.md): they send or change secrets.
  const write = { tokenScope: 'reminders:write' } as const;
  app.post(
    '/api/webhooks/test',
    { preHandler: app.authenticate, config: write, schema: { body: WebhookTestBody, response: { 200: TestResult, ...errorResponses } } },
    async (request) => testUnsavedWebhook(app, request.auth!.accountId, request.body),
  );

  app.post(
    '/api/reminders/:id/destinations/:destinationId/test',
    { preHandler: app.authenticate, config: write, schema: { params: DestinationParams, response: { 200: TestResult, ...errorResponses } } },
    async (request) => testSavedDestination(app, request.auth!.accountId, request.params.id, request.params.destinationId),
  );

  app.post(
    '/api/reminders/:id/destinations/:destinationId/rotate-secret',
    { preHandler: app.authenticate, config: write, schema: { params: DestinationParams, response: { 200: Type.Object({ secret: Type.String() }), ...errorResponses } } },
    async (request) => rotateDestinationSecret(app, request.auth!.accountId, request.params.id, request.params.destinationId),
  );
};

export default webhooks;
