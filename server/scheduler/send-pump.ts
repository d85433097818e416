/**
 * The send pump: holds the deliveries being sent right now (memory is bounded; the rest waits in
 * the outbox table), starts sends within the overall and per-key concurrency limits, round-robin
 * over keys so one slow host does not hold the others back, and pages through the outbox when
 * there is room. Each attempt's result goes to the result recorder.
 */
import { setMaxListeners } from 'node:events';
import type { DestinationType } from '../db/database.ts';
import type { EnabledDestinationRow } from '../repositories/due-reminders.ts';
import type { OutboxCursor, OutboxRow } from '../repositories/outbox.ts';
import type { Clock } from './clock.ts';
import type { SchedulerOptions } from './options.ts';
import type { AttemptInput } from './result-recorder.ts';
import { type DestinationInfo, DestinationInfoCache } from './destination-info.ts';
import { FailureLog } from './failure-log.ts';
import { attemptDelivery } from './send-attempt.ts';
import type { DestinationSender } from './types.ts';

export type OutboxStatus = 'pending' | 'retrying';

/** Logged once per streak of failed outbox reads (failure-log.ts). */
const READ_OUTBOX = 'scheduler: reading the outbox';

export interface SendPumpDeps {
  clock: Clock;
  /** Read on every use: app.scheduler.setOptions() changes them at run time. */
  options: Pick<SchedulerOptions, 'concurrency' | 'perHostConcurrency' | 'maxBuffered' | 'maxBufferedPerKey' | 'pageSize'>;
  /** One page of sendable deliveries after `cursor`, leased to this instance (claimOutboxPage). */
  loadPage(status: OutboxStatus, nowIso: string, cursor: OutboxCursor | null, limit: number): Promise<OutboxRow[]>;
  /** Gives back the leases of rows that found no room in memory: another instance may send them. */
  releaseLeases?(deliveryIds: string[]): void;
  senderFor(type: DestinationType): DestinationSender | undefined;
  /** Every attempt that was made (not the ones abandoned at shutdown). */
  onResult(attempt: AttemptInput): void;
  /** A full page was read: the outbox holds more than one page of sendable rows. */
  onBacklog?(): void;
  /** After wantRoom(): there is room for a claim again. */
  onRoom?(): void;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

interface Job {
  row: OutboxRow;
  info: DestinationInfo;
}

export class SendPump {
  private stopping = false;

  // Outbox reading
  /**
   * Per status, a position in (next_attempt_at, id) order: every delivery of that status before
   * it is in memory or done. Pending rows are created in that order (claim time, then a
   * time-ordered id); a retry is always scheduled after the retrying cursor.
   */
  private cursors: Record<OutboxStatus, OutboxCursor | null> = { pending: null, retrying: null };
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
  /** The claimer waits for room (wantRoom): total room, and this key's if it was the full one. */
  private roomWanted = false;
  private roomKey: string | null = null;

  // Sending
  /** Deliveries loaded and not yet written back: never loaded twice. */
  private readonly known = new Set<string>();
  private readonly queues = new Map<string, Job[]>();
  private readonly activeByKey = new Map<string, number>();
  private readonly runnable = new Set<string>();
  private active = 0;
  private queued = 0;
  private readonly disabledDestinations = new Set<string>();
  private readonly infoCache: DestinationInfoCache;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly failures: FailureLog;

  constructor(private readonly deps: SendPumpDeps) {
    // Every in-flight send listens for shutdown on this one signal.
    setMaxListeners(0, this.abort.signal);
    this.infoCache = new DestinationInfoCache((type) => deps.senderFor(type));
    this.failures = new FailureLog(deps.log, () => deps.clock.now());
  }

  /** Rows due up to this instant have been read from the outbox (the timer arms after it). */
  get seenUntilIso(): string {
    return this.lastFillIso;
  }

  idle(): boolean {
    return !this.filling && this.active === 0 && this.queued === 0;
  }

