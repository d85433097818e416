/**
 * The delivery threads (DELIVERY_THREADS): each runs a whole scheduler with its own database
 * connection, senders and lease owner, supervised by its own SchedulerWorkerHost. They split a
 * burst the way several instances do: a claim is one write transaction (BEGIN IMMEDIATE on
 * SQLite, FOR UPDATE SKIP LOCKED on PostgreSQL), so a reminder is claimed by exactly one thread,
 * and each thread sends what it claimed. One thread claims and records while another sends, so a
 * burst uses more than one core.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Config } from '../../config.ts';
import type { SchedulerTuning } from '../plugin.ts';
import { SchedulerWorkerHost } from './host.ts';
import type { SchedulerStats, ToWorker } from './protocol.ts';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

export class SchedulerWorkerPool {
  readonly hosts: SchedulerWorkerHost[];

  constructor(config: Config, tuning: Partial<SchedulerTuning>, log: FastifyBaseLogger, shutdownTimeoutMs: () => number) {
    const threads = Math.max(1, config.deliveryThreads);
    this.hosts = Array.from({ length: threads }, (_, index) => new SchedulerWorkerHost(config, tuning, threads > 1 ? log.child({ thread: index }) : log, shutdownTimeoutMs, index));
  }

  start(): void {
    for (const host of this.hosts) host.start();
  }

  /** Resolves once every thread has started its loop (tests and benchmarks). */
  async ready(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.ready()));
  }

  /** Threads started so far, over all hosts (restarts included). */
  get starts(): number {
    return this.hosts.reduce((n, h) => n + h.starts, 0);
  }

  /** Wake-ups, re-enabled destinations and tuning reach every thread. */
  send(message: ToWorker): void {
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
    return this.hosts[0]!.call({ kind: 'prune' });
  }

  /** Every thread's delivery counters and histograms, summed. */
  async metrics(): Promise<MetricsJson> {
    const all = await Promise.all(this.hosts.map((h) => h.call({ kind: 'metrics' })));
    if (all.length === 1) return all[0]!;
    return (await AggregatorRegistry.aggregate(all).getMetricsAsJSON()) as MetricsJson;
  }

  /** The threads' last reports, added up (the timer: the earliest). */
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

  /** Ends one thread abruptly, as a crash would (tests); its host restarts it. */
  kill(index = 0): Promise<void> {
    return this.hosts[index]!.kill();
  }

  async stop(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.stop()));
  }
}
