import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Executor } from '../repositories/executor.ts';
import { acquireLease, releaseLease } from '../repositories/leases.ts';

export interface LeaseTiming {
  /** How long a lease lasts without renewal: an instance that dies is replaced at most this long after its last renewal. */
  ttlMs: number;
  /** How often the holder renews and the others try to take over. */
  renewEveryMs: number;
}

/** The Discord gateway moves to another instance within ttl + renewEvery (25 s) of its holder dying. */
export const DEFAULT_LEASE_TIMING: LeaseTiming = { ttlMs: 20_000, renewEveryMs: 5_000 };

export interface LeadershipHandlers {
  /** This instance now holds the lease: start the job. */
  acquired(): void | Promise<void>;
  /** It lost the lease (or stops): stop the job at once, another instance may start it. */
  lost(): void | Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A name for this process that other instances can read in the leases table. */
export const instanceId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * Runs a job on exactly one instance among those sharing the database: each instance tries to
 * take a named lease every renewEvery; the holder renews it. A holder that cannot renew (the
 * database is unreachable) steps down before its lease can have expired, so two holders never
 * overlap for longer than one renewal.
 */
export class Leadership {
  private timer: NodeJS.Timeout | null = null;
  private leader = false;
  private lastRenewedAt = 0;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly db: Executor,
    private readonly name: string,
    private readonly handlers: LeadershipHandlers,
    private readonly log: Log,
    private readonly timing: LeaseTiming = DEFAULT_LEASE_TIMING,
    readonly owner: string = `${instanceId}:${randomBytes(3).toString('hex')}`,
    private readonly clock: () => number = Date.now,
  ) {}

  get isLeader(): boolean {
    return this.leader;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    const tick = () => {
      this.running = this.running.then(() => this.attempt());
    };
    tick();
    this.timer = setInterval(tick, this.timing.renewEveryMs);
    this.timer.unref();
  }

  /** Clean shutdown: stops the job and frees the lease for another instance right away. */
  async stop(): Promise<void> {
    this.halt();
    await this.running;
    if (this.leader) {
      this.leader = false;
      await this.handlers.lost();
    }
    await releaseLease(this.db, this.name, this.owner).catch(() => {});
  }

  /** Stops renewing without giving the lease up: what a crash looks like to the other instances. */
  halt(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    const now = this.clock();
    let held: boolean;
    try {
      held = await acquireLease(this.db, this.name, this.owner, new Date(now).toISOString(), new Date(now + this.timing.ttlMs).toISOString());
    } catch (err) {
      // Unknown: keep the job while the last renewal still covers us, not a moment longer.
      if (this.leader && now - this.lastRenewedAt >= this.timing.ttlMs - this.timing.renewEveryMs) {
        this.log.warn({ err, lease: this.name }, 'could not renew the lease; stepping down');
        this.leader = false;
        await this.safely(() => this.handlers.lost());
      }
      return;
    }
    if (this.stopped) return;
    if (held) {
      this.lastRenewedAt = now;
      if (!this.leader) {
        this.leader = true;
        this.log.info({ lease: this.name, owner: this.owner }, 'took the lease');
        await this.safely(() => this.handlers.acquired());
      }
    } else if (this.leader) {
      this.leader = false;
      this.log.warn({ lease: this.name }, 'lost the lease to another instance');
      await this.safely(() => this.handlers.lost());
    }
  }

  private async safely(fn: () => void | Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.log.warn({ err, lease: this.name }, 'lease handler failed');
    }
  }
}
