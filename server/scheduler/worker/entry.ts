/**
 * The scheduler's worker thread: claim, send and record on their own event loop, with their own
 * database connection and their own senders, so API load on the main thread cannot delay a
 * delivery and a burst uses a second core. The main thread talks to it through worker-host.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Registry } from 'prom-client';
import { createDatabase } from '../../db/connection.ts';
import { deliveryLeaseOwner } from '../../lib/leadership.ts';
import { createDeliveryMetrics } from '../metrics.ts';
import { createModuleSenders } from '../module-senders.ts';
import { Scheduler } from '../scheduler.ts';
import { createSenderDeps } from '../sender-deps.ts';
import type { SenderTuning } from '../types.ts';
import { bridgeLogger } from './log-bridge.ts';
import type { FromWorker, ToWorker, WorkerCall, WorkerData } from './protocol.ts';

const STATS_EVERY_MS = 1000;
const BACKLOG_EVERY_MS = 1000;

if (!parentPort) throw new Error('server/scheduler/worker/entry.ts runs as a worker thread only');
const port = parentPort;

/** workerData, or for a thread started before its settings were known (thread-entry.ts), the `start` message. */
function startData(): Promise<WorkerData> {
  if (!('early' in (workerData as object))) return Promise.resolve(workerData as WorkerData);
  return new Promise((resolve) => {
    const onStart = (message: ToWorker) => {
      if (message.type !== 'start') return;
      port.off('message', onStart);
      resolve(message.data);
    };
    port.on('message', onStart);
  });
}

const { config, index, tuning: initialTuning } = await startData();
const post = (message: FromWorker) => port.postMessage(message);
const log = bridgeLogger(post, config.logLevel, { thread: `delivery-${index}` });

/**
 * A thread's error reaches the API thread without its message (a SqliteError arrives as
 * `{ code }`): say what happened through the log first, then end the thread; the host restarts it.
 */
function fatal(err: unknown, what: string): never {
  log.fatal({ err }, what);
  process.exit(1);
}
process.on('uncaughtException', (err) => fatal(err, 'scheduler worker: uncaught error'));
process.on('unhandledRejection', (err) => fatal(err, 'scheduler worker: unhandled rejection'));

// The same factory as the API thread's: SQLite today, whatever DATABASE_URL names tomorrow.
const database = createDatabase(config.databaseUrl, { preparedStatements: config.databasePreparedStatements });
const metrics = createDeliveryMetrics(new Registry());
const scheduler = new Scheduler(database.db, log, metrics, {
  retentionDays: config.deliveryLogRetentionDays,
  leaseMs: config.deliveryLeaseMs,
  leaseOwner: deliveryLeaseOwner(config.instanceId, index),
  pruneLog: index === 0,
  ...initialTuning,
});
let tuning: SenderTuning = { perHostConcurrency: scheduler.options.perHostConcurrency, ...initialTuning };
const owned = await createSenderDeps(database.db, config, log);
const senders = createModuleSenders(owned.deps, tuning);
for (const [type, sender] of senders) scheduler.registerSender(type, sender);

// A backlog (more due than one claim takes): the pool may start more threads to share it.
let lastBacklogAt = 0;
scheduler.onBacklog = () => {
  const now = Date.now();
  if (now - lastBacklogAt < BACKLOG_EVERY_MS) return;
  lastBacklogAt = now;
  post({ type: 'backlog' });
};

// Another process wrote (a web node, the API thread): re-arm for what it was not told about.
const unwatch = database.watchChanges(() => scheduler.wake());
const statsTimer = setInterval(() => post({ type: 'stats', stats: scheduler.stats() }), STATS_EVERY_MS);
statsTimer.unref();

async function answer(call: WorkerCall): Promise<number | Awaited<ReturnType<Registry['getMetricsAsJSON']>> | null> {
  switch (call.kind) {
    case 'tick':
      await scheduler.tick();
      return null;
    case 'drain':
      await scheduler.drain(call.timeoutMs);
      return null;
    case 'runOnce':
      await scheduler.runOnce();
      return null;
    case 'prune':
      return scheduler.prune();
    case 'metrics':
      return metrics.registry.getMetricsAsJSON();
  }
}

let stopping: Promise<void> | null = null;
function stop(): Promise<void> {
  stopping ??= (async () => {
    unwatch();
    clearInterval(statsTimer);
    await scheduler.stop();
    await Promise.allSettled([...senders.values()].map((s) => s.close?.()));
    await owned.close();
    await database.db.destroy();
    post({ type: 'stopped', metrics: await metrics.registry.getMetricsAsJSON() });
    port.close();
  })();
  return stopping;
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'wake':
      scheduler.wake(message.earliestMs);
      break;
    case 'destinationEnabled':
      scheduler.destinationEnabled(message.destinationId);
      break;
    case 'setOptions':
      scheduler.setOptions(message.options);
      tuning = { ...tuning, ...message.options };
      for (const sender of scheduler.registeredSenders()) sender.tune?.(message.options);
      break;
    case 'call': {
      const { id } = message;
      answer(message.call).then(
        (value) => post({ type: 'result', id, ok: true, value }),
        (err: unknown) => post({ type: 'result', id, ok: false, error: (err as Error)?.message ?? String(err) }),
      );
      post({ type: 'stats', stats: scheduler.stats() });
      break;
    }
    case 'stop':
      void stop().catch((err: unknown) => {
        log.error({ err }, 'scheduler worker: shutdown failed');
        process.exit(1);
      });
      break;
  }
});

try {
  await scheduler.start();
} catch (err) {
  fatal(err, 'scheduler worker could not start');
}
post({ type: 'ready' });
