import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.ts';
import { newWebhookSecret } from '../../lib/ids.ts';
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from '../../net/address-policy.ts';
import { errorResponses } from '../../schemas/common.ts';

const TEST_LIMIT = 10;
const TEST_WINDOW_MS = 60_000;

const TestResult = Type.Object({
  ok: Type.Boolean(),
  http_status: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
});

const WebhookTestBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH }),
    platform: Type.Union([Type.Literal('generic'), Type.Literal('discord'), Type.Literal('slack')]),
    username: Type.Optional(Type.String({ maxLength: 80 })),
  },
  { additionalProperties: false },
);

const DestinationParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  destinationId: Type.String({ minLength: 1, maxLength: 64 }),
});

/**
 * Test sends and secret rotation. Tests are rate limited per account so the endpoint cannot be
 * used to aim traffic at a third party.
 */
const webhooks: FastifyPluginAsyncTypebox = async (app) => {
  const recentTests = new Map<string, number[]>();

  function takeTestSlot(accountId: string) {
    const now = Date.now();
    const recent = (recentTests.get(accountId) ?? []).filter((t) => now - t < TEST_WINDOW_MS);
    if (recent.length >= TEST_LIMIT) {
      recentTests.set(accountId, recent);
      const retryIn = Math.ceil((TEST_WINDOW_MS - (now - recent[0]!)) / 1000);
      throw new AppError('RATE_LIMITED', `Too many test messages. Try again in ${retryIn} s.`);
    }
    recent.push(now);
    recentTests.set(accountId, recent);
    // Keep the map from growing with accounts that stopped testing.
    if (recentTests.size > 10_000) {
      for (const [id, times] of recentTests) if (!times.some((t) => now - t < TEST_WINDOW_MS)) recentTests.delete(id);
    }
  }

  async function ownedDestination(accountId: string, reminderId: string, destinationId: string) {
    const reminder = await app.db.selectFrom('reminders').select(['id', 'message']).where('id', '=', reminderId).where('account_id', '=', accountId).executeTakeFirst();
    if (!reminder) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
    const destination = await app.db
      .selectFrom('destinations')
      .select(['id', 'type', 'metadata', 'secret', 'disabled_at'])
      .where('id', '=', destinationId)
      .where('reminder_id', '=', reminderId)
      .executeTakeFirst();
    if (!destination) throw new AppError('DESTINATION_NOT_FOUND', 'Destination not found');
    return { reminder, destination };
  }

  function parseMetadata(text: string): Record<string, unknown> {
    try {
      const v: unknown = JSON.parse(text);
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  app.post(
    '/api/webhooks/test',
    { preHandler: app.authenticate, schema: { body: WebhookTestBody, response: { 200: TestResult, ...errorResponses } } },
    async (request) => {
      const { url, platform, username } = request.body;
      const problem = checkWebhookUrl(url, app.config.webhookAllowPrivateTargets);
      if (problem) throw new AppError(problem.code, problem.message);
      takeTestSlot(request.auth!.accountId);
      return app.scheduler.testWebhook({ url, platform, username: username?.trim() || undefined });
    },
  );

  app.post(
    '/api/reminders/:id/destinations/:destinationId/test',
    { preHandler: app.authenticate, schema: { params: DestinationParams, response: { 200: TestResult, ...errorResponses } } },
    async (request) => {
      const accountId = request.auth!.accountId;
      const { reminder, destination } = await ownedDestination(accountId, request.params.id, request.params.destinationId);
      const metadata = parseMetadata(destination.metadata);
      if (destination.type === 'webhook') {
        const problem = checkWebhookUrl(typeof metadata.url === 'string' ? metadata.url : '', app.config.webhookAllowPrivateTargets);
        if (problem) return { ok: false, error: problem.message };
      }
      takeTestSlot(accountId);
      const account = await app.db.selectFrom('accounts').select(['username', 'timezone', 'locale']).where('id', '=', accountId).executeTakeFirst();
      const result = await app.scheduler.testDestination(
        { id: destination.id, type: destination.type, metadata, secret: destination.secret },
        {
          accountId,
          username: account?.username ?? '',
          timezone: account?.timezone ?? 'UTC',
          locale: account?.locale ?? null,
          message: `Test from Chime: ${reminder.message}`,
        },
      );
      if (result.ok && destination.disabled_at) {
        // The owner fixed the target and proved it works: deliver to it again.
        await app.db.updateTable('destinations').set({ disabled_at: null, disabled_reason: null }).where('id', '=', destination.id).execute();
      }
      return result;
    },
  );

  app.post(
    '/api/reminders/:id/destinations/:destinationId/rotate-secret',
    { preHandler: app.authenticate, schema: { params: DestinationParams, response: { 200: Type.Object({ secret: Type.String() }), ...errorResponses } } },
    async (request) => {
      const { destination } = await ownedDestination(request.auth!.accountId, request.params.id, request.params.destinationId);
      if (destination.type !== 'webhook') throw new AppError('INVALID_DESTINATION', 'Only webhook destinations have a signing secret');
      const secret = newWebhookSecret();
      await app.db.updateTable('destinations').set({ secret }).where('id', '=', destination.id).execute();
      return { secret };
    },
  );
};

export default webhooks;
