import { setMaxListeners } from 'node:events';
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/connection.ts';
import type { DestinationType } from '../db/database.ts';
import {
  type AttemptRecord,
  claimDueReminders,
  loadOutboxPage,
  nextDeliveryAttemptAfter,
  nextReminderFire,
  type OutboxCursor,
  type OutboxRow,
  pruneDeliveryLog,
  recoverOutbox,
  writeAttemptResults,
} from '../repositories/deliveries.ts';
import type { SchedulerMetrics } from './metrics.ts';
import type { DestinationSender, SendContext, SendResult } from './types.ts';

/** setTimeout's ceiling; longer delays fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
}

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = {
  batchSize: 1000,
  concurrency: 256,
  perHostConcurrency: 32,
  retryDelaysMs: [10_000, 60_000, 300_000, 1_800_000, 7_200_000],
  retryJitter: 0.2,
  lateThresholdMs: 60_000,
  shutdownTimeoutMs: 10_000,
  flushIntervalMs: 100,
  maxBuffered: 8_000,
  maxBufferedPerKey: 4_000,
  pageSize: 1000,
  safetyNetCron: '*/30 * * * * *',
  pruneCron: '0 17 3 * * *',
  retentionDays: 30,
};

interface Job {
  row: OutboxRow;
  metadata: Record<string, unknown>;
  key: string;
}

const NOT_CONFIGURED: Partial<Record<DestinationType, string>> = {
  discord_dm: 'Discord is not configured on this server',
  discord_channel: 'Discord is not configured on this server',
};

function platformOf(row: Pick<OutboxRow, 'destination_type'>, metadata: Record<string, unknown>): string {
  if (row.destination_type !== 'webhook') return row.destination_type;
  const p = metadata.platform;
  return p === 'discord' || p === 'slack' ? p : 'generic';
}

