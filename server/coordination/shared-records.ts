import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../repositories/executor.ts';
import { deleteExpiredShortLivedRecords, deleteShortLivedRecord, findShortLivedRecord, insertShortLivedRecord, takeShortLivedRecord } from '../repositories/short-lived-records.ts';

/**
 * Short-lived, single-use server-side records keyed by a random value that only the browser holds
 * (in an HttpOnly cookie): Discord OAuth states and setup tickets. In the database, so the
 * instance that answers Discord's redirect need not be the one that started the sign-in, and a
 * restart does not break a sign-in in progress. Only the key's SHA-256 is stored.
 */
export class SharedRecordStore<T> {
  private lastSweep = 0;

  constructor(
    private readonly db: Executor,
    private readonly kind: string,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Stores `value` under a new random key and returns the key. */
  async create(value: T): Promise<string> {
    const now = this.clock();
    // Expired records are of no use; sweeping on writes (at most once a minute) keeps the table small.
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await deleteExpiredShortLivedRecords(this.db, new Date(now).toISOString());
    }
    const key = randomBytes(32).toString('base64url');
    await insertShortLivedRecord(this.db, { kind: this.kind, key_hash: hashKey(key), value: JSON.stringify(value), expires_at: new Date(now + this.ttlMs).toISOString() });
    return key;
  }

  async peek(key: string | undefined | null): Promise<T | null> {
    if (!key) return null;
    const value = await findShortLivedRecord(this.db, this.kind, hashKey(key), new Date(this.clock()).toISOString());
    return value === undefined ? null : (JSON.parse(value) as T);
  }

  /** Returns the value and forgets it: states and tickets are single-use, even across instances. */
  async take(key: string | undefined | null): Promise<T | null> {
    if (!key) return null;
    const value = await takeShortLivedRecord(this.db, this.kind, hashKey(key), new Date(this.clock()).toISOString());
    return value === undefined ? null : (JSON.parse(value) as T);
  }

  async delete(key: string | undefined | null): Promise<void> {
    if (key) await deleteShortLivedRecord(this.db, this.kind, hashKey(key));
  }
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
