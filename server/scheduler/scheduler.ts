import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/connection.ts';
import type { DestinationType } from '../db/database.ts';
import { randomBytes } from 'node:crypto';
import { instanceId } from '../lib/leadership.ts';
import { writeAttemptResults } from '../repositories/attempt-results.ts';
import { pruneDeliveryLog } from '../repositories/delivery-retention.ts';
import { deleteEmailSendsBefore } from '../repositories/email.ts';
import { nextReminderFire } from '../repositories/due-reminders.ts';
import { claimDueDeliveries, type DeliveryLease, hasExpiredLeases, nextClaimableAttempt, recoverOutbox, releaseDeliveryLeases, releaseOwnerLeases, renewDeliveryLeases } from '../repositories/outbox.ts';
import type { OutboxRow } from '../repositories/outbox.ts';
import { Claimer } from './claimer.ts';
import { type Clock, nextTurn, systemClock, type TimerHandle } from './clock.ts';
import { stopFailingDestinations } from './failing-destinations.ts';
import { FailureLog } from './failure-log.ts';
import type { SchedulerMetrics } from './metrics.ts';
import type { WakeHint } from './wake-hint.ts';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from './options.ts';
import { ResultRecorder } from './result-recorder.ts';
import { SendPump } from './send-pump.ts';
import type { DestinationSender } from './types.ts';

export { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from './options.ts';

/**
 * The first claim of a tick takes at most this many reminders, and each next one four times more
 * (up to batchSize): the first sends of a burst start after a small transaction, not a large one.
 * A claim runs on the delivery thread's event loop (SQLite answers synchronously), so sends in
 * flight wait for it: batchSize keeps each one short.
 */
const FIRST_BATCH = 50;
/**
 * A backlog that lasts this long asks for help (onBacklog: worker/pool.ts starts the helper
 * threads). A thread takes over a second of CPU to start, so on two cores an earlier helper slows
 * a burst of a few thousand down (2,000 to one host: p99 1.28 s with one, 0.96 s without, in one
 * run of bench/scheduler-same-instant.ts); a burst still going after this long is worth sharing.
 */
const BACKLOG_HELP_AFTER_MS = 1500;
/** After a tick that could claim nothing of what is due (rows locked elsewhere), look again this much later. */
const UNCLAIMABLE_RETRY_MS = 1000;
/** What retrySoon logs (server/scheduler/failure-log.ts: once per streak, then once a minute). */
const TICK = 'scheduler tick';
const REARM = 'scheduler: re-arming';
const START = 'scheduler: taking back the deliveries of an earlier life';
/** How soon a start the database failed tries again. */
const START_RETRY_MS = 1000;

/**
 * The scheduler wires its parts to one timer (server/scheduler/README.md draws the flow). The
 * database is the only source of truth (reminders.next_fire_utc, the deliveries outbox); memory
 * only holds what is being sent right now.
 *
 *  tick  = claim due outbox rows (one statement) + claim due reminders (the claimer: planning and
 *          outbox rows in one transaction), as far as the pump has room -> the pump sends -> re-arm
 *  timer = one timeout at the earliest instant something becomes claimable (a reminder's fire, a
 *          delivery's next attempt), re-armed by wake() and after each tick
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
  /** Counts arm() calls: only the latest one sets the timer (see arm). */
  private armSeq = 0;
  /** arm() calls under way. */
  private arming = 0;
  private crons: Cron[] = [];
  private wakeQueued = false;
  private ticking: Promise<void> | null = null;
  private tickAgain = false;
  /** The last tick found due work it could not claim: the timer does not spin on it. */
  private claimedNothingDue = false;
  /** Counts wake() calls: a claim that began before one cannot say nothing claimable is due. */
  private wakes = 0;
  /** Since when more has been due than the claims took (null: the last claim took all). */
  private backlogSince: number | null = null;
  private leaseTimer: TimerHandle | null = null;
  /** Called when more has been due than the claims take for BACKLOG_HELP_AFTER_MS (worker/pool.ts may start more threads). */
  onBacklog: (() => void) | null = null;
  /** Who holds the leases on the deliveries this scheduler sends (options.leaseOwner). */
  readonly leaseOwner: string;

  constructor(
    private readonly db: DB,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: SchedulerMetrics,
    options: Partial<SchedulerOptions> = {},
    private readonly clock: Clock = systemClock,
  ) {
    this.options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
    this.leaseOwner = this.options.leaseOwner || `${instanceId}:${randomBytes(3).toString('hex')}:t0`;
    this.failures = new FailureLog(log, () => clock.now(), () => metrics.databaseErrors.inc());
    this.recorder = new ResultRecorder({
      clock,
      options: this.options,
      write: async (records) => {
        const started = performance.now();
        await writeAttemptResults(db, records);
        await stopFailingDestinations(db, records);
        this.trace('write', started, { n: records.length });
      },
      onWritten: (batch) => {
        this.pump.release(batch.map((r) => r.deliveryId));
        // A retry is claimed from the table when it is due: the timer must know of it.
        if (batch.some((r) => r.outcome === 'retrying')) this.wake();
      },
      metrics,
      log,
    });
    this.pump = new SendPump({
      clock,
      options: this.options,
      senderFor: (type) => this.senders.get(type),
      onResult: (attempt) => this.recorder.record(attempt),
      onRoom: () => void this.tick(),
      log,
    });
    this.claimer = new Claimer(db, clock, (type, id, metadata, secret) => this.pump.keyOf(type, id, metadata, secret));
  }

  /** One line of the burst trace (options.trace): the step, when it ended, how long it took. */
  private trace(step: string, startedAt: number, fields: Record<string, number> = {}): void {
    if (!this.options.trace) return;
    this.log.info({ trace: step, at: Date.now(), ms: Math.round((performance.now() - startedAt) * 10) / 10, ...fields }, 'scheduler trace');
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
   * Every third of a lease's life: renews the leases of the deliveries in memory, and claims again
   * when another instance's leases ran out (it died mid-send).
   */
  private renewLeasesLater(): void {
    if (this.stopping) return;
    this.leaseTimer = this.clock.setTimeout(
      () => {
        const now = this.clock.now();
        renewDeliveryLeases(this.db, this.pump.heldIds(), this.lease(now))
          .then(() => hasExpiredLeases(this.db, new Date(now).toISOString()))
          .then((expired) => {
            if (!expired || this.stopping) return;
            this.log.info({}, 'scheduler: taking over deliveries whose lease expired');
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

  /**
   * Starts the loop: the lease renewals, the safety net and pruning, then takes back what this
   * instance's earlier life left (see takeBackEarlierLife) and ticks. Never rejects: a database
   * that fails now (PostgreSQL restarting or out of connections, SQLite locked by a backup) delays
   * the loop by the retries, and must not leave an instance that never delivers.
   */
  async start(): Promise<void> {
    if (this.loopEnabled || this.stopping) return;
    this.loopEnabled = true;
    this.renewLeasesLater();
    this.crons.push(new Cron(this.options.safetyNetCron, { protect: true, unref: true }, () => void this.tick()));
    if (this.options.pruneLog) {
      this.crons.push(new Cron(this.options.pruneCron, { protect: true, unref: true }, () => void this.prune()));
      void this.prune();
    }
    await this.takeBackEarlierLife();
  }

  /**
   * Takes back the leases of this instance's earlier life (it died or was killed with them; its
   * owner name is stable), so they are sent now rather than when they expire, and recovers
   * unfinished deliveries; then ticks. While the database fails it, a tick each second sends what
   * it can and the clean-up is tried again.
   */
  private async takeBackEarlierLife(): Promise<void> {
    while (!this.stopping) {
      try {
        await releaseOwnerLeases(this.db, this.leaseOwner);
        const recovered = await recoverOutbox(this.db, new Date(this.clock.now()).toISOString());
        if (recovered) this.log.info({ recovered }, 'scheduler: recovered unfinished deliveries');
        this.failures.succeeded(START);
        void this.tick();
        return;
      } catch (err) {
        if (this.stopping) return;
        this.failures.failed(START, err);
        void this.tick();
        await new Promise<void>((resolve) => this.clock.setTimeout(resolve, START_RETRY_MS, { background: true }));
      }
    }
  }

  /** The owner re-enabled a destination the pump had stopped sending to in this burst. */
  destinationEnabled(destinationId: string): void {
    this.pump.destinationEnabled(destinationId);
  }

  /**
   * Re-arm the timer after reminders changed; calls in the same tick collapse into one. A write
   * that says what it changed (WakeHint) costs no query while the timer reflects the table: under
   * API load each write would otherwise read the table again (four statements on PostgreSQL).
   */
  wake(hint?: WakeHint): void {
    if (hint !== undefined && this.timerReflectsTable()) {
      this.wakes++;
      if (hint === null) return;
      // Claimed prepareAheadMs before it is due, like arm() does.
      const at = Math.max(hint - this.options.prepareAheadMs, this.clock.now());
      if (at < this.timerAt) {
        this.claimedNothingDue = false;
        this.setTimer(at);
      }
      return;
    }
    if (this.wakeQueued || this.stopping) return;
    this.wakeQueued = true;
    this.clock.setImmediate(() => {
      this.wakeQueued = false;
      this.wakes++;
      if (this.loopEnabled && !this.stopping) {
        this.claimedNothingDue = false;
        this.arm().then(
          () => this.failures.succeeded(REARM),
          (err: unknown) => this.retrySoon(err, REARM),
        );
      }
    });
  }

  /**
   * Whether the timer stands at the earliest claimable instant as last read from the table: no
   * claim, no re-arm and no wake under way, and room to claim into.
   */
  private timerReflectsTable(): boolean {
    return this.loopEnabled && !this.stopping && !this.ticking && this.arming === 0 && !this.wakeQueued && this.pump.room() > 0;
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
          await this.claimDue();
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

  /** Resolves when nothing is being claimed, sent or written. For tests and benchmarks. */
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
      // The mail send log only counts toward the hourly cap (server/mail/service.ts): a day is plenty.
      await deleteEmailSendsBefore(this.db, new Date(this.clock.now() - 86_400_000).toISOString());
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

  /**
   * Arms the timer for the earliest instant something becomes claimable. With memory full it
   * waits for the pump's onRoom instead; the rows of full keys are left to the pump's onRoom too.
   */
  private async arm(): Promise<void> {
    if (!this.loopEnabled || this.stopping) return;
    this.arming++;
    try {
      await this.armFromTable();
    } finally {
      this.arming--;
    }
  }

  private async armFromTable(): Promise<void> {
    // A tick's arm and wake()'s arm can overlap. The one that started last read the table last:
    // an earlier one that answers later must not put back a timer from before a reminder was
    // added (the reminder would wait for the 30 s safety net).
    const seq = ++this.armSeq;
    if (this.pump.room() === 0) {
      this.pump.wantRoom();
      this.setTimer(Number.POSITIVE_INFINITY);
      return;
    }
    const [fire, attempt] = await Promise.all([nextReminderFire(this.db), nextClaimableAttempt(this.db, this.pump.fullKeys())]);
    if (seq !== this.armSeq) return;
    // A reminder is claimed prepareAheadMs before it is due; its deliveries then wait in the outbox.
    let at = Math.min(fire ? Date.parse(fire) - this.options.prepareAheadMs : Number.POSITIVE_INFINITY, attempt ? Date.parse(attempt) : Number.POSITIVE_INFINITY);
    const now = this.clock.now();
    if (at <= now && this.claimedNothingDue) at = now + UNCLAIMABLE_RETRY_MS;
    this.setTimer(at);
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
        // Node counts a timeout from the event loop's cached time, which lags the wall clock by
        // however long the current turn has run: it can fire a few milliseconds before `at`. A
        // claim then would find nothing due yet and wait UNCLAIMABLE_RETRY_MS; wait the rest instead.
        if (this.clock.now() < at) return this.setTimer(at);
        this.trace('timer', performance.now(), { late_ms: this.clock.now() - at });
        void this.tick();
      },
      Math.max(at - this.clock.now(), 0),
      { background: true },
    );
  }

  // -------------------------------------------------------------------------------------------
  // Claiming

  /** Hands claimed rows to the pump; the ones it has no room for go back to the table at once. */
  private async hand(rows: OutboxRow[]): Promise<number> {
    const left = this.pump.accept(rows);
    if (left.length > 0) await releaseDeliveryLeases(this.db, left, this.leaseOwner);
    return rows.length - left.length;
  }

  /** More is due than the claims take: after BACKLOG_HELP_AFTER_MS of it, ask for help (onBacklog). */
  private noteBacklog(now: number): void {
    this.backlogSince ??= now;
    if (now - this.backlogSince >= BACKLOG_HELP_AFTER_MS) this.onBacklog?.();
  }

  /**
   * Claims what is due, as far as memory has room: first the outbox (retries, rows another
   * instance left, rows a full key left behind: older than what fires now), then due reminders.
   * Deliveries of a key whose share of memory is full go to the table unleased and wait there for
   * room; a claim whose every row went there ends the round, so one host's backlog is not copied
   * from reminders to the outbox all at once.
   */
  private async claimDue(): Promise<void> {
    const wakesBefore = this.wakes;
    let claimedAny = false;
    let dueLeft = false;
    let batch = Math.min(FIRST_BATCH, this.options.batchSize);
    // Pages grow like batches: at a burst's instant the first sends leave after a small page.
    let page = Math.min(FIRST_BATCH, this.options.pageSize);
    for (;;) {
      if (this.stopping) return;
      let room = this.pump.room();
      if (room === 0) break;
      const outboxLimit = Math.min(page, room);
      page = Math.min(page * 4, this.options.pageSize);
      const now = this.clock.now();
      let started = performance.now();
      const lateBefore = new Date(now - this.options.lateThresholdMs).toISOString();
      // The lease and the read of what to send are one transaction: a read that fails (a table
      // locked by an administrator past lock_timeout) must not leave rows leased to nobody
      // sending them until the lease runs out.
      const outbox = await this.db
        .transaction()
        .setIsolationLevel('read committed')
        .execute((trx) => claimDueDeliveries(trx, new Date(now).toISOString(), outboxLimit, this.lease(now), this.pump.fullKeys(), lateBefore));
      this.trace('claim-outbox', started, { n: outbox.length });
      for (const row of outbox) if (row.attempts === 0) this.metrics.lateness.observe(Math.max(0, (now - Date.parse(row.next_attempt_at)) / 1000));
      const fromOutbox = await this.hand(outbox);
      claimedAny ||= outbox.length > 0;
      room = this.pump.room();
      if (room === 0) {
        // Memory is full and the outbox may hold more (deliveries prepared ahead wait there): a
        // backlog as much as reminders left due.
        if (outbox.length === outboxLimit) this.noteBacklog(now);
        break;
      }
      const reminderLimit = Math.min(batch, room);
      batch = Math.min(batch * 4, this.options.batchSize);
      started = performance.now();
      const claimed = await this.claimer.claim(reminderLimit, this.options.lateThresholdMs, (nowMs) => this.lease(nowMs), this.options.prepareAheadMs);
      this.trace('claim-reminders', started, { reminders: claimed.reminders, rows: claimed.rows.length, prepared: claimed.prepared });
      for (const s of claimed.lateness) this.metrics.lateness.observe(s);
      started = performance.now();
      const fromReminders = await this.hand(claimed.rows);
      this.trace('handed', started, { n: fromReminders });
      claimedAny ||= outbox.length + claimed.reminders > 0;
      // Rows the claim wrote but could not list (a conflict) are claimed from the outbox next round.
      const incomplete = claimed.rows.length < claimed.deliveries - claimed.prepared;
      const more = outbox.length === outboxLimit || claimed.reminders >= reminderLimit || incomplete;
      if (!more) {
        this.backlogSince = null;
        break;
      }
      this.noteBacklog(now);
      if (fromOutbox + fromReminders + claimed.prepared === 0 && !incomplete) {
        dueLeft = true;
        break;
      }
      // Let sends and API requests in between batches of a burst.
      await nextTurn(this.clock);
    }
    // A reminder written during the claim (its wake() came meanwhile) may be due and unclaimed.
    this.claimedNothingDue = (!claimedAny || dueLeft) && this.wakes === wakesBefore;
  }
}
