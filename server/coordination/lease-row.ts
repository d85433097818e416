import type { Executor } from '../repositories/executor.ts';
import { acquireLease, releaseLease } from '../repositories/leases.ts';
import { type LeaderLock, newLockOwner } from '../lib/leadership.ts';

/**
 * A row in the leases table that the holder renews every renewEvery, taken over once it expires.
 * Works on every database and behind connection poolers.
 */
export class LeaseRow implements LeaderLock {
  constructor(
    private readonly db: Executor,
    readonly name: string,
    private readonly ttlMs: number,
    readonly owner: string = newLockOwner(),
  ) {}

  hold(now: number): Promise<boolean> {
    return acquireLease(this.db, this.name, this.owner, new Date(now).toISOString(), new Date(now + this.ttlMs).toISOString());
  }

  async release(): Promise<void> {
    await releaseLease(this.db, this.name, this.owner);
  }

  abandon(): void {}

  watch(): void {}
}
