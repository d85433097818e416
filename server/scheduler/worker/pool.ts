/**
 * The delivery threads (DELIVERY_THREADS): each runs a whole scheduler with its own database
 * connection, senders and lease owner, supervised by its own SchedulerWorkerHost. They split a
 * burst the way several instances do: a claim is one write transaction (BEGIN IMMEDIATE on
 * SQLite, FOR UPDATE SKIP LOCKED on PostgreSQL), so a reminder is claimed by exactly one thread,
 * and each thread sends what it claimed. While one thread writes to the database another sends,
 * so a burst uses more than one core.
 *
 * Thread 0 always runs. The others are helpers: a backlog that lasts 1.5 s (more due than the
 * claims take, see BACKLOG_HELP_AFTER_MS in scheduler.ts) starts them, and each stops after
 * `deliveryHelperIdleMs` without work. A thread costs about 25 MB, which a quiet server does not
 * need to hold.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Config } from '../../config.ts';
import type { SchedulerTuning } from '../plugin.ts';
import { SchedulerWorkerHost } from './host.ts';
import type { SchedulerStats, ToWorker } from './protocol.ts';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

const sumMetrics = async (all: MetricsJson[]): Promise<MetricsJson> =>
  all.length === 1 ? all[0]! : ((await AggregatorRegistry.aggregate(all).getMetricsAsJSON()) as MetricsJson);

const isBusy = (s: SchedulerStats) => s.active + s.queued + s.known + s.pendingResults > 0;

export class SchedulerWorkerPool {
  private readonly primary: SchedulerWorkerHost;
  /** Helper threads by index (1..DELIVERY_THREADS-1); null when not running. */
  private readonly helpers: Array<SchedulerWorkerHost | null>;
  /** Helpers being stopped, each with its last figures to come: /metrics waits for those. */
  private readonly retiring = new Map<SchedulerWorkerHost, Promise<MetricsJson>>();
  /**
   * What stopped helpers counted: /metrics counters never go back. A helper moves from
   * `retiring` to here in one synchronous step, so a /metrics read never counts it twice.
   */
  private retired: MetricsJson[] = [];
  private compacting = false;
  private retiredStarts = 0;
  private readonly idleSince = new Map<SchedulerWorkerHost, number>();
  private idleTimer: NodeJS.Timeout | null = null;
  private tuning: Partial<SchedulerTuning>;
  private stopping = false;

  constructor(
    private readonly config: Config,
    tuning: Partial<SchedulerTuning>,
    private readonly log: FastifyBaseLogger,
    private readonly shutdownTimeoutMs: () => number,
  ) {
    this.tuning = { ...tuning };
    this.primary = this.newHost(0);
    this.helpers = Array.from({ length: Math.max(0, config.deliveryThreads - 1) }, () => null);
  }

  private newHost(index: number): SchedulerWorkerHost {
    const log = this.config.deliveryThreads > 1 ? this.log.child({ thread: index }) : this.log;
    return new SchedulerWorkerHost(this.config, this.tuning, log, this.shutdownTimeoutMs, index, () => this.startHelpers());
  }

  /** The threads running now, thread 0 first. */
  get hosts(): SchedulerWorkerHost[] {
    return [this.primary, ...this.helpers.filter((h): h is SchedulerWorkerHost => h !== null)];
  }

  /** Threads started so far (restarts and stopped helpers included). */
  get starts(): number {
    return this.retiredStarts + this.hosts.reduce((n, h) => n + h.starts, 0) + [...this.retiring.keys()].reduce((n, h) => n + h.starts, 0);
  }

  start(): void {
    this.primary.start();
    if (this.helpers.length > 0) {
      const every = Math.min(5000, Math.max(100, this.config.deliveryHelperIdleMs / 4));
      this.idleTimer = setInterval(() => this.retireIdleHelpers(), every);
      this.idleTimer.unref();
    }
  }

  /** A thread has a backlog: start every helper not running. */
  private startHelpers(): void {
    if (this.stopping) return;
    for (let i = 0; i < this.helpers.length; i++) {
      if (this.helpers[i]) continue;
      const host = this.newHost(i + 1);
      this.helpers[i] = host;
      host.start();
      this.log.info({ thread: i + 1 }, 'scheduler: backlog, extra delivery thread started');
    }
  }

  private retireIdleHelpers(): void {
    const now = Date.now();
    for (let i = 0; i < this.helpers.length; i++) {
      const host = this.helpers[i];
      if (!host) continue;
      if (isBusy(host.stats()) || !host.isRunning) {
        this.idleSince.delete(host);
        continue;
      }
      const since = this.idleSince.get(host) ?? now;
      this.idleSince.set(host, since);
      if (now - since < this.config.deliveryHelperIdleMs) continue;
      this.helpers[i] = null;
      this.idleSince.delete(host);
      void this.retire(host, i + 1);
    }
  }

  private async retire(host: SchedulerWorkerHost, index: number): Promise<void> {
    // The thread's 'stopped' message arrives before its exit, so finalMetrics is set by then.
    const final = host.stop().then(() => host.finalMetrics ?? [], () => host.finalMetrics ?? []);
    this.retiring.set(host, final);
    const figures = await final;
    this.retired.push(figures);
    this.retiring.delete(host);
    this.retiredStarts += host.starts;
    this.log.info({ thread: index }, 'scheduler: extra delivery thread stopped (no work)');
    await this.compactRetired();
  }

  /** One summed entry rather than one per burst. One compaction at a time; entries only append meanwhile. */
  private async compactRetired(): Promise<void> {
    if (this.compacting || this.retired.length < 2) return;
    this.compacting = true;
    try {
      const parts = this.retired.slice();
      const summed = await sumMetrics(parts);
      this.retired = [summed, ...this.retired.slice(parts.length)];
    } finally {
      this.compacting = false;
    }
  }

  /** Resolves once every running thread has started its loop (tests and benchmarks). */
  async ready(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.ready()));
  }

  /** Wake-ups, re-enabled destinations and tuning reach every thread (and helpers started later). */
  send(message: ToWorker): void {
    if (message.type === 'setOptions') this.tuning = { ...this.tuning, ...message.options };
    for (const host of this.hosts) host.send(message);
  }

  /** Claim what is due now (each thread claims a share). */
  async tick(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.call({ kind: 'tick' })));
  }

  /** Until no thread is claiming, sending or writing. */
  async drain(timeoutMs?: number): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.call({ kind: 'drain', timeoutMs })));
  }

  async runOnce(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.call({ kind: 'runOnce' })));
  }

  /** The retention sweep is thread 0's (the others do not run it). */
  prune(): Promise<number> {
    return this.primary.call({ kind: 'prune' });
  }

  /** Every thread's delivery counters and histograms, stopped helpers' included, summed. */
  async metrics(): Promise<MetricsJson> {
    // One synchronous snapshot of who is where: a helper stopping meanwhile is counted once.
    const retired = [...this.retired];
    const leaving = [...this.retiring.values()];
    const live = this.hosts.map((h) => h.call({ kind: 'metrics' }).catch((err: unknown) => h.finalMetrics ?? Promise.reject(err)));
    return sumMetrics([...(await Promise.all([...live, ...leaving])), ...retired]);
  }

  /** The running threads' last reports, added up (the timer: the earliest). */
  stats(): SchedulerStats {
    const out: SchedulerStats = { active: 0, queued: 0, known: 0, pendingResults: 0, timerAt: Number.POSITIVE_INFINITY };
    for (const host of this.hosts) {
      const s = host.stats();
      out.active += s.active;
      out.queued += s.queued;
      out.known += s.known;
      out.pendingResults += s.pendingResults;
      out.timerAt = Math.min(out.timerAt, s.timerAt);
    }
    return out;
  }

  /** Ends one running thread abruptly, as a crash would (tests); its host restarts it. */
  kill(index = 0): Promise<void> {
    return this.hosts[index]!.kill();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.idleTimer) clearInterval(this.idleTimer);
    this.idleTimer = null;
    await Promise.all([...this.hosts, ...this.retiring.keys()].map((h) => h.stop()));
  }
}
