/**
 * The Discord gateway spread over instances (docs/operations.md "Spreading the gateway's shards"):
 * one lease row per shard (`gateway:shard:<id>`), and one heartbeat row per live instance
 * (`gateway:instance:<owner>`), both in the leases table and renewed every renewEvery.
 *
 * Every round an instance renews its heartbeat, counts the heartbeats that have not expired (the
 * live instances, itself included), and holds at most its fair share, ceil(shards / live): it
 * renews the shards it holds, takes free or expired ones up to its share, and gives back the ones
 * above it (highest ids first) after closing their connections. So 4 shards over 2 instances are
 * 2 + 2; when one dies, its heartbeat and its shard leases expire (ttl, 20 s) and the other takes
 * them at its next round: within ttl + renewEvery (25 s). A new instance gets its share once the
 * others see its heartbeat and give shards back.
 *
 * Lease rows on both databases (not PostgreSQL's advisory lock): one connection per shard would be
 * too many, and a row expiring is what lets the live instances notice a dead one's shards.
 */
import type { Executor } from '../repositories/executor.ts';
import { acquireLease, countLiveLeases, deleteExpiredLeases, releaseLease } from '../repositories/leases.ts';
import { DEFAULT_LEASE_TIMING, type LeaseTiming, newLockOwner } from '../lib/leadership.ts';
import { SerialRounds } from '../lib/serial-rounds.ts';

export const shardLeaseName = (id: number): string => `gateway:shard:${id}`;
export const INSTANCE_HEARTBEAT_PREFIX = 'gateway:instance:';

export interface ShardHandlers {
  /**
   * The set of shards this instance holds changed (sorted, maybe empty). Resolves once the
   * connections of shards no longer in the set are closed: only then are their leases given back.
   */
  changed(shards: number[]): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export class ShardLeases {
  private held: number[] = [];
  private lastRenewedAt = 0;
  private readonly loop: SerialRounds;
  private roundsDone = 0;
  readonly owner: string;

  constructor(
    private readonly db: Executor,
    readonly shardCount: number,
    private readonly handlers: ShardHandlers,
    private readonly log: Log,
    private readonly timing: LeaseTiming = DEFAULT_LEASE_TIMING,
    owner: string = newLockOwner(),
    private readonly clock: () => number = Date.now,
  ) {
    this.owner = owner;
    this.loop = new SerialRounds(timing.renewEveryMs, () => this.round());
  }

  /** The shards this instance holds, sorted. */
  get shards(): number[] {
    return [...this.held];
  }

  /** How many rounds this instance has completed (renewals and attempts). */
  get rounds(): number {
    return this.roundsDone;
  }

  start(): void {
    this.loop.start();
  }

  /** Clean shutdown: closes the shards and frees their leases and the heartbeat at once. */
  async stop(): Promise<void> {
    this.loop.stop();
    await this.loop.idle();
    const had = this.held;
    await this.apply([]);
    for (const id of had) await releaseLease(this.db, shardLeaseName(id), this.owner).catch(() => {});
    await releaseLease(this.db, INSTANCE_HEARTBEAT_PREFIX + this.owner, this.owner).catch(() => {});
  }

  /** Stops renewing without giving anything back: what a crash looks like to the other instances. */
  halt(): void {
    this.loop.stop();
  }

  private async round(): Promise<void> {
    if (this.loop.stopped) return;
    const now = this.clock();
    const nowIso = new Date(now).toISOString();
    const until = new Date(now + this.timing.ttlMs).toISOString();
    let next: number[];
    let giveBack: number[];
    try {
      await acquireLease(this.db, INSTANCE_HEARTBEAT_PREFIX + this.owner, this.owner, nowIso, until);
      await deleteExpiredLeases(this.db, INSTANCE_HEARTBEAT_PREFIX, nowIso);
      const live = Math.max(1, await countLiveLeases(this.db, INSTANCE_HEARTBEAT_PREFIX, nowIso));
      const share = Math.ceil(this.shardCount / live);
      const kept: number[] = [];
      for (const id of this.held) if (await acquireLease(this.db, shardLeaseName(id), this.owner, nowIso, until)) kept.push(id);
      for (let id = 0; id < this.shardCount && kept.length < share; id += 1) {
        if (!kept.includes(id) && (await acquireLease(this.db, shardLeaseName(id), this.owner, nowIso, until))) kept.push(id);
      }
      kept.sort((x, y) => x - y);
      next = kept.slice(0, share);
      giveBack = kept.slice(share);
      this.lastRenewedAt = now;
      this.roundsDone += 1;
    } catch (err) {
      // Unknown: keep the shards while the last renewal still covers them, not a moment longer.
      if (this.held.length > 0 && now - this.lastRenewedAt >= this.timing.ttlMs - this.timing.renewEveryMs) {
        this.log.warn({ err, shards: this.held }, 'could not renew the shard leases; closing the shards');
        await this.apply([]);
      }
      return;
    }
    if (this.loop.stopped) return;
    await this.apply(next);
    for (const id of giveBack) await releaseLease(this.db, shardLeaseName(id), this.owner).catch(() => {});
  }

  private async apply(next: number[]): Promise<void> {
    const same = next.length === this.held.length && next.every((id, i) => id === this.held[i]);
    if (same) return;
    const lost = this.held.filter((id) => !next.includes(id));
    const taken = next.filter((id) => !this.held.includes(id));
    this.held = next;
    if (lost.length > 0) this.log.warn({ shards: lost, owner: this.owner }, 'gave up gateway shards');
    if (taken.length > 0) this.log.info({ shards: taken, owner: this.owner }, 'took gateway shards');
    try {
      await this.handlers.changed(next);
    } catch (err) {
      this.log.warn({ err, shards: next }, 'shard change handler failed');
    }
  }
}
