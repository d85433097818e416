import fp from 'fastify-plugin';
import type { Registry } from 'prom-client';
import type { DestinationType } from '../db/database.ts';
import { countDueReminders } from '../repositories/deliveries.ts';
import { newMessageId } from './ids.ts';
import { createSchedulerMetrics } from './metrics.ts';
import { Scheduler, type SchedulerOptions } from './scheduler.ts';
import type { DestinationSender, SendContext, WebhookPlatform } from './types.ts';
import { createWebhookSender, type TestOutcome, type WebhookSender, type WebhookSenderOptions } from './webhook-sender.ts';

export interface SchedulerTuning extends SchedulerOptions {
  /** Whole-request timeout of webhook sends (10 s). */
  webhookTimeoutMs: number;
}

export interface TestableDestination {
  id?: string;
  type: DestinationType;
  metadata: Record<string, unknown>;
  secret: string | null;
}

export interface SchedulerHandle {
  /** Re-arm the timer after reminders changed. */
  wake(): void;
  registerSender(type: DestinationType, sender: DestinationSender): void;
  /** Claim what is due and start sending it (also when the loop is disabled by config). */
  tick(): Promise<void>;
  /** Wait until nothing is being claimed, sent or written. */
  drain(timeoutMs?: number): Promise<void>;
  /** tick() then drain(). */
  runOnce(): Promise<void>;
  /** Tune at run time (tests shorten retry delays and timeouts). */
  setOptions(options: Partial<SchedulerTuning>): void;
  /** Send a test message to a destination; failures are returned, not thrown. */
  testDestination(destination: TestableDestination, context: { accountId: string; username: string; timezone: string; locale: string | null; message?: string }): Promise<TestOutcome>;
  /** Send a test payload to a webhook that is not saved yet. */
  testWebhook(target: { url: string; platform: WebhookPlatform; username?: string | undefined }): Promise<TestOutcome>;
  /** Delete the delivery log older than the retention; returns rows deleted. */
  prune(): Promise<number>;
  /** Prometheus registry of this app instance. */
  readonly registry: Registry;
  stats(): { active: number; queued: number; known: number; pendingResults: number; timerAt: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: SchedulerHandle;
  }
}

export default fp<{ tuning?: Partial<SchedulerTuning> }>(
  async (app, opts) => {
    const config = app.config;
    const metrics = createSchedulerMetrics(() => countDueReminders(app.db, new Date().toISOString()));
    const scheduler = new Scheduler(app.db, app.log.child({ component: 'scheduler' }), metrics, {
      retentionDays: config.deliveryLogRetentionDays,
      ...opts.tuning,
    });

    let webhookOptions: WebhookSenderOptions = {
      allowPrivateTargets: config.webhookAllowPrivateTargets,
      timeoutMs: opts.tuning?.webhookTimeoutMs ?? 10_000,
      connectionsPerOrigin: scheduler.options.perHostConcurrency,
    };
    let webhook: WebhookSender = createWebhookSender(webhookOptions);
    scheduler.registerSender('webhook', webhook);

    function replaceWebhookSender(next: Partial<WebhookSenderOptions>) {
      const old = webhook;
      webhookOptions = { ...webhookOptions, ...next };
      webhook = createWebhookSender(webhookOptions);
      scheduler.registerSender('webhook', webhook);
      void old.close();
    }

    const handle: SchedulerHandle = {
      wake: () => scheduler.wake(),
      registerSender: (type, sender) => scheduler.registerSender(type, sender),
      tick: () => scheduler.tick(),
      drain: (timeoutMs) => scheduler.drain(timeoutMs),
      runOnce: () => scheduler.runOnce(),
      setOptions(options) {
        const { webhookTimeoutMs, ...rest } = options;
        scheduler.setOptions(rest);
        if (webhookTimeoutMs !== undefined || rest.perHostConcurrency !== undefined) {
          replaceWebhookSender({
            ...(webhookTimeoutMs !== undefined ? { timeoutMs: webhookTimeoutMs } : {}),
            ...(rest.perHostConcurrency !== undefined ? { connectionsPerOrigin: rest.perHostConcurrency } : {}),
          });
        }
      },
      async testDestination(destination, context) {
        const message = context.message ?? 'This is a test message from Chime. If you can read it, this destination works.';
        if (destination.type === 'webhook') {
          const m = destination.metadata as { url?: unknown; platform?: unknown; username?: unknown };
          if (typeof m.url !== 'string') return { ok: false, error: 'Webhook URL is missing' };
          const platform: WebhookPlatform = m.platform === 'discord' || m.platform === 'slack' ? m.platform : 'generic';
          return webhook.sendTest(
            { url: m.url, platform, username: typeof m.username === 'string' ? m.username : undefined, secret: destination.secret },
            message,
          );
        }
        const sender = scheduler.senderFor(destination.type);
        if (!sender) {
          return { ok: false, error: destination.type.startsWith('discord') ? 'Discord is not configured on this server' : `No sender for "${destination.type}" destinations` };
        }
        const now = new Date().toISOString();
        const ctx: SendContext = {
          deliveryId: 'test',
          idempotencyKey: newMessageId(),
          attempt: 1,
          reminder: { id: 'test', message, recurrence_type: 'ONCE', timezone: context.timezone, remind_at_utc: now },
          account: { id: context.accountId, timezone: context.timezone, locale: context.locale, username: context.username },
          destination: { id: destination.id ?? 'test', type: destination.type, metadata: destination.metadata, secret: destination.secret },
          occurrenceUtc: now,
          firedAt: now,
          late: false,
          signal: AbortSignal.timeout(15_000),
        };
        try {
          const result = await sender.send(ctx);
          if (result.ok) return { ok: true, ...(result.httpStatus !== undefined ? { http_status: result.httpStatus } : {}) };
          return { ok: false, error: result.error, ...(result.httpStatus !== undefined ? { http_status: result.httpStatus } : {}) };
        } catch (err) {
          return { ok: false, error: `Unexpected error: ${(err as Error)?.message ?? String(err)}` };
        }
      },
      testWebhook: (target) => webhook.sendTest({ ...target, secret: null }),
      prune: () => scheduler.prune(),
      registry: metrics.registry,
      stats: () => scheduler.stats(),
    };
    app.decorate('scheduler', handle);

    if (config.schedulerEnabled) {
      // Start after every plugin is loaded (other plugins register their senders first).
      app.addHook('onReady', async () => {
        scheduler.start().catch((err) => app.log.error({ err }, 'scheduler failed to start'));
      });
    }
    app.addHook('onClose', async () => {
      await scheduler.stop();
      await webhook.close();
    });
  },
  { name: 'scheduler', dependencies: ['database'] },
);
