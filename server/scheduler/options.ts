import { LATE_THRESHOLD_MS } from './late.ts';

export interface SchedulerOptions {
  /** Reminders claimed per transaction. */
  batchSize: number;
  /** Sends in flight overall. */
  concurrency: number;
  /** Sends in flight per concurrency key (webhook host, "discord"). */
  perHostConcurrency: number;
  /** Wait before retry n (after failed attempt n); its length + 1 is the attempt budget. */
  retryDelaysMs: number[];
  /** +-fraction applied to each retry delay so retries of one outage do not arrive together. */
  retryJitter: number;
  /** A delivery fired this much after it was due is marked late. */
  lateThresholdMs: number;
  /** How long shutdown waits for in-flight sends before abandoning them (they are resent on start). */
  shutdownTimeoutMs: number;
  /** Attempt results are written together at most this often. */
  flushIntervalMs: number;
  /** Deliveries held in memory (queued + in flight); the rest wait in the outbox table. */
  maxBuffered: number;
  /** ...of which at most this many for one concurrency key, so one slow host cannot fill memory. */
  maxBufferedPerKey: number;
  /** Outbox rows read per query. */
  pageSize: number;
  /** Safety net in case a wake() was missed (croner pattern, with seconds). */
  safetyNetCron: string;
  /** Delivery log retention sweep (croner pattern). */
  pruneCron: string;
  /** Days of delivery log kept. */
  retentionDays: number;
  /** Run the retention sweep (one delivery thread of several does; the others would repeat it). */
  pruneLog: boolean;
  /**
   * How long this instance's lease on the deliveries in its memory lasts without renewal (renewed
   * every third of it): when the instance dies, another sends them after at most this long.
   */
  leaseMs: number;
}

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = {
  batchSize: 1000,
  concurrency: 256,
  perHostConcurrency: 32,
  retryDelaysMs: [10_000, 60_000, 300_000, 1_800_000, 7_200_000],
  retryJitter: 0.2,
  lateThresholdMs: LATE_THRESHOLD_MS,
  shutdownTimeoutMs: 10_000,
  flushIntervalMs: 100,
  maxBuffered: 8_000,
  maxBufferedPerKey: 4_000,
  pageSize: 1000,
  safetyNetCron: '*/30 * * * * *',
  pruneCron: '0 17 3 * * *',
  retentionDays: 30,
  pruneLog: true,
  leaseMs: 30_000,
};