function parseMetadata(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The scheduler: the database is the only source of truth (reminders.next_fire_utc, the
 * deliveries outbox); memory only holds what is being sent right now.
 *
 *  tick   = claim every due reminder (transactional outbox) -> read sendable deliveries -> re-arm
 *  timer  = one setTimeout at the earliest due instant (reminder or retry), re-armed by wake()
 *  send   = bounded overall and per host; results are written in batches
 */
export class Scheduler {
  readonly options: SchedulerOptions;
  private readonly senders = new Map<DestinationType, DestinationSender>();
  private loopEnabled = false;
  private stopping = false;

  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private crons: Cron[] = [];
  private wakeQueued = false;
  private ticking: Promise<void> | null = null;
  private tickAgain = false;

  // Outbox reading
  /**
   * Per status, a position in (next_attempt_at, id) order: every delivery of that status before
   * it is in memory or done. Pending rows are created in that order (claim time, then a
   * time-ordered id); a retry is always scheduled after the retrying cursor.
   */
  private cursors: Record<'pending' | 'retrying', OutboxCursor | null> = { pending: null, retrying: null };
  /** The last pending sweep reached the end and nothing was left behind since: claims may move its cursor. */
  private caughtUp = false;
  /** Bumped whenever a row is left in the table for lack of room. */
  private leftBehind = 0;
  private filling: Promise<void> | null = null;
  private fillAgain = false;
  /** Keys whose rows were left in the table for lack of room (see refillIfRoom). */
  private readonly saturated = new Set<string>();
  private full = false;
  /** "now" of the last completed fill: rows due up to it have been seen. */
  private lastFillIso = new Date(0).toISOString();

  // Sending
  /** Deliveries loaded and not yet written back: never loaded twice. */
  private readonly known = new Set<string>();
  private readonly queues = new Map<string, Job[]>();
  private readonly activeByKey = new Map<string, number>();
  private readonly runnable = new Set<string>();
  private active = 0;
  private queued = 0;
  private readonly disabledDestinations = new Set<string>();
  private readonly infoCache = new Map<string, { metadata: Record<string, unknown>; key: string }>();
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();

  // Writing results
  private results: AttemptRecord[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: DB,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: SchedulerMetrics,
    options: Partial<SchedulerOptions> = {},
  ) {
    this.options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
    // Every in-flight send listens for shutdown on this one signal.
    setMaxListeners(0, this.abort.signal);
  }

  registerSender(type: DestinationType, sender: DestinationSender): void {
    this.senders.set(type, sender);
    this.infoCache.clear();
  }

  senderFor(type: DestinationType): DestinationSender | undefined {
    return this.senders.get(type);
  }

  setOptions(options: Partial<SchedulerOptions>): void {
    Object.assign(this.options, options);
  }

  /** Starts the loop: recovery of unfinished deliveries, the timer, the safety net and pruning. */
  async start(): Promise<void> {
    if (this.loopEnabled || this.stopping) return;
    this.loopEnabled = true;
    const recovered = await recoverOutbox(this.db, new Date().toISOString());
    if (recovered) this.log.info({ recovered }, 'scheduler: recovered unfinished deliveries');
    this.crons.push(
      new Cron(this.options.safetyNetCron, { protect: true, unref: true }, () => {
        this.resetCursors();
        void this.tick();
      }),
      new Cron(this.options.pruneCron, { protect: true, unref: true }, () => {
        void this.prune();
      }),
    );
    void this.prune();
    void this.tick();
  }

  /** Re-arm the timer after reminders changed; calls in the same tick collapse into one. */
  wake(): void {
    if (this.wakeQueued || this.stopping) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      if (this.loopEnabled && !this.stopping) void this.arm();
    });
  }

  /** Claims what is due, starts sending it and re-arms. Resolves before the sends finish. */
  tick(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (this.ticking) {
      this.tickAgain = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      try {
        do {
          this.tickAgain = false;
          await this.claimAll();
          await this.fill();
          await this.arm();
        } while (this.tickAgain && !this.stopping);
      } catch (err) {
        if (!this.stopping) {
          this.log.error({ err }, 'scheduler tick failed');
          // Try again soon rather than waiting for the safety net.
          this.setTimer(Date.now() + 1000);
        }
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  /** Resolves when nothing is being claimed, read, sent or written. For tests and benchmarks. */
  async drain(timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.idle()) {
      if (Date.now() > until) throw new Error('scheduler did not drain in time');
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  /** tick() then drain(). */
  async runOnce(): Promise<void> {
    await this.tick();
    await this.drain();
  }

  idle(): boolean {
    return !this.ticking && !this.filling && !this.flushing && this.active === 0 && this.queued === 0 && this.results.length === 0;
  }

  stats() {
    return { active: this.active, queued: this.queued, known: this.known.size, pendingResults: this.results.length, timerAt: this.timerAt };
  }

  async prune(): Promise<number> {
    const cutoff = new Date(Date.now() - this.options.retentionDays * 86_400_000).toISOString();
    try {
      const n = await pruneDeliveryLog(this.db, cutoff);
      if (n) this.log.info({ deleted: n }, 'scheduler: pruned delivery log');
      return n;
    } catch (err) {
      if (!this.stopping) this.log.warn({ err }, 'scheduler: pruning the delivery log failed');
      return 0;
    }
  }

  /**
   * Graceful shutdown: stop claiming, let in-flight sends finish (bounded), write their results.
   * Whatever is not finished stays pending in the outbox and is sent on next start with the
   * same idempotency key.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.loopEnabled = false;
    if (this.timer) clearTimeout(this.timer);
    for (const c of this.crons) c.stop();
    await Promise.allSettled([this.ticking, this.filling]);
    // Queued, not started: they stay pending in the table.
    for (const jobs of this.queues.values()) for (const job of jobs) this.known.delete(job.row.id);
    this.queues.clear();
    this.runnable.clear();
    this.queued = 0;
    if (this.inFlight.size > 0) {
      let timeout: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, this.options.shutdownTimeoutMs);
      });
      await Promise.race([Promise.allSettled([...this.inFlight]), timedOut]);
      clearTimeout(timeout);
      if (this.inFlight.size > 0) {
        this.log.warn({ inFlight: this.inFlight.size }, 'scheduler: abandoning in-flight deliveries at shutdown; they will be resent on start');
        this.abort.abort();
        await Promise.allSettled([...this.inFlight]);
      }
    }
    await this.flush();
  }

  // -------------------------------------------------------------------------------------------
  // Timer

  private async arm(): Promise<void> {
    if (!this.loopEnabled || this.stopping) return;
    const [fire, retry] = await Promise.all([nextReminderFire(this.db), nextDeliveryAttemptAfter(this.db, this.lastFillIso)]);
    let at = Number.POSITIVE_INFINITY;
    if (fire) at = Date.parse(fire);
    if (retry) at = Math.min(at, Date.parse(retry));
    this.setTimer(at);
  }

  private setTimer(at: number): void {
    if (!this.loopEnabled || this.stopping) return;
    if (this.timer && this.timerAt === at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = at;
    if (!Number.isFinite(at)) return;
    const delay = Math.min(Math.max(at - Date.now(), 0), MAX_TIMER_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Number.POSITIVE_INFINITY;
      void this.tick();
    }, delay);
    this.timer.unref();
  }

  // -------------------------------------------------------------------------------------------
  // Claiming

  private async claimAll(): Promise<void> {
    for (;;) {
      if (this.stopping) return;
      const now = Date.now();
      const claimed = await claimDueReminders(this.db, now, this.options.batchSize, this.options.lateThresholdMs);
      for (const s of claimed.lateness) this.metrics.lateness.observe(s);
      // Start sending this batch while the next one is claimed; what finds no room in memory
      // stays pending in the table for the outbox sweep.
      // While the sweep is caught up, rows taken here move the cursor too, so it never re-reads them.
      let advance = this.caughtUp && !this.filling && claimed.rows.length === claimed.deliveries;
      for (const row of claimed.rows) {
        if (this.offer(row)) {
          if (advance) this.cursors.pending = { at: row.next_attempt_at, id: row.id };
        } else advance = false;
      }
      if (claimed.rows.length < claimed.deliveries) {
        this.caughtUp = false;
        void this.fill();
      }
      this.pump();
      if (claimed.reminders < this.options.batchSize) return;
      // Let sends and API requests in between batches of a burst.
      await new Promise((r) => setImmediate(r));
    }
  }

  // -------------------------------------------------------------------------------------------
  // Reading the outbox

  private resetCursors(): void {
    this.cursors = { pending: null, retrying: null };
    this.caughtUp = false;
  }

  private fill(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (this.filling) {
      this.fillAgain = true;
      return this.filling;
    }
    this.filling = (async () => {
      try {
        do {
          this.fillAgain = false;
          await this.fillOnce();
        } while (this.fillAgain && !this.stopping);
      } catch (err) {
        if (!this.stopping) this.log.error({ err }, 'scheduler: reading the outbox failed');
        // Do not let arm() spin on rows this failed read should have taken; the safety net sweeps again.
        this.lastFillIso = new Date().toISOString();
      } finally {
        this.filling = null;
      }
    })();
    return this.filling;
  }

  /**
   * Pages through sendable deliveries from the cursor on. The cursor never moves past a row that
   * found no room in memory (so no row is ever skipped); rows for other hosts a little further on
   * are still taken, so one host with a deep backlog does not hold the others back.
   */
  private async fillOnce(): Promise<void> {
    const nowIso = new Date().toISOString();
    const leftBehindAtStart = this.leftBehind;
    for (const status of ['pending', 'retrying'] as const) {
      let cursor = this.cursors[status];
      let held: OutboxCursor | null | undefined;
      let reachedEnd = false;
      for (;;) {
        if (this.stopping) return;
        if (this.known.size >= this.options.maxBuffered) {
          this.full = true;
          break;
        }
        const page = await loadOutboxPage(this.db, status, nowIso, cursor, this.options.pageSize);
        for (const row of page) {
          if (!this.offer(row) && held === undefined) held = cursor;
          cursor = { at: row.next_attempt_at, id: row.id };
        }
        if (page.length < this.options.pageSize) {
          reachedEnd = true;
          break;
        }
        // One page past a held row, for other hosts; the rest waits until there is room again.
        if (held !== undefined) break;
      }
      this.cursors[status] = held !== undefined ? held : cursor;
      if (status === 'pending') this.caughtUp = reachedEnd && held === undefined && this.leftBehind === leftBehindAtStart;
    }
    this.lastFillIso = nowIso;
    this.pump();
  }

  /** Queues a row for sending; false when there is no room for it now. */
  private offer(row: OutboxRow): boolean {
    if (this.known.has(row.id)) return true;
    const { metadata, key } = this.destinationInfo(row);
    let queue = this.queues.get(key);
    if (this.known.size >= this.options.maxBuffered) {
      this.full = true;
      this.leftBehind += 1;
      this.caughtUp = false;
      return false;
    }
    if ((queue?.length ?? 0) + (this.activeByKey.get(key) ?? 0) >= this.options.maxBufferedPerKey) {
      this.saturated.add(key);
      this.leftBehind += 1;
      this.caughtUp = false;
      return false;
    }
    if (!queue) {
      queue = [];
      this.queues.set(key, queue);
    }
    queue.push({ row, metadata, key });
    this.known.add(row.id);
    this.queued += 1;
    if ((this.activeByKey.get(key) ?? 0) < this.options.perHostConcurrency) this.runnable.add(key);
    return true;
  }

  /**
   * Parsed metadata and concurrency key of a destination, cached by its metadata text: a burst
   * to one webhook parses one URL, not 100,000. Metadata objects are shared: senders must not
   * mutate them.
   */
  private destinationInfo(row: OutboxRow): { metadata: Record<string, unknown>; key: string } {
    const cacheKey = `${row.destination_type}\u0000${row.metadata}`;
    let info = this.infoCache.get(cacheKey);
    if (info) return info;
    const metadata = Object.freeze(parseMetadata(row.metadata));
    const sender = this.senders.get(row.destination_type);
    let key = `missing:${row.destination_type}`;
    if (sender) {
      try {
        key = sender.concurrencyKey({ id: row.destination_id, type: row.destination_type, metadata, secret: row.secret });
      } catch {
        key = `invalid:${row.destination_type}`;
      }
    }
    info = { metadata, key };
    if (this.infoCache.size >= 5000) this.infoCache.clear();
    this.infoCache.set(cacheKey, info);
    return info;
  }

  /** Rows were left in the table for lack of room and room came back: read on. */
  private refillIfRoom(key: string): void {
    if (this.stopping) return;
    if (this.saturated.has(key) && (this.queues.get(key)?.length ?? 0) < this.options.maxBufferedPerKey / 2) {
      this.saturated.delete(key);
      void this.fill();
    } else if (this.full && this.known.size < this.options.maxBuffered / 2) {
      this.full = false;
      void this.fill();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Sending

  /** Starts queued jobs, round-robin over keys, within the overall and per-key limits. */
  private pump(): void {
    while (this.active < this.options.concurrency && this.runnable.size > 0 && !this.stopping) {
      const key = this.runnable.values().next().value as string;
      this.runnable.delete(key);
      const queue = this.queues.get(key);
      const job = queue?.shift();
      if (!job) {
        this.queues.delete(key);
        continue;
      }
      if (queue!.length === 0) this.queues.delete(key);
      this.queued -= 1;
      const activeForKey = (this.activeByKey.get(key) ?? 0) + 1;
      this.activeByKey.set(key, activeForKey);
      this.active += 1;
      // Back of the line: other hosts get their turn before this one's next job.
      if (queue!.length > 0 && activeForKey < this.options.perHostConcurrency) this.runnable.add(key);
      const p = this.run(job).finally(() => {
        this.inFlight.delete(p);
        this.active -= 1;
        const left = (this.activeByKey.get(key) ?? 1) - 1;
        if (left === 0) this.activeByKey.delete(key);
        else this.activeByKey.set(key, left);
        if ((this.queues.get(key)?.length ?? 0) > 0 && left < this.options.perHostConcurrency) this.runnable.add(key);
        this.pump();
        this.refillIfRoom(key);
      });
      this.inFlight.add(p);
    }
  }

  private async run(job: Job): Promise<void> {
    const { row, metadata } = job;
    const attempt = row.attempts + 1;
    const started = Date.now();
    const firedAt = new Date(started).toISOString();
    let result: SendResult;
    const sender = this.senders.get(row.destination_type);
    if (row.disabled_at || this.disabledDestinations.has(row.destination_id)) {
      result = { ok: false, retryable: false, error: `Destination is disabled${row.disabled_reason ? `: ${row.disabled_reason}` : ''}` };
    } else if (!sender) {
      result = { ok: false, retryable: false, error: NOT_CONFIGURED[row.destination_type] ?? `No sender for "${row.destination_type}" destinations on this server` };
    } else {
      const ctx: SendContext = {
        deliveryId: row.id,
        idempotencyKey: row.idempotency_key,
        attempt,
        reminder: {
          id: row.reminder_id,
          message: row.message,
          recurrence_type: row.recurrence_type,
          timezone: row.reminder_timezone,
          remind_at_utc: row.remind_at_utc,
        },
        account: { id: row.account_id, timezone: row.account_timezone, locale: row.locale, username: row.username },
        destination: { id: row.destination_id, type: row.destination_type, metadata, secret: row.secret },
        occurrenceUtc: row.occurrence_utc,
        firedAt,
        late: row.late === 1,
        signal: this.abort.signal,
      };
      try {
        result = await sender.send(ctx);
      } catch (err) {
        result = { ok: false, retryable: true, error: `Unexpected error: ${(err as Error)?.message ?? String(err)}` };
      }
    }
    if (!result.ok && this.abort.signal.aborted) {
      // Abandoned at shutdown: not an attempt; the row stays as it was and is resent on start.
      this.known.delete(row.id);
      return;
    }
    this.record(job, metadata, attempt, started, result);
  }

  private retryDelay(attempt: number, retryAfterMs: number | undefined): number {
    const delays = this.options.retryDelaysMs;
    const base = delays[Math.min(attempt - 1, delays.length - 1)] ?? 0;
    const jitter = 1 + (Math.random() * 2 - 1) * this.options.retryJitter;
    return Math.max(Math.round(base * jitter), retryAfterMs ?? 0);
  }

  private record(job: Job, metadata: Record<string, unknown>, attempt: number, started: number, result: SendResult): void {
    const { row } = job;
    const finished = Date.now();
    let outcome: AttemptRecord['outcome'];
    let nextAttemptAt: string | null = null;
    if (result.ok) outcome = 'delivered';
    else if (result.retryable && attempt <= this.options.retryDelaysMs.length) {
      outcome = 'retrying';
      nextAttemptAt = new Date(finished + this.retryDelay(attempt, result.retryAfterMs)).toISOString();
      this.metrics.retries.inc();
    } else outcome = 'failed';
    const disableReason = !result.ok && result.disableDestination ? result.error : null;
    if (disableReason) this.disabledDestinations.add(row.destination_id);
    this.metrics.deliveries.inc({ platform: platformOf(row, metadata), outcome });
    if (!result.ok) {
      this.log.info(
        { deliveryId: row.id, reminderId: row.reminder_id, destinationId: row.destination_id, attempt, outcome, httpStatus: result.httpStatus, error: result.error },
        'delivery attempt failed',
      );
    }
    this.results.push({
      deliveryId: row.id,
      reminderId: row.reminder_id,
      destinationId: row.destination_id,
      accountId: row.account_id,
      occurrenceUtc: row.occurrence_utc,
      attempt,
      outcome,
      error: result.ok ? null : result.error,
      httpStatus: result.httpStatus ?? null,
      discordCode: result.ok ? null : (result.discordCode ?? null),
      durationMs: finished - started,
      startedAt: new Date(started).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      nextAttemptAt,
      disableReason,
    });
    this.scheduleFlush();
  }

  // -------------------------------------------------------------------------------------------
  // Writing results

  /** Results are written every flushIntervalMs, or at once when 2000 are waiting. */
  private scheduleFlush(): void {
    if (this.flushing) return;
    if (this.results.length >= 2000) {
      void this.flush();
      return;
    }
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, this.options.flushIntervalMs);
  }

  private async flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
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
        await writeAttemptResults(this.db, batch);
        for (const r of batch) this.known.delete(r.deliveryId);
        if (batch.some((r) => r.outcome === 'retrying')) this.wake();
        if (this.full && this.known.size < this.options.maxBuffered / 2 && !this.stopping) {
          this.full = false;
          void this.fill();
        }
      } catch (err) {
        this.log.error({ err, count: batch.length }, 'scheduler: writing delivery results failed; will retry');
        this.results.unshift(...batch);
        if (!this.stopping) {
          setTimeout(() => void this.flush(), 1000).unref();
        }
      } finally {
        this.flushing = null;
      }
    })();
    await this.flushing;
    if (this.results.length > 0 && !this.stopping) this.scheduleFlush();
  }
}
