/**
 * The send pump: holds the deliveries being sent right now and sends them, round-robin over
 * concurrency keys (webhook host, "discord") so one slow host does not hold the others back. Two
 * keyed limiters bound it: what it holds in memory (maxBuffered overall, maxBufferedPerKey per key;
 * the rest waits in the outbox table) and what is in flight (concurrency, perHostConcurrency).
 *
 * States (server/scheduler/README.md draws them):
 *   idle             nothing held
 *   draining         holding deliveries and sending them; room for more
 *   waiting-for-room rows were left in the table (memory or a key was full): onRoom is called once
 *                    half a share is free again, and the state goes back to draining
 *   stopping         halt(): nothing new starts; in-flight sends get the grace period
 *   stopped
 */
import { setMaxListeners } from 'node:events';
import type { DestinationType } from '../db/database.ts';
import type { OutboxRow } from '../repositories/outbox.ts';
import type { Clock } from './clock.ts';
import { type DestinationInfo, DestinationInfoCache } from './destination-info.ts';
import { KeyedLimiter } from './keyed-limiter.ts';
import type { SchedulerOptions } from './options.ts';
import type { AttemptInput } from './result-recorder.ts';
import { attemptDelivery } from './send-attempt.ts';
import type { DestinationSender } from './types.ts';

export type PumpState = 'idle' | 'draining' | 'waiting-for-room' | 'stopping' | 'stopped';

export interface SendPumpDeps {
  clock: Clock;
  /** Read on every use: app.scheduler.setOptions() changes them at run time. */
  options: Pick<SchedulerOptions, 'concurrency' | 'perHostConcurrency' | 'maxBuffered' | 'maxBufferedPerKey'>;
  senderFor(type: DestinationType): DestinationSender | undefined;
  /** Every attempt that was made (not the ones abandoned at shutdown). */
  onResult(attempt: AttemptInput): void;
  /** Leaving waiting-for-room: there is room for the rows left in the table. */
  onRoom?(): void;
  log: { warn(obj: object, msg: string): void };
}

interface Job {
  row: OutboxRow;
  info: DestinationInfo;
}