  stats(): { active: number; queued: number; known: number } {
    return { active: this.active, queued: this.queued, known: this.known.size };
  }

  /** The owner re-enabled this destination: rows already in memory may be sent to it again. */
  destinationEnabled(destinationId: string): void {
    this.disabledDestinations.delete(destinationId);
  }

  /** Senders changed: metadata keys and labels are computed again. */
  sendersChanged(): void {
    this.infoCache.clear();
  }

  /** The last outbox read reached its end and nothing was left behind since. */
  get isCaughtUp(): boolean {
    return this.caughtUp;
  }

  /**
   * How many deliveries a claim may bring without leaving any in the table: the room left overall,
   * and for the fullest key (a claim cannot tell which keys its rows will have). Claiming only
   * what fits spares every row the round trip of being released to the table and read back.
   */
  claimRoom(): { total: number; fullestKey: number } {
    const { maxBuffered, maxBufferedPerKey } = this.deps.options;
    const total = Math.max(0, maxBuffered - this.known.size);
    const [, load] = this.fullestKey();
    return { total, fullestKey: Math.max(0, Math.min(total, maxBufferedPerKey - load)) };
  }

  private fullestKey(): [string | null, number] {
    let key: string | null = null;
    let load = 0;
    for (const [k, queue] of this.queues) {
      const n = queue.length + (this.activeByKey.get(k) ?? 0);
      if (n > load) [key, load] = [k, n];
    }
    return [key, load];
  }

  private keyLoad(key: string): number {
    return (this.queues.get(key)?.length ?? 0) + (this.activeByKey.get(key) ?? 0);
  }

  /**
   * Of these due reminders, the ones whose every enabled destination has room now, counting the
   * ones picked before it (reminders without any enabled destination fit: a claim only moves them on).
   */
  pickFitting(reminderIds: string[], destinations: EnabledDestinationRow[]): string[] {
    const { maxBuffered, maxBufferedPerKey } = this.deps.options;
    const byReminder = new Map<string, EnabledDestinationRow[]>();
    for (const d of destinations) {
      const list = byReminder.get(d.reminder_id);
      if (list) list.push(d);
      else byReminder.set(d.reminder_id, [d]);
    }
    const extra = new Map<string, number>();
    let total = maxBuffered - this.known.size;
    const picked: string[] = [];
    for (const id of reminderIds) {
      const list = byReminder.get(id) ?? [];
      if (list.length > total) continue;
      const keys = list.map((d) => this.keyOf(d.type, d.id, d.metadata, d.secret));
      const fits = keys.every((key) => this.keyLoad(key) + (extra.get(key) ?? 0) + keys.filter((k) => k === key).length <= maxBufferedPerKey);
      if (!fits) continue;
      for (const key of keys) extra.set(key, (extra.get(key) ?? 0) + 1);
      total -= list.length;
      picked.push(id);
    }
    return picked;
  }

  /** The claimer found no room: call onRoom once half a key's share is free again. */
  wantRoom(): void {
    this.roomWanted = true;
    const [key, load] = this.fullestKey();
    this.roomKey = load >= this.deps.options.maxBufferedPerKey ? key : null;
  }

  private roomCameBack(): void {
    if (!this.roomWanted || this.stopping) return;
    const { maxBuffered, maxBufferedPerKey } = this.deps.options;
    const enough = Math.max(1, Math.floor(Math.min(maxBuffered, maxBufferedPerKey) / 2));
    if (maxBuffered - this.known.size < enough) return;
    if (this.roomKey !== null && this.keyLoad(this.roomKey) > maxBufferedPerKey - enough) return;
    this.roomWanted = false;
    this.roomKey = null;
    this.deps.onRoom?.();
  }

  /**
   * A retry due at `atIso` was written. The retrying sweep moves forward from its cursor, so when it
   * already passed that point it starts over (rows already in memory are not taken twice).
   */
  retryWrittenAt(atIso: string): void {
    const cursor = this.cursors.retrying;
    if (cursor && cursor.at >= atIso) this.cursors.retrying = null;
  }

