/**
 * A plain keyed counter with two ceilings: one overall, one per key. The send pump keeps two: one
 * for what it holds in memory (maxBuffered, maxBufferedPerKey) and one for sends in flight
 * (concurrency, perHostConcurrency). Limits are read on every use, so they can change at run time.
 */
export interface Limits {
  overall: number;
  perKey: number;
}

export class KeyedLimiter {
  private readonly byKey = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: () => Limits) {}

  /** Units taken overall, or for one key. */
  count(key?: string): number {
    return key === undefined ? this.total : (this.byKey.get(key) ?? 0);
  }

  /** Whether one more unit for `key` stays within both ceilings. */
  fits(key: string): boolean {
    const { overall, perKey } = this.limits();
    return this.total < overall && this.count(key) < perKey;
  }

  /** Takes one unit for `key` when it fits; answers whether it did. */
  tryTake(key: string): boolean {
    if (!this.fits(key)) return false;
    this.byKey.set(key, this.count(key) + 1);
    this.total += 1;
    return true;
  }

  /** Gives one unit of `key` back. */
  give(key: string): void {
    const left = this.count(key) - 1;
    if (left < 0) return;
    if (left === 0) this.byKey.delete(key);
    else this.byKey.set(key, left);
    this.total -= 1;
  }

  /** Units still free overall. */
  room(): number {
    return Math.max(0, this.limits().overall - this.total);
  }

  /** Keys at their ceiling. */
  fullKeys(): string[] {
    const { perKey } = this.limits();
    const out: string[] = [];
    for (const [key, n] of this.byKey) if (n >= perKey) out.push(key);
    return out;
  }
}
