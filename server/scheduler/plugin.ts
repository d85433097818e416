import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Registry } from 'prom-client';
import { type Config, runsDeliveryThreads, runsSchedulerLoop } from '../config.ts';
import { deliveryLeaseOwner, takeInstanceName } from '../lib/leadership.ts';
import type { DestinationType } from '../db/database.ts';
import { countDueReminders } from '../repositories/due-reminders.ts';
import { addRemoteDeliveryMetrics, createAppRegistry, createSchedulerMetrics } from './metrics.ts';
import { createModuleSenders } from './module-senders.ts';
import { DEFAULT_SCHEDULER_OPTIONS, Scheduler, type SchedulerOptions } from './scheduler.ts';
import { type TestableDestination, type TestContext, testDestination, webhookTest, type WebhookTestTarget } from './test-send.ts';
import type { DestinationSender, SenderTuning, TestOutcome } from './types.ts';
import { SchedulerWorkerPool } from './worker/pool.ts';
import type { WakeHint } from './wake-hint.ts';

/** Scheduler options plus what senders read (webhookTimeoutMs...): see SenderTuning. */
export type SchedulerTuning = SchedulerOptions & SenderTuning;

export type { TestableDestination, TestContext } from './test-send.ts';

export interface SchedulerHandle {
  /** Re-arm the timer after reminders changed; the hint says what the write changed (wake-hint.ts). */
  wake(hint?: WakeHint): void;
  /** A disabled destination was turned back on (re-enable, successful test): send to it again. */
  destinationEnabled(destinationId: string): void;
  /**
   * Replaces the sender of a type (tests); the modules' senders are registered when the app is
   * ready. With the loop in a worker thread it replaces the test-send sender only: the worker
   * builds its own senders from the modules.
   */
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
  testWebhook(target: WebhookTestTarget): Promise<TestOutcome>;
  /** Delete the delivery log older than the retention; returns rows deleted. */
  prune(): Promise<number>;
  /** Prometheus registry of this app instance. */
  readonly registry: Registry;
  stats(): { active: number; queued: number; known: number; pendingResults: number; timerAt: number };
  /** Where the delivery loop runs: 'worker' (a thread), 'inline' (this thread), or 'off' (no scheduler role, or disabled). */
  readonly mode: 'worker' | 'inline' | 'off';
  /** The delivery threads' supervisor (mode 'worker'), for tests: ready(), kill(), starts. */
  readonly worker: SchedulerWorkerPool | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: SchedulerHandle;
  }
}

type Tuning = Partial<SchedulerTuning>;

/** Test sends run on this thread with senders built from the app (see test-send.ts). */
function testSenders(app: FastifyInstance, tuning: () => SenderTuning) {
  let senders = new Map<DestinationType, DestinationSender>();
  return {
    build() {
      senders = createModuleSenders(app, tuning());
      return senders;
    },
    get: (type: DestinationType) => senders.get(type),
    set: (type: DestinationType, sender: DestinationSender) => senders.set(type, sender),
    all: () => [...new Set(senders.values())],
  };
}

function sharedHandle(registry: Registry, sendersFor: (type: DestinationType) => DestinationSender | undefined) {
  return {
    testDestination: (destination: TestableDestination, context: TestContext) => testDestination(sendersFor(destination.type), destination, context),
    testWebhook: (target: WebhookTestTarget) => {
      const [destination, context] = webhookTest(target);
      return testDestination(sendersFor('webhook'), destination, context);
    },
    registry,
  };
}

