import { LATE_THRESHOLD_MS } from './late.ts';
import { DEFAULT_RETRY_POLICY } from './retry-policy.ts';

export interface SchedulerOptions {
  /** Reminders claimed per transaction, at most (sends in flight wait while a claim runs on SQLite). */
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
  /** Outbox rows claimed per statement. */
  pageSize: number;
  /**
   * Reminders due within this much are claimed ahead: their deliveries wait in the outbox for
   * their instant, so at that instant the sends start without planning or inserting anything
   * (README.md "Prepared ahead"). 0 claims only what is due.
   */
  prepareAheadMs: number;
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
  /**
   * Who holds the leases of what this scheduler sends: stable across restarts of the same instance
   * and thread (`<instance>:t<thread>`, see instanceName in server/lib/leadership.ts), so a
   * restarted instance takes its own leases back at once.
   */
  leaseOwner: string;
  /**
   * Logs one line per step of a claim round (timer, outbox claim, reminder claim, hand-off to the
   * pump, result writes) with its time and duration: where a burst's first second goes.
   * CHIME_SCHEDULER_TRACE=1 (bench/scheduler-same-instant.ts prints the trace of a burst).
   */
  trace: boolean;
}

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = {
  batchSize: 250,
  concurrency: 256,
  perHostConcurrency: 32,
  retryDelaysMs: [...DEFAULT_RETRY_POLICY.retryDelaysMs],
  retryJitter: DEFAULT_RETRY_POLICY.retryJitter,
  lateThresholdMs: LATE_THRESHOLD_MS,
  shutdownTimeoutMs: 10_000,
  flushIntervalMs: 100,
  maxBuffered: 8_000,
  maxBufferedPerKey: 4_000,
  pageSize: 1000,
  prepareAheadMs: 1000,
  safetyNetCron: '*/30 * * * * *',
  pruneCron: '0 17 3 * * *',
  retentionDays: 30,
  pruneLog: true,
  leaseMs: 30_000,
  leaseOwner: '',
  trace: process.env.CHIME_SCHEDULER_TRACE === '1',
};
