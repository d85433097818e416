import fp from 'fastify-plugin';
import type { Registry } from 'prom-client';
import type { DestinationType } from '../db/database.ts';
import { DESTINATION_MODULES } from '../destinations/registry.ts';
import { countDueReminders } from '../repositories/deliveries.ts';
import { newMessageId } from './ids.ts';
import { createSchedulerMetrics } from './metrics.ts';
import { Scheduler, type SchedulerOptions } from './scheduler.ts';
import { type DestinationSender, SEND_CODES, type SendContext, type SenderTuning, type TestOutcome } from './types.ts';

/** Scheduler options plus what senders read (webhookTimeoutMs...): see SenderTuning. */
export type SchedulerTuning = SchedulerOptions & SenderTuning;

export interface TestableDestination {
  id?: string;
  type: DestinationType;
  metadata: Record<string, unknown>;
  secret: string | null;
}

export interface TestContext {
  accountId: string;
  username: string;
  timezone: string;
  locale: string | null;
  message?: string;
}

export interface SchedulerHandle {
  /** Re-arm the timer after reminders changed. */
  wake(): void;
  /** A disabled destination was turned back on (re-enable, successful test): send to it again. */
  destinationEnabled(destinationId: string): void;
  /** Replaces the sender of a type (tests); the modules' senders are registered when the app is ready. */
  registerSender(type: DestinationType, sender: DestinationSender): void;
  /** Claim what is due and start sending it (also when the loop is disabled by config). */
  tick(): Promise<void>;
  /** Wait until nothing is being claimed, sent or written. */
  drain(timeoutMs?: number): Promise<void>;
  /** tick() then drain(). */
  runOnce(): Promise<void>;
  /** Tune at run time (tests shorten retry delays and timeouts); senders get the same object. */
  setOptions(options: Partial<SchedulerTuning>): void;
  /** Send a test message to a destination; failures are returned, not thrown. */
  testDestination(destination: TestableDestination, context: TestContext): Promise<TestOutcome>;
  /** Send a test payload to a webhook that is not saved yet. */
  testWebhook(target: { url: string; platform: 'generic' | 'discord' | 'slack'; username?: string | undefined }): Promise<TestOutcome>;
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

const DEFAULT_TEST_MESSAGE = 'This is a test message from Chime. If you can read it, this destination works.';
const WEBHOOK_TEST_MESSAGE = 'This is a test message from Chime. If you can read it, your webhook works.';
/** A test send waits at most this long (the sender's own timeouts are usually shorter). */
const TEST_TIMEOUT_MS = 15_000;

const notConfigured = (type: string) => `This server is not set up to deliver ${type} destinations`;

export default fp<{ tuning?: Partial<SchedulerTuning> }>(
  async (app, opts) => {
    const config = app.config;
    const metrics = createSchedulerMetrics(() => countDueReminders(app.db, new Date().toISOString()));
    const scheduler = new Scheduler(app.db, app.log.child({ component: 'scheduler' }), metrics, {
      retentionDays: config.deliveryLogRetentionDays,
      leaseMs: config.deliveryLeaseMs,
      ...opts.tuning,
    });
    /** Everything senders were tuned with so far: a sender created later gets it too. */
    let tuning: SenderTuning = { perHostConcurrency: scheduler.options.perHostConcurrency, ...opts.tuning };
    /** Senders this plugin created: it closes them. */
    const created: DestinationSender[] = [];

    function registerModuleSenders() {
      for (const module of DESTINATION_MODULES) {
        const sender = module.createSender?.(app) ?? null;
        // No sender (Discord without settings): its deliveries fail with DESTINATION_NOT_CONFIGURED.
        if (!sender) continue;
        sender.tune?.(tuning);
        created.push(sender);
        scheduler.registerSender(module.type, sender);
      }
    }

    async function testDestination(destination: TestableDestination, context: TestContext): Promise<TestOutcome> {
      const sender = scheduler.senderFor(destination.type);
      if (!sender) return { ok: false, code: SEND_CODES.DESTINATION_NOT_CONFIGURED, error: notConfigured(destination.type) };
      const now = new Date().toISOString();
      const message = context.message ?? DEFAULT_TEST_MESSAGE;
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
        test: true,
        signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      };
      try {
        const result = await sender.send(ctx);
        const status = result.httpStatus !== undefined ? { http_status: result.httpStatus } : {};
        if (result.ok) return { ok: true, ...status };
        return { ok: false, ...status, error: result.error, code: result.code };
      } catch (err) {
        return { ok: false, code: SEND_CODES.SEND_CRASHED, error: `Unexpected error: ${(err as Error)?.message ?? String(err)}` };
      }
    }

    const handle: SchedulerHandle = {
      wake: () => scheduler.wake(),
      destinationEnabled: (destinationId) => scheduler.destinationEnabled(destinationId),
      registerSender: (type, sender) => scheduler.registerSender(type, sender),
      tick: () => scheduler.tick(),
      drain: (timeoutMs) => scheduler.drain(timeoutMs),
      runOnce: () => scheduler.runOnce(),
      setOptions(options) {
        scheduler.setOptions(options);
        tuning = { ...tuning, ...options };
        for (const sender of scheduler.registeredSenders()) sender.tune?.(options);
      },
      testDestination,
      testWebhook: (target) =>
        testDestination(
          { type: 'webhook', metadata: { url: target.url, platform: target.platform, ...(target.username ? { username: target.username } : {}) }, secret: null },
          { accountId: 'test', username: '', timezone: 'UTC', locale: null, message: WEBHOOK_TEST_MESSAGE },
        ),
      prune: () => scheduler.prune(),
      registry: metrics.registry,
      stats: () => scheduler.stats(),
    };
    app.decorate('scheduler', handle);

    // Senders are created once every plugin is loaded: the Discord ones need app.discord.
    app.addHook('onReady', async () => {
      registerModuleSenders();
      if (config.schedulerEnabled) {
        scheduler.start().catch((err) => app.log.error({ err }, 'scheduler failed to start'));
      }
    });
    app.addHook('onClose', async () => {
      await scheduler.stop();
      await Promise.allSettled(created.map((s) => s.close?.()));
    });
  },
  { name: 'scheduler', dependencies: ['database'] },
);
