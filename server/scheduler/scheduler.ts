import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/connection.ts';
import type { DestinationType } from '../db/database.ts';
import { randomBytes } from 'node:crypto';
import { instanceId } from '../lib/leadership.ts';
import { writeAttemptResults } from '../repositories/attempt-results.ts';
import { pruneDeliveryLog } from '../repositories/delivery-retention.ts';
import { listEnabledDestinations, nextReminderFire, selectDueReminderIds } from '../repositories/due-reminders.ts';
import { claimOutboxPage, type DeliveryLease, hasExpiredLeases, nextDeliveryAttemptAfter, recoverOutbox, releaseDeliveryLeases, releaseOwnerLeases, renewDeliveryLeases } from '../repositories/outbox.ts';
import { type ClaimResult, Claimer } from './claimer.ts';
import { type Clock, nextTurn, systemClock, type TimerHandle } from './clock.ts';
import { FailureLog } from './failure-log.ts';
import type { SchedulerMetrics } from './metrics.ts';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from './options.ts';
import { ResultRecorder } from './result-recorder.ts';
import { SendPump } from './send-pump.ts';
import type { DestinationSender } from './types.ts';

export { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from './options.ts';

/** While memory is full, due reminders are looked at again at least this often. */
const CLAIM_PROBE_MS = 1000;
/** What retrySoon logs (server/scheduler/failure-log.ts: once per streak, then once a minute). */
const TICK = 'scheduler tick';
const REARM = 'scheduler: re-arming';

/**
 * The scheduler wires its parts to one timer. The database is the only source of truth
 * (reminders.next_fire_utc, the deliveries outbox); memory only holds what is being sent right now.
 *
 *  tick   = claimer (due reminders -> outbox, planner inside) -> send pump reads the outbox -> re-arm
 *  timer  = one timeout at the earliest due instant (reminder or retry), re-armed by wake()
 *  send   = the send pump, bounded overall and per key; the result recorder writes results in batches
 */
export class Scheduler {
  readonly options: SchedulerOptions;
  private readonly senders = new Map<DestinationType, DestinationSender>();
  private readonly claimer: Claimer;
  private readonly failures: FailureLog;
  private readonly pump: SendPump;
  private readonly recorder: ResultRecorder;
  private loopEnabled = false;
  private stopping = false;

  private timer: TimerHandle | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private crons: Cron[] = [];
  private wakeQueued = false;
  private ticking: Promise<void> | null = null;
  private tickAgain = false;
  /** Due reminders wait for room in memory until the pump says there is, or until this instant. */
  private claimsWaitUntil = 0;
  /** Where the next probe reads the due reminders (past the ones for full keys). */
  private probeOffset = 0;
  /**
   * The earliest retry written due before what the last outbox read covered (seenUntilIso): arm()
   * looks only after that, so without this the retry would wait for the safety net.
   */
  private unseenRetryAt = Number.POSITIVE_INFINITY;
  private leaseTimer: TimerHandle | null = null;
  /** Called when more is due than one claim takes, or the outbox holds more than one page (worker/pool.ts). */
  onBacklog: (() => void) | null = null;
  /** Who holds the leases on the deliveries this scheduler sends (one per scheduler, per process start). */
  readonly leaseOwner = `${instanceId}:${randomBytes(3).toString('hex')}`;

  constructor(
    private readonly db: DB,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: SchedulerMetrics,
    options: Partial<SchedulerOptions> = {},
    private readonly clock: Clock = systemClock,
  ) {
    this.options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
    this.failures = new FailureLog(log, () => clock.now());
    this.claimer = new Claimer(db, clock);
    this.recorder = new ResultRecorder({
      clock,
      options: this.options,
      write: (records) => writeAttemptResults(db, records),
      onWritten: (batch) => {
        this.pump.release(batch.map((r) => r.deliveryId));
        const retries = batch.flatMap((r) => (r.outcome === 'retrying' && r.nextAttemptAt ? [r.nextAttemptAt] : []));
        if (retries.length === 0) return;
        // Results are written a little after the attempts (flushIntervalMs): a retry due sooner than
        // that may already lie behind the outbox read, which must then go back for it.
        const earliest = retries.reduce((a, b) => (a < b ? a : b));
        this.pump.retryWrittenAt(earliest);
        if (earliest <= this.pump.seenUntilIso) this.unseenRetryAt = Math.min(this.unseenRetryAt, Date.parse(earliest));
        this.wake();
      },
      metrics,
      log,
    });
    this.pump = new SendPump({
      clock,
      options: this.options,
      loadPage: (status, nowIso, cursor, limit) => claimOutboxPage(db, status, nowIso, cursor, limit, this.lease(Date.parse(nowIso))),
      releaseLeases: (ids) => {
        releaseDeliveryLeases(db, ids, this.leaseOwner).catch((err: unknown) => log.warn({ err }, 'scheduler: giving back delivery leases failed (they expire)'));
      },
      senderFor: (type) => this.senders.get(type),
      onResult: (attempt) => this.recorder.record(attempt),
      onBacklog: () => this.onBacklog?.(),
      onRoom: () => void this.tick(),
      log,
    });
  }

  registerSender(type: DestinationType, sender: DestinationSender): void {
    this.senders.set(type, sender);
    this.pump.sendersChanged();
  }

  senderFor(type: DestinationType): DestinationSender | undefined {
    return this.senders.get(type);
  }

  registeredSenders(): DestinationSender[] {
    return [...new Set(this.senders.values())];
  }

  setOptions(options: Partial<SchedulerOptions>): void {
    Object.assign(this.options, options);
  }

  /** This scheduler's lease on deliveries, from `nowMs` on. */
  private lease(nowMs: number): DeliveryLease {
    return { owner: this.leaseOwner, until: new Date(nowMs + this.options.leaseMs).toISOString() };
  }

  /**
   * Every third of a lease's life: renews the leases of the deliveries in memory, and reads the
   * outbox again from its start when another instance's leases ran out (it died mid-send).
   */
  private renewLeasesLater(): void {
    if (this.stopping) return;
    this.leaseTimer = this.clock.setTimeout(
      () => {
        const now = this.clock.now();
        renewDeliveryLeases(this.db, this.lease(now))
          .then(() => hasExpiredLeases(this.db, new Date(now).toISOString()))
          .then((expired) => {
            if (!expired || this.stopping) return;
            this.log.info({}, 'scheduler: taking over deliveries whose lease expired');
            this.pump.resetCursors();
            void this.tick();
          })
          .catch((err: unknown) => {
            if (!this.stopping) this.log.warn({ err }, 'scheduler: renewing delivery leases failed');
          })
          .finally(() => this.renewLeasesLater());
      },
      Math.max(this.options.leaseMs / 3, 50),
      { background: true },
    );
  }

  /** Starts the loop: recovery of unfinished deliveries, the timer, the safety net and pruning. */
  async start(): Promise<void> {
    if (this.loopEnabled || this.stopping) return;
    this.loopEnabled = true;
    const recovered = await recoverOutbox(this.db, new Date(this.clock.now()).toISOString());
    if (recovered) this.log.info({ recovered }, 'scheduler: recovered unfinished deliveries');
    this.renewLeasesLater();
    this.crons.push(
      new Cron(this.options.safetyNetCron, { protect: true, unref: true }, () => {
        this.pump.resetCursors();
        void this.tick();
      }),
    );
    if (this.options.pruneLog) {
      this.crons.push(new Cron(this.options.pruneCron, { protect: true, unref: true }, () => void this.prune()));
      void this.prune();
    }
    void this.tick();
  }

  /** The owner re-enabled a destination the pump had stopped sending to in this burst. */
  destinationEnabled(destinationId: string): void {
    this.pump.destinationEnabled(destinationId);
  }

  /** Re-arm the timer after reminders changed; calls in the same tick collapse into one. */
  wake(): void {
    if (this.wakeQueued || this.stopping) return;
    this.wakeQueued = true;
    this.clock.setImmediate(() => {
      this.wakeQueued = false;
      if (this.loopEnabled && !this.stopping) {
        this.arm().then(
          () => this.failures.succeeded(REARM),
          (err: unknown) => this.retrySoon(err, REARM),
        );
      }
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
          // What already waits in the outbox (retries, rows left behind) is older than what is
          // due now: it gets the room first.
          if (!this.pump.isCaughtUp) await this.pump.fill();
          await this.claimAll();
          // This read goes back for any retry written behind an earlier one (retryWrittenAt).
          this.unseenRetryAt = Number.POSITIVE_INFINITY;
          await this.pump.fill();
          await this.arm();
        } while (this.tickAgain && !this.stopping);
        this.failures.succeeded(TICK);
      } catch (err) {
        this.retrySoon(err, TICK);
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  /**
   * The database failed a tick or a re-arm (PostgreSQL restarting, SQLite locked by a backup): try
   * again in a second rather than at the safety net, and never let the error end the thread.
   */
  private retrySoon(err: unknown, what: string): void {
    if (this.stopping) return;
    this.failures.failed(what, err);
    this.setTimer(this.clock.now() + 1000);
  }

  /** Resolves when nothing is being claimed, read, sent or written. For tests and benchmarks. */
  async drain(timeoutMs = 30_000): Promise<void> {
    const until = this.clock.now() + timeoutMs;
    while (!this.idle()) {
      if (this.clock.now() > until) throw new Error('scheduler did not drain in time');
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, 2));
    }
  }

  /** tick() then drain(). */
  async runOnce(): Promise<void> {
    await this.tick();
    await this.drain();
  }

  idle(): boolean {
    return !this.ticking && this.pump.idle() && this.recorder.idle();
  }

  stats() {
    return { ...this.pump.stats(), pendingResults: this.recorder.pending, timerAt: this.timerAt };
  }

  async prune(): Promise<number> {
    const cutoff = new Date(this.clock.now() - this.options.retentionDays * 86_400_000).toISOString();
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
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    for (const c of this.crons) c.stop();
    if (this.leaseTimer) this.clock.clearTimeout(this.leaseTimer);
    this.leaseTimer = null;
    this.pump.halt();
    await Promise.allSettled([this.ticking]);
    await this.pump.stop(this.options.shutdownTimeoutMs);
    await this.recorder.stop();
    // What was not sent goes back to the outbox for any instance (this one's next start included).
    await releaseOwnerLeases(this.db, this.leaseOwner).catch((err: unknown) => this.log.warn({ err }, 'scheduler: giving back delivery leases failed (they expire)'));
  }

  // -------------------------------------------------------------------------------------------
  // Timer

  private async arm(): Promise<void> {
    if (!this.loopEnabled || this.stopping) return;
    const [fire, retry] = await Promise.all([nextReminderFire(this.db), nextDeliveryAttemptAfter(this.db, this.pump.seenUntilIso)]);
    let at = Number.POSITIVE_INFINITY;
    // Reminders waiting for room are claimed when the pump has room (onRoom), or at the probe.
    if (fire) at = Math.max(Date.parse(fire), this.claimsWaitUntil);
    if (retry) at = Math.min(at, Date.parse(retry));
    this.setTimer(Math.min(at, this.unseenRetryAt));
  }

  private setTimer(at: number): void {
    if (!this.loopEnabled || this.stopping) return;
    if (this.timer && this.timerAt === at) return;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = at;
    if (!Number.isFinite(at)) return;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Number.POSITIVE_INFINITY;
        void this.tick();
      },
      Math.max(at - this.clock.now(), 0),
      { background: true },
    );
  }

  // -------------------------------------------------------------------------------------------
  // Claiming

  private accept(claimed: ClaimResult): void {
    for (const s of claimed.lateness) this.metrics.lateness.observe(s);
    // Start sending this batch while the next one is claimed; what finds no room in memory
    // stays pending in the table for the outbox sweep.
    this.pump.acceptClaimed(claimed.rows, claimed.rows.length === claimed.deliveries);
  }

  /**
   * The probe: reads a page of due reminders from `probeOffset` on, claims those whose every
   * destination has room, and moves the offset past the ones it left (they stay due, ahead).
   */
  private async claimFitting(nowMs: number): Promise<void> {
    const nowIso = new Date(nowMs).toISOString();
    const ids = await selectDueReminderIds(this.db, nowIso, this.options.batchSize, this.probeOffset);
    const fitting = ids.length > 0 ? this.pump.pickFitting(ids, await listEnabledDestinations(this.db, ids)) : [];
    this.probeOffset = ids.length < this.options.batchSize ? 0 : this.probeOffset + ids.length - fitting.length;
    if (fitting.length === 0) return;
    this.accept(await this.claimer.claim(fitting.length, this.options.lateThresholdMs, (ms) => this.lease(ms), fitting));
  }

  /**
   * Claims what is due, as far as memory has room for it: a reminder left unclaimed waits in its
   * table, which costs nothing, while a delivery claimed without room would be written, released
   * and read back. When the room is gone the pump says when it is back (onRoom). When only some
   * keys are full (a slow host), a probe once per CLAIM_PROBE_MS looks further down the due
   * reminders and claims the ones whose destinations all have room, so reminders for other hosts
   * are not held behind that backlog.
   */
  private async claimAll(): Promise<void> {
    for (;;) {
      if (this.stopping) return;
      const now = this.clock.now();
      const room = this.pump.claimRoom();
      const limit = Math.min(this.options.batchSize, room.fullestKey);
      if (limit <= 0) {
        this.pump.wantRoom();
        if (now >= this.claimsWaitUntil) {
          this.claimsWaitUntil = now + CLAIM_PROBE_MS;
          if (room.total > 0) await this.claimFitting(now);
        }
        return;
      }
      const claimed = await this.claimer.claim(limit, this.options.lateThresholdMs, (nowMs) => this.lease(nowMs));
      this.accept(claimed);
      // Those came off the head of the due list, where the probe had skipped ahead.
      this.probeOffset = Math.max(0, this.probeOffset - claimed.reminders);
      if (claimed.reminders < limit) {
        this.claimsWaitUntil = 0;
        this.probeOffset = 0;
        return;
      }
      this.onBacklog?.();
      // Let sends and API requests in between batches of a burst.
      await nextTurn(this.clock);
    }
  }
}