  /** Next read starts from the beginning of the outbox (the safety net). */
  resetCursors(): void {
    this.cursors = { pending: null, retrying: null };
    this.caughtUp = false;
  }

  /**
   * Rows the claimer just wrote: queued at once, without reading them back. While the outbox
   * sweep is caught up they move its cursor too, so it never reads them again. `complete`: every
   * delivery the claim wrote is in `rows`; otherwise the sweep reads the rest.
   */
  acceptClaimed(rows: OutboxRow[], complete: boolean): void {
    let advance = this.caughtUp && !this.filling && complete;
    const noRoom: string[] = [];
    for (const row of rows) {
      if (this.offer(row)) {
        if (advance) this.cursors.pending = { at: row.next_attempt_at, id: row.id };
      } else {
        advance = false;
        noRoom.push(row.id);
      }
    }
    if (noRoom.length > 0) this.deps.releaseLeases?.(noRoom);
    if (!complete) {
      this.caughtUp = false;
      void this.fill();
    }
    this.pump();
  }

  /** Results of these deliveries are in the database: they may be read again (retries). */
  release(deliveryIds: Iterable<string>): void {
    for (const id of deliveryIds) this.known.delete(id);
    if (this.full && this.known.size < this.deps.options.maxBuffered / 2 && !this.stopping) {
      this.full = false;
      void this.fill();
    }
    this.roomCameBack();
  }

  /** Reads sendable deliveries from the outbox into memory, as far as there is room. */
  fill(): Promise<void> {
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
        this.failures.succeeded(READ_OUTBOX);
      } catch (err) {
        if (!this.stopping) this.failures.failed(READ_OUTBOX, err);
        // Do not let the timer spin on rows this failed read should have taken; the safety net sweeps again.
        this.lastFillIso = new Date(this.deps.clock.now()).toISOString();
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
    const { options } = this.deps;
    const nowIso = new Date(this.deps.clock.now()).toISOString();
    const leftBehindAtStart = this.leftBehind;
    for (const status of ['pending', 'retrying'] as const) {
      let cursor = this.cursors[status];
      let held: OutboxCursor | null | undefined;
      let reachedEnd = false;
      for (;;) {
        if (this.stopping) return;
        if (this.known.size >= options.maxBuffered) {
          this.full = true;
          break;
        }
        const page = await this.deps.loadPage(status, nowIso, cursor, options.pageSize);
        const noRoom: string[] = [];
        for (const row of page) {
          if (!this.offer(row)) {
            noRoom.push(row.id);
            if (held === undefined) held = cursor;
          }
          cursor = { at: row.next_attempt_at, id: row.id };
        }
        if (noRoom.length > 0) this.deps.releaseLeases?.(noRoom);
        if (page.length < options.pageSize) {
          reachedEnd = true;
          break;
        }
        this.deps.onBacklog?.();
        // One page past a held row, for other hosts; the rest waits until there is room again.
        if (held !== undefined) break;
      }
      this.cursors[status] = held !== undefined ? held : cursor;
      if (status === 'pending') this.caughtUp = reachedEnd && held === undefined && this.leftBehind === leftBehindAtStart;
    }
    this.lastFillIso = nowIso;
    this.pump();
  }

  /** Queues a row for sending; false when there is no room for it now (it stays in the table). */
  offer(row: OutboxRow): boolean {
    if (this.known.has(row.id)) return true;
    const { options } = this.deps;
    const info = this.destinationInfo(row);
    const key = info.key;
    let queue = this.queues.get(key);
    if (this.known.size >= options.maxBuffered) {
      this.full = true;
      this.leftBehind += 1;
      this.caughtUp = false;
      return false;
    }
    if ((queue?.length ?? 0) + (this.activeByKey.get(key) ?? 0) >= options.maxBufferedPerKey) {
      this.saturated.add(key);
      this.leftBehind += 1;
      this.caughtUp = false;
      return false;
    }
    if (!queue) {
      queue = [];
      this.queues.set(key, queue);
    }
    queue.push({ row, info });
    this.known.add(row.id);
    this.queued += 1;
    if ((this.activeByKey.get(key) ?? 0) < options.perHostConcurrency) this.runnable.add(key);
    return true;
  }