/** The loop on this thread (tests, CHIME_SCHEDULER_MODE=inline), or no loop at all (`runsLoop` false). */
function inlineScheduler(app: FastifyInstance, config: Config, opts: Tuning, runsLoop: boolean): SchedulerHandle {
  const metrics = createSchedulerMetrics(() => countDueReminders(app.db, new Date().toISOString()));
  const scheduler = new Scheduler(app.db, app.log.child({ component: 'scheduler' }), metrics, {
    retentionDays: config.deliveryLogRetentionDays,
    leaseMs: config.deliveryLeaseMs,
    leaseOwner: deliveryLeaseOwner(config.instanceId, 0),
    ...opts,
  });
  /** Everything senders were tuned with so far: a sender created later gets it too. */
  let tuning: SenderTuning = { perHostConcurrency: scheduler.options.perHostConcurrency, ...opts };
  /** Senders this plugin created: it closes them. */
  let created: DestinationSender[] = [];
  let unwatch = () => {};

  // Senders are created once every plugin is loaded: the Discord ones need app.discord.
  app.addHook('onReady', async () => {
    const senders = createModuleSenders(app, tuning);
    created = [...senders.values()];
    for (const [type, sender] of senders) scheduler.registerSender(type, sender);
    if (runsLoop) {
      unwatch = app.dbWatchChanges(() => scheduler.wake());
      scheduler.start().catch((err) => app.log.error({ err }, 'scheduler failed to start'));
    }
  });
  app.addHook('onClose', async () => {
    unwatch();
    await scheduler.stop();
    await Promise.allSettled(created.map((s) => s.close?.()));
  });

  return {
    ...sharedHandle(metrics.registry, (type) => scheduler.senderFor(type)),
    mode: runsLoop ? 'inline' : 'off',
    worker: null,
    wake: (hint) => scheduler.wake(hint),
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
    prune: () => scheduler.prune(),
    stats: () => scheduler.stats(),
  };
}

/** The loop in DELIVERY_THREADS worker threads (production): this thread only forwards to them. */
function workerScheduler(app: FastifyInstance, config: Config, opts: Tuning): SchedulerHandle {
  const registry = createAppRegistry(() => countDueReminders(app.db, new Date().toISOString()));
  let tuning: Tuning = { ...opts };
  const host = new SchedulerWorkerPool(config, opts, app.log.child({ component: 'scheduler' }), () => tuning.shutdownTimeoutMs ?? DEFAULT_SCHEDULER_OPTIONS.shutdownTimeoutMs);
  addRemoteDeliveryMetrics(registry, () => host.metrics());
  const senders = testSenders(app, () => ({ perHostConcurrency: tuning.perHostConcurrency ?? DEFAULT_SCHEDULER_OPTIONS.perHostConcurrency, ...tuning }));

  // The database plugin, which this one depends on, has applied the migrations, so the thread may
  // open its connection now. Starting it here rather than once every route is compiled lets its
  // module load overlap the rest of startup on another core: after a restart, the deliveries of
  // the process's earlier life go out sooner (docs/operations.md "Roles and the delivery thread").
  host.start();
  // The test sends run here and need app.discord, which a later plugin decorates.
  app.addHook('onReady', async () => {
    senders.build();
  });
  app.addHook('onClose', async () => {
    await host.stop();
    await Promise.allSettled(senders.all().map((s) => s.close?.()));
  });

  return {
    ...sharedHandle(registry, senders.get),
    mode: 'worker',
    worker: host,
    wake: (hint) => host.send({ type: 'wake', earliestMs: hint }),
    destinationEnabled: (destinationId) => host.send({ type: 'destinationEnabled', destinationId }),
    registerSender: (type, sender) => void senders.set(type, sender),
    tick: () => host.tick(),
    drain: (timeoutMs) => host.drain(timeoutMs),
    runOnce: () => host.runOnce(),
    setOptions(options) {
      tuning = { ...tuning, ...options };
      host.send({ type: 'setOptions', options });
      for (const sender of senders.all()) sender.tune?.(options);
    },
    prune: () => host.prune(),
    stats: () => host.stats(),
  };
}

/**
 * app.scheduler. Where the loop runs: nowhere without the scheduler role (CHIME_ROLES) or with
 * config.schedulerEnabled false (tests drive it by hand), in a worker thread by default, on this
 * thread with CHIME_SCHEDULER_MODE=inline.
 */
export default fp<{ tuning?: Tuning }>(
  async (app, opts) => {
    const runsLoop = runsSchedulerLoop(app.config);
    // Two apps of one process (tests) on one database must not share leases: each takes its own name.
    const instance = takeInstanceName(app.config.instanceId);
    app.addHook('onClose', async () => instance.release());
    const config: Config = { ...app.config, instanceId: instance.name };
    const tuning = opts.tuning ?? {};
    const handle = runsDeliveryThreads(config) ? workerScheduler(app, config, tuning) : inlineScheduler(app, config, tuning, runsLoop);
    app.decorate('scheduler', handle);
  },
  { name: 'scheduler', dependencies: ['database'] },
);
