/**
 * Delivery to webhooks: generic (signed JSON per Standard Webhooks), Discord and Slack. One POST
 * per attempt through the SSRF-guarded agent (server/net/ssrf-guard.ts); the scheduler owns
 * retries, so the result says whether trying again can help.
 *
 * The parts: codes.ts (failure codes and results), signing.ts, payload.ts (bodies per platform),
 * connection.ts and in-flight.ts (agent, timeouts, shutdown), post.ts (one request).
 */
import type { FastifyInstance } from 'fastify';
import type { GuardOptions } from '../../net/ssrf-guard.ts';
import { newMessageId } from '../../scheduler/ids.ts';
import type { DestinationSender, SendContext, SendResult, SenderTuning, TestOutcome } from '../../scheduler/types.ts';
import { closeWebhookConnection, openWebhookConnection, retuneWebhookConnection } from './connection.ts';
import { platformOf, sendPayload, webhookBody } from './payload.ts';
import { postWebhook, type WebhookTarget } from './post.ts';

declare module '../../scheduler/types.ts' {
  interface SenderTuning {
    /** Whole-request timeout of webhook sends (10 s). */
    webhookTimeoutMs?: number;
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECTIONS_PER_ORIGIN = 32;

export interface WebhookSenderOptions {
  allowPrivateTargets: boolean;
  /** Whole request (connect, headers and body); 10 s in production. */
  timeoutMs?: number;
  connectionsPerOrigin?: number;
  /** Fake DNS for tests. */
  lookup?: GuardOptions['lookup'];
  /** PUBLIC_URL: `{{reminder_url}}` in body templates. */
  publicUrl?: string;
}

export interface WebhookSender extends DestinationSender {
  /** Sends a `webhook.test` payload to a target that need not be saved; the failure is data, never thrown. */
  sendTest(target: WebhookTarget, message?: string): Promise<TestOutcome>;
  tune(tuning: SenderTuning): void;
  close(): Promise<void>;
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const connection = openWebhookConnection(options, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN);

  return {
    concurrencyKey(destination) {
      const raw = (destination.metadata as { url?: unknown }).url;
      try {
        return typeof raw === 'string' ? `webhook:${new URL(raw).host}` : 'webhook:invalid';
      } catch {
        return 'webhook:invalid';
      }
    },

    metricsLabel: (destination) => platformOf(destination.metadata),

    async send(ctx: SendContext): Promise<SendResult> {
      const prepared = sendPayload(ctx, options.publicUrl);
      if ('ok' in prepared) return prepared;
      return postWebhook(connection, prepared.target, ctx.idempotencyKey, prepared.body, ctx.signal);
    },

    async sendTest(target, message = 'This is a test message from Chime. If you can read it, your webhook works.') {
      const id = newMessageId();
      const body = webhookBody(target.platform, { type: 'webhook.test', id, message, fired_at: new Date().toISOString(), username: target.username });
      const result = await postWebhook(connection, target, id, body, undefined);
      if (result.ok) return { ok: true, ...(result.httpStatus !== undefined ? { http_status: result.httpStatus } : {}) };
      return { ok: false, error: result.error, ...(result.httpStatus !== undefined ? { http_status: result.httpStatus } : {}) };
    },

    tune(tuning) {
      const nextTimeout = tuning.webhookTimeoutMs ?? connection.timeoutMs;
      const nextConnections = tuning.perHostConcurrency ?? connection.connectionsPerOrigin;
      if (nextTimeout === connection.timeoutMs && nextConnections === connection.connectionsPerOrigin) return;
      retuneWebhookConnection(connection, nextTimeout, nextConnections);
    },

    async close() {
      await closeWebhookConnection(connection);
    },
  };
}

/** The webhook module's sender for this app (webhooks need no settings: always available). */
export function webhookSenderOf(app: Pick<FastifyInstance, 'config'>): WebhookSender {
  return createWebhookSender({ allowPrivateTargets: app.config.webhookAllowPrivateTargets, publicUrl: app.config.publicUrl });
}
