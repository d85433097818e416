/**
 * Counts failed sign-ins per IP and per account in a sliding window. In memory: one process owns
 * its counters (a multi-instance deployment would move this to the database).
 */
export interface ThrottleLimits {
  maxFailuresPerAccount: number;
  maxFailuresPerIp: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { maxFailuresPerAccount: 5, maxFailuresPerIp: 20, windowMs: 15 * 60 * 1000 };

export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(private readonly limits: ThrottleLimits = DEFAULT_THROTTLE) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.limits.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Milliseconds until another attempt is allowed, or 0. */
  blockedFor(ip: string, account: string, now = Date.now()): number {
    const checks: Array<[string, number]> = [
      [`ip:${ip}`, this.limits.maxFailuresPerIp],
      [`acct:${account}`, this.limits.maxFailuresPerAccount],
    ];
    let wait = 0;
    for (const [key, max] of checks) {
      const list = this.recent(key, now);
      if (list.length >= max) wait = Math.max(wait, list[list.length - max]! + this.limits.windowMs - now);
    }
    return wait;
  }

  recordFailure(ip: string, account: string, now = Date.now()): void {
    for (const key of [`ip:${ip}`, `acct:${account}`]) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
    if (this.failures.size > 100_000) this.prune(now);
  }

  recordSuccess(account: string): void {
    this.failures.delete(`acct:${account}`);
  }

  private prune(now: number): void {
    for (const key of this.failures.keys()) this.recent(key, now);
  }
}