  private destinationInfo(row: OutboxRow): DestinationInfo {
    return this.infoCache.of(row.destination_type, row.destination_id, row.metadata, row.secret);
  }

  private keyOf(type: DestinationType, destinationId: string, metadataText: string, secret: string | null): string {
    return this.infoCache.of(type, destinationId, metadataText, secret).key;
  }

  /** Rows were left in the table for lack of room and room came back: read on. */
  private refillIfRoom(key: string): void {
    if (this.stopping) return;
    const { options } = this.deps;
    if (this.saturated.has(key) && (this.queues.get(key)?.length ?? 0) < options.maxBufferedPerKey / 2) {
      this.saturated.delete(key);
      void this.fill();
    } else if (this.full && this.known.size < options.maxBuffered / 2) {
      this.full = false;
      void this.fill();
    }
  }

  /** Starts queued jobs, round-robin over keys, within the overall and per-key limits. */
  pump(): void {
    const { options } = this.deps;
    while (this.active < options.concurrency && this.runnable.size > 0 && !this.stopping) {
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
      // Back of the line: other keys get their turn before this one's next job.
      if (queue!.length > 0 && activeForKey < options.perHostConcurrency) this.runnable.add(key);
      const p = this.run(job).finally(() => {
        this.inFlight.delete(p);
        this.active -= 1;
        const left = (this.activeByKey.get(key) ?? 1) - 1;
        if (left === 0) this.activeByKey.delete(key);
        else this.activeByKey.set(key, left);
        if ((this.queues.get(key)?.length ?? 0) > 0 && left < this.deps.options.perHostConcurrency) this.runnable.add(key);
        this.pump();
        this.refillIfRoom(key);
        this.roomCameBack();
      });
      this.inFlight.add(p);
    }
  }

  private async run(job: Job): Promise<void> {
    const { row, info } = job;
    const attempt = row.attempts + 1;
    const startedMs = this.deps.clock.now();
    const result = await attemptDelivery({
      row,
      info,
      sender: this.deps.senderFor(row.destination_type),
      attempt,
      startedMs,
      destinationDisabled: this.disabledDestinations.has(row.destination_id),
      signal: this.abort.signal,
    });
    if (!result.ok && this.abort.signal.aborted) {
      // Abandoned at shutdown: not an attempt; the row stays as it was and is resent on start.
      this.known.delete(row.id);
      return;
    }
    // Later rows of the burst to a destination that is gone for good are not even tried.
    if (!result.ok && result.disableDestination) this.disabledDestinations.add(row.destination_id);
    this.deps.onResult({ row, platform: info.platform, attempt, startedMs, result });
  }

  /** First step of shutdown, synchronous: nothing new is read or started from now on. */
  halt(): void {
    this.stopping = true;
  }

  /**
   * Shutdown: nothing new starts; queued jobs stay pending in the table; in-flight sends get
   * `timeoutMs` to finish, then their signal aborts them (their rows are resent on start).
   */
  async stop(timeoutMs: number): Promise<void> {
    this.halt();
    await Promise.allSettled([this.filling]);
    for (const jobs of this.queues.values()) for (const job of jobs) this.known.delete(job.row.id);
    this.queues.clear();
    this.runnable.clear();
    this.queued = 0;
    if (this.inFlight.size === 0) return;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = this.deps.clock.setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.inFlight]), timedOut]);
    if (timer) this.deps.clock.clearTimeout(timer);
    if (this.inFlight.size > 0) {
      this.deps.log.warn({ inFlight: this.inFlight.size }, 'scheduler: abandoning in-flight deliveries at shutdown; they will be resent on start');
      this.abort.abort();
      await Promise.allSettled([...this.inFlight]);
    }
  }
}