export class SendPump {
  private current: PumpState = 'idle';
  /** Deliveries held (queued or in flight) and their key, until their result is written. */
  private readonly held = new Map<string, string>();
  private readonly buffer: KeyedLimiter;
  private readonly sending: KeyedLimiter;
  private readonly queues = new Map<string, Job[]>();
  /** Keys with a queued job and a free send slot, in turn order. */
  private readonly runnable = new Set<string>();
  private queued = 0;
  /** While waiting-for-room: memory was full, and the keys that were full, when rows were left. */
  private waitingOverall = false;
  private readonly waitingKeys = new Set<string>();
  private readonly disabledDestinations = new Set<string>();
  private readonly infoCache: DestinationInfoCache;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: SendPumpDeps) {
    // Every in-flight send listens for shutdown on this one signal.
    setMaxListeners(0, this.abort.signal);
    this.infoCache = new DestinationInfoCache((type) => deps.senderFor(type));
    this.buffer = new KeyedLimiter(() => ({ overall: deps.options.maxBuffered, perKey: deps.options.maxBufferedPerKey }));
    this.sending = new KeyedLimiter(() => ({ overall: deps.options.concurrency, perKey: deps.options.perHostConcurrency }));
  }

  get state(): PumpState {
    return this.current;
  }

  idle(): boolean {
    return this.held.size === 0 || this.current === 'stopped';
  }

  stats(): { active: number; queued: number; known: number } {
    return { active: this.sending.count(), queued: this.queued, known: this.held.size };
  }

  /** Deliveries this pump holds: their leases are renewed while they are here. */
  heldIds(): string[] {
    return [...this.held.keys()];
  }

  /** How many more deliveries memory takes now (the bound of the next claim). */
  room(): number {
    return this.current === 'stopping' || this.current === 'stopped' ? 0 : this.buffer.room();
  }

  /**
   * Keys whose share of memory is full, or that left rows in the table and wait for half a share:
   * a claim of outbox rows leaves theirs in the table.
   */
  fullKeys(): string[] {
    return [...new Set([...this.buffer.fullKeys(), ...this.waitingKeys])];
  }

  /** The concurrency key of a destination (written with each delivery, see the claimer). */
  keyOf(type: DestinationType, destinationId: string, metadataText: string, secret: string | null): string {
    return this.infoCache.of(type, destinationId, metadataText, secret).key;
  }

  /** The owner re-enabled this destination: rows already in memory may be sent to it again. */
  destinationEnabled(destinationId: string): void {
    this.disabledDestinations.delete(destinationId);
  }

  /** Senders changed: metadata keys and labels are computed again. */
  sendersChanged(): void {
    this.infoCache.clear();
  }

  /**
   * Queues claimed rows for sending, as far as memory has room for them. Answers the ids it did
   * not take (a full key, or memory full): the caller gives their leases back, they stay in the
   * outbox, and the pump waits for room.
   */
  accept(rows: readonly OutboxRow[]): string[] {
    const left: string[] = [];
    for (const row of rows) {
      if (this.held.has(row.id)) continue;
      const info = this.infoCache.of(row.destination_type, row.destination_id, row.metadata, row.secret);
      if (this.current === 'stopping' || this.current === 'stopped' || !this.buffer.tryTake(info.key)) {
        left.push(row.id);
        if (this.buffer.room() === 0) this.waitingOverall = true;
        else this.waitingKeys.add(info.key);
        continue;
      }
      this.held.set(row.id, info.key);
      let queue = this.queues.get(info.key);
      if (!queue) this.queues.set(info.key, (queue = []));
      queue.push({ row, info });
      this.queued += 1;
      if (this.sending.fits(info.key)) this.runnable.add(info.key);
    }
    this.settle();
    this.pump();
    return left;
  }

  /** The claimer found no room overall: call onRoom once there is. */
  wantRoom(): void {
    this.waitingOverall = true;
    this.settle();
  }

  /** Results of these deliveries are in the database: they leave memory (retries are claimed again). */
  release(deliveryIds: Iterable<string>): void {
    for (const id of deliveryIds) {
      const key = this.held.get(id);
      if (key === undefined) continue;
      this.held.delete(id);
      this.buffer.give(key);
    }
    this.settle();
  }

  /** Works out the state from what is held and waited for; leaving waiting-for-room calls onRoom. */
  private settle(): void {
    if (this.current === 'stopping' || this.current === 'stopped') return;
    const before = this.current;
    if (this.waitingOverall || this.waitingKeys.size > 0) {
      const { maxBuffered, maxBufferedPerKey } = this.deps.options;
      const enough = Math.max(1, Math.floor(Math.min(maxBuffered, maxBufferedPerKey) / 2));
      if (this.waitingOverall && this.buffer.room() >= enough) this.waitingOverall = false;
      for (const key of this.waitingKeys) if (this.buffer.count(key) <= maxBufferedPerKey - enough) this.waitingKeys.delete(key);
    }
    const waiting = this.waitingOverall || this.waitingKeys.size > 0;
    this.current = waiting ? 'waiting-for-room' : this.held.size > 0 ? 'draining' : 'idle';
    if (before === 'waiting-for-room' && !waiting) this.deps.onRoom?.();
  }

  /** Starts queued jobs, round-robin over keys, within the overall and per-key send limits. */
  private pump(): void {
    while (this.runnable.size > 0 && this.sending.room() > 0 && this.current !== 'stopping' && this.current !== 'stopped') {
      const key = this.runnable.values().next().value as string;
      this.runnable.delete(key);
      const queue = this.queues.get(key);
      const job = queue?.shift();
      if (!job || !this.sending.tryTake(key)) continue;
      if (queue!.length === 0) this.queues.delete(key);
      this.queued -= 1;
      // Back of the line: other keys get their turn before this one's next job.
      if (queue!.length > 0 && this.sending.fits(key)) this.runnable.add(key);
      const p = this.run(job).finally(() => {
        this.inFlight.delete(p);
        this.sending.give(key);
        if ((this.queues.get(key)?.length ?? 0) > 0 && this.sending.fits(key)) this.runnable.add(key);
        this.pump();
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
      this.release([row.id]);
      return;
    }
    // Later rows of the burst to a destination that is gone for good are not even tried.
    if (!result.ok && result.disableDestination) this.disabledDestinations.add(row.destination_id);
    this.deps.onResult({ row, platform: info.platform, attempt, startedMs, result });
  }

  /** First step of shutdown, synchronous: nothing new is taken or started from now on. */
  halt(): void {
    if (this.current !== 'stopped') this.current = 'stopping';
  }

  /**
   * Shutdown: nothing new starts; queued jobs leave memory (they stay pending in the table); in-flight
   * sends get `timeoutMs` to finish, then their signal aborts them (their rows are resent on start).
   */
  async stop(timeoutMs: number): Promise<void> {
    this.halt();
    for (const jobs of this.queues.values()) {
      for (const job of jobs) {
        this.held.delete(job.row.id);
        this.buffer.give(job.info.key);
      }
    }
    this.queues.clear();
    this.runnable.clear();
    this.queued = 0;
    if (this.inFlight.size > 0) {
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
    this.current = 'stopped';
  }
}
