/**
 * The result recorder: asks the retry policy (retry-policy.ts) what each attempt's SendResult
 * means (delivered, retrying at a time, failed, the destination disabled), counts it, and writes
 * attempts in batches (every flushIntervalMs, or at once when many are waiting). A failed write is
 * kept and tried again.
 */
import type { AttemptRecord } from '../repositories/attempt-results.ts';
import type { OutboxRow } from '../repositories/outbox.ts';
import type { Clock, TimerHandle } from './clock.ts';
import { FailureLog } from './failure-log.ts';
import type { SchedulerMetrics } from './metrics.ts';
import type { SchedulerOptions } from './options.ts';
import { nextAttempt } from './retry-policy.ts';
import type { SendResult } from './types.ts';

/** Results waiting beyond this are written at once, without waiting for the interval. */
export const FLUSH_AT_COUNT = 2000;
/** Wait before writing again after a failed write. */
export const WRITE_RETRY_MS = 1000;
/** Logged once per streak of failed writes (failure-log.ts). */
const WRITE_RESULTS = 'scheduler: writing delivery results';

export interface AttemptInput {
  row: Pick<OutboxRow, 'id' | 'reminder_id' | 'destination_id' | 'account_id' | 'occurrence_utc'>;
  /** The `platform` label of the deliveries metric. */
  platform: string;
  /** 1-based attempt number. */
  attempt: number;
  startedMs: number;
  result: SendResult;
}

export interface ResultRecorderDeps {
  clock: Clock;
  /** Read on every use: app.scheduler.setOptions() changes them at run time. */
  options: Pick<SchedulerOptions, 'retryDelaysMs' | 'retryJitter' | 'flushIntervalMs'>;
  /** Writes a batch in one transaction (writeAttemptResults). */
  write(records: AttemptRecord[]): Promise<void>;
  /** After a batch is in the database: the pump may forget those deliveries, retries re-arm the timer. */
  onWritten(batch: AttemptRecord[]): void;
  metrics: Pick<SchedulerMetrics, 'deliveries' | 'retries' | 'databaseErrors'>;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** [0, 1); Math.random by default (the retry jitter). */
  random?: () => number;
}

export class ResultRecorder {
  private results: AttemptRecord[] = [];
  private flushTimer: TimerHandle | null = null;
  private flushing: Promise<void> | null = null;
  private stopping = false;
  private readonly failures: FailureLog;

  constructor(private readonly deps: ResultRecorderDeps) {
    this.failures = new FailureLog(deps.log, () => deps.clock.now(), () => deps.metrics.databaseErrors.inc());
  }

  /** Results not written yet. */
  get pending(): number {
    return this.results.length;
  }

  idle(): boolean {
    return !this.flushing && this.results.length === 0;
  }

  /** Decides the outcome of one attempt (the retry policy) and queues it for writing. */
  record(input: AttemptInput): AttemptRecord {
    const { row, result, attempt } = input;
    const finished = this.deps.clock.now();
    const decision = nextAttempt(result, attempt, finished, this.deps.options, this.deps.random);
    const { outcome } = decision;
    const nextAttemptAt = decision.outcome === 'retrying' ? new Date(decision.nextAttemptMs).toISOString() : null;
    const disable = decision.outcome === 'failed' ? decision.disable : null;
    if (outcome === 'retrying') this.deps.metrics.retries.inc();
    this.deps.metrics.deliveries.inc({ platform: input.platform, outcome });
    if (!result.ok) {
      this.deps.log.info(
        { deliveryId: row.id, reminderId: row.reminder_id, destinationId: row.destination_id, attempt, outcome, code: result.code, httpStatus: result.httpStatus, error: result.error },
        'delivery attempt failed',
      );
    }
    const record: AttemptRecord = {
      deliveryId: row.id,
      reminderId: row.reminder_id,
      destinationId: row.destination_id,
      accountId: row.account_id,
      occurrenceUtc: row.occurrence_utc,
      attempt,
      outcome,
      // A delivered attempt keeps its warning (if any) in the same columns: the history shows it.
      error: result.ok ? (result.warning?.error ?? null) : result.error,
      errorCode: result.ok ? (result.warning?.code ?? null) : result.code,
      httpStatus: result.httpStatus ?? null,
      durationMs: finished - input.startedMs,
      startedAt: new Date(input.startedMs).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      nextAttemptAt,
      disableReason: disable?.reason ?? null,
      disableCode: disable?.code ?? null,
    };
    this.results.push(record);
    this.scheduleFlush();
    return record;
  }

  /** Results are written every flushIntervalMs, or at once when FLUSH_AT_COUNT are waiting. */
  private scheduleFlush(): void {
    if (this.flushing) return;
    if (this.results.length >= FLUSH_AT_COUNT) {
      void this.flush();
      return;
    }
    if (this.flushTimer) return;
    this.flushTimer = this.deps.clock.setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, this.deps.options.flushIntervalMs);
  }

  /** Writes everything waiting now (and what arrives while writing). */
  async flush(): Promise<void> {
    if (this.flushTimer) {
      this.deps.clock.clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.flushing) {
      await this.flushing;
      if (this.results.length > 0) return this.flush();
      return;
    }
    if (this.results.length === 0) return;
    const batch = this.results;
    this.results = [];
    this.flushing = (async () => {
      try {
        await this.deps.write(batch);
        this.failures.succeeded(WRITE_RESULTS);
        this.deps.onWritten(batch);
      } catch (err) {
        this.failures.failed(WRITE_RESULTS, err, { count: batch.length, retryInMs: WRITE_RETRY_MS });
        this.results.unshift(...batch);
        if (!this.stopping) {
          this.flushTimer = this.deps.clock.setTimeout(
            () => {
              this.flushTimer = null;
              void this.flush();
            },
            WRITE_RETRY_MS,
            { background: true },
          );
        }
      } finally {
        this.flushing = null;
      }
    })();
    await this.flushing;
    if (this.results.length > 0 && !this.stopping) this.scheduleFlush();
  }

  /** Shutdown: no more timed writes; a last flush() writes what is left. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.flush();
    if (this.flushTimer) {
      this.deps.clock.clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
  }
}
