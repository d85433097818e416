import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { SerialRounds } from './serial-rounds.ts';

export interface LeaseTiming {
  /** How long a lease lasts without renewal: an instance that dies is replaced at most this long after its last renewal. */
  ttlMs: number;
  /** How often the holder renews and the others try to take over. */
  renewEveryMs: number;
}

/**
 * With the lease row (SQLite), the Discord gateway moves to another instance within ttl +
 * renewEvery (25 s) of its holder dying; with PostgreSQL's advisory lock, within renewEvery.
 */
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

/**
 * The stable name of an instance that sets no CHIME_INSTANCE_ID: its host and a hash of the
 * database it uses (a SQLite file by its absolute path) and the port it listens on. The same on
 * every start of the same deployment, so a restarted instance knows the delivery leases of its
 * earlier life as its own; two processes on one host and database listen on different ports, so
 * they never take each other's leases for their own (which would send deliveries twice).
 */
export function defaultInstanceId(databaseUrl: string, port: number, host: string = hostname()): string {
  const url = databaseUrl.trim();
  const where = /^postgres(ql)?:\/\//i.test(url) ? url : path.resolve(url.replace(/^sqlite:(\/\/)?/, ''));
  return `${host}-${createHash('sha256').update(`${where} ${port}`).digest('hex').slice(0, 8)}`;
}

const namesInUse = new Map<string, number>();

/**
 * Takes an instance name for an app of this process: `base`, or `base-2`, `base-3`... when
 * another app in the same process (tests) already holds it, so two never share leases. The same
 * app started again after release() gets `base` back. Answers the name and how to give it back.
 */
export function takeInstanceName(base: string): { name: string; release(): void } {
  let n = 1;
  while (namesInUse.has(n === 1 ? base : `${base}-${n}`)) n += 1;
  const name = n === 1 ? base : `${base}-${n}`;
  namesInUse.set(name, 1);
  return { name, release: () => void namesInUse.delete(name) };
}

/** The lease owner of one delivery thread of an instance: stable across restarts of both. */
export const deliveryLeaseOwner = (instance: string, threadIndex: number): string => `${instance}:t${threadIndex}`;

/** A name for this process that other instances can read in the leases table. */
export const instanceId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/** The owner a lock writes in the leases table: this process, and which of its locks. */
export const newLockOwner = (): string => `${instanceId}:${randomBytes(3).toString('hex')}`;

/** What decides which instance holds a job: a lease row (any database) or a PostgreSQL advisory lock. */
export interface LeaderLock {
  /** The name other instances and the logs know the job by. */
  readonly name: string;
  /** Who this instance is, as written in the leases table. */
  readonly owner: string;
  /**
   * Takes the lock or confirms this instance still holds it; answers whether it does. Throws only
   * when it cannot tell (the database is unreachable): the holder then keeps the job while its
   * last confirmation still covers it.
   */
  hold(now: number): Promise<boolean>;
  /** Gives the lock up at once (a clean shutdown). */
  release(): Promise<void>;
  /** Stops without giving the lock up, as a crash would. */
  abandon(): void;
  /** `onLost` runs as soon as the lock is known lost between two rounds (its connection dropped). */
  watch(onLost: () => void): void;
}

/**
 * Runs a job on exactly one instance among those sharing the database: each instance tries to
 * take the lock every renewEvery; the holder confirms it holds it. A holder that cannot confirm
 * (the database is unreachable) steps down before a lease row can have expired, so two holders
 * never overlap for longer than one renewal.
 */
export class Leadership {
  private leader = false;
  private lastRenewedAt = 0;
  private readonly loop: SerialRounds;
  private roundsAsked = 0;

  constructor(
    private readonly lock: LeaderLock,
    private readonly handlers: LeadershipHandlers,
    private readonly log: Log,
    private readonly timing: LeaseTiming = DEFAULT_LEASE_TIMING,
    private readonly clock: () => number = Date.now,
  ) {
    this.loop = new SerialRounds(timing.renewEveryMs, () => this.attempt());
    lock.watch(() => this.loop.enqueue(() => this.stepDown('lost the lock: its connection to the database dropped')));
  }

  get owner(): string {
    return this.lock.owner;
  }

  private get name(): string {
    return this.lock.name;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /** How many times this instance has asked the database for the lease (a renewal is one). */
  get rounds(): number {
    return this.roundsAsked;
  }

  start(): void {
    this.loop.start();
  }

  /** Clean shutdown: stops the job and frees the lease for another instance right away. */
  async stop(): Promise<void> {
    this.loop.stop();
    await this.loop.idle();
    if (this.leader) {
      this.leader = false;
      await this.handlers.lost();
    }
    await this.lock.release().catch(() => {});
  }

  /** Stops renewing without giving the lock up: what a crash looks like to the other instances. */
  halt(): void {
    this.loop.stop();
    this.lock.abandon();
  }

  private async stepDown(why: string): Promise<void> {
    if (!this.leader) return;
    this.leader = false;
    this.log.warn({ lease: this.name }, why);
    await this.safely(() => this.handlers.lost());
  }

  private async attempt(): Promise<void> {
    if (this.loop.stopped) return;
    const now = this.clock();
    let held: boolean;
    try {
      held = await this.lock.hold(now);
      this.roundsAsked += 1;
    } catch (err) {
      // Unknown: keep the job while the last renewal still covers us, not a moment longer.
      if (this.leader && now - this.lastRenewedAt >= this.timing.ttlMs - this.timing.renewEveryMs) {
        this.log.warn({ err, lease: this.name }, 'could not renew the lease; stepping down');
        this.leader = false;
        await this.safely(() => this.handlers.lost());
      }
      return;
    }
    if (this.loop.stopped) return;
    if (held) {
      this.lastRenewedAt = now;
      if (!this.leader) {
        this.leader = true;
        this.log.info({ lease: this.name, owner: this.owner }, 'took the lease');
        await this.safely(() => this.handlers.acquired());
      }
    } else {
      await this.stepDown('lost the lease to another instance');
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
