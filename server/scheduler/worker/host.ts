/**
 * The API thread's side of the scheduler worker: starts the thread, passes wake-ups and calls to
 * it, restarts it when it dies (with backoff), and stops it at shutdown. Nothing is lost when the
 * thread dies: what it was sending stays in the outbox and the new thread sends it again with the
 * same idempotency key.
 */
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from '../../config.ts';
import type { SchedulerTuning } from '../plugin.ts';
import type { FromWorker, SchedulerStats, ToWorker, WorkerCall, WorkerData } from './protocol.ts';
import { startWithDeliveryYoungGeneration } from './burst-thread-memory.ts';
import { takeEarlyThread, workerEntry } from './thread-entry.ts';

/** First restart delay; doubles on each crash in a row, up to RESTART_MAX_MS. */
const RESTART_MIN_MS = 500;
const RESTART_MAX_MS = 30_000;
/** A thread that ran this long before dying starts the backoff over. */
const STABLE_AFTER_MS = 60_000;
/** Shutdown waits the scheduler's own bound (in-flight sends) plus this, then ends the thread. */
const STOP_MARGIN_MS = 5_000;

const IDLE_STATS: SchedulerStats = { active: 0, queued: 0, known: 0, pendingResults: 0, timerAt: Number.POSITIVE_INFINITY };

interface PendingCall {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export class SchedulerWorkerHost {
  private worker: Worker | null = null;
  private readonly calls = new Map<number, PendingCall>();
  private nextCallId = 1;
  private lastStats: SchedulerStats = IDLE_STATS;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private crashesInARow = 0;
  private startedAt = 0;
  private readyWaiters: Array<() => void> = [];
  private isReady = false;
  /** Every setOptions so far: a restarted thread gets them too. */
  private tuning: Partial<SchedulerTuning>;
  /** Threads started, the first one included. */
  starts = 0;
  /** What the thread counted, as it said when it stopped (pool.ts keeps it for /metrics). */
  finalMetrics: MetricObjectWithValues<MetricValue<string>>[] | null = null;

  constructor(
    private readonly config: Config,
    tuning: Partial<SchedulerTuning>,
    private readonly log: FastifyBaseLogger,
    private readonly shutdownTimeoutMs: () => number,
    /** Which of the DELIVERY_THREADS threads this host runs. */
    readonly index = 0,
    /** The thread has more work than it takes at once (see pool.ts). */
    private readonly onBacklog: () => void = () => {},
  ) {
    this.tuning = { ...tuning };
  }

  start(): void {
    if (this.stopping || this.worker) return;
    const entry = workerEntry();
    const data: WorkerData = { config: this.config, index: this.index, tuning: this.tuning };
    const spawn = () => new Worker(entry.file, { workerData: data, name: `chime-delivery-${this.index}`, eval: entry.eval });
    // Thread 0 of the process's first start may have been loading its code since main.ts began
    // (thread-entry.ts): it only waits for its settings.
    const early = this.index === 0 && this.starts === 0 ? takeEarlyThread() : null;
    early?.postMessage({ type: 'start', data } satisfies ToWorker);
    // The extra threads run only in bursts, where a larger young generation pays (burst-thread-memory.ts).
    const worker = early ?? (this.index > 0 ? startWithDeliveryYoungGeneration(spawn) : spawn());
    this.worker = worker;
    this.isReady = false;
    this.starts += 1;
    this.startedAt = Date.now();
    worker.on('message', (message: FromWorker) => this.onMessage(message));
    // What a thread throws arrives as a plain object (a SqliteError loses its class): name its parts.
    worker.on('error', (err: Partial<Error> & { code?: unknown }) =>
      this.log.error({ err: { type: err?.name, message: err?.message, code: err?.code, stack: err?.stack } }, 'scheduler worker crashed'),
    );
    worker.on('exit', (code) => this.onExit(worker, code));
  }

  /** Resolves once the current thread has started its loop (tests and benchmarks). */
  ready(): Promise<void> {
    if (this.isReady) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  send(message: ToWorker): void {
    if (message.type === 'setOptions') this.tuning = { ...this.tuning, ...message.options };
    // A message to a thread being restarted is dropped: the new thread arms from the database anyway.
    this.worker?.postMessage(message);
  }

  call(call: WorkerCall & { kind: 'metrics' }): Promise<MetricObjectWithValues<MetricValue<string>>[]>;
  call(call: WorkerCall & { kind: 'prune' }): Promise<number>;
  call(call: WorkerCall): Promise<unknown>;
  call(call: WorkerCall): Promise<unknown> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('the scheduler worker is not running'));
    const id = this.nextCallId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      worker.postMessage({ type: 'call', id, call } satisfies ToWorker);
    });
  }

  stats(): SchedulerStats {
    return this.lastStats;
  }

  /** The thread is up and has started its loop. */
  get isRunning(): boolean {
    return this.worker !== null && this.isReady;
  }

  /** Ends the thread abruptly, as a crash would (tests); it is restarted like after a crash. */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  /** Graceful: the thread stops claiming, finishes (bounded) what it sends, writes the results. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' } satisfies ToWorker);
    const timer = setTimeout(() => {
      this.log.warn('scheduler worker did not stop in time; ending it (unfinished deliveries are sent again on start)');
      void worker.terminate();
    }, this.shutdownTimeoutMs() + STOP_MARGIN_MS);
    await exited;
    clearTimeout(timer);
  }

  private onMessage(message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        this.isReady = true;
        for (const resolve of this.readyWaiters.splice(0)) resolve();
        break;
      case 'log': {
        const target = Object.keys(message.bindings).length ? this.log.child(message.bindings) : this.log;
        target[message.level](message.obj as object, message.msg);
        break;
      }
      case 'stats':
        this.lastStats = message.stats;
        break;
      case 'result': {
        const pending = this.calls.get(message.id);
        if (!pending) break;
        this.calls.delete(message.id);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(new Error(message.error));
        break;
      }
      case 'backlog':
        this.onBacklog();
        break;
      case 'stopped':
        this.finalMetrics = message.metrics;
        break;
    }
  }

  private onExit(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.isReady = false;
    this.lastStats = IDLE_STATS;
    for (const pending of this.calls.values()) pending.reject(new Error('the scheduler worker stopped'));
    this.calls.clear();
    if (this.stopping) return;
    this.crashesInARow = Date.now() - this.startedAt > STABLE_AFTER_MS ? 1 : this.crashesInARow + 1;
    const delay = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** (this.crashesInARow - 1));
    this.log.error({ code, restartInMs: delay }, 'scheduler worker exited; restarting it');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.start();
    }, delay);
  }
}
