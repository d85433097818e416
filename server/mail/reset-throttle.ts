/**
 * Counters of password-reset requests per email and per network (config.resetThrottle): fixed
 * windows in memory, bounded (windows that ended are dropped first, then the oldest). A reset
 * request costs a mail, so the caps are low: 3 per email and 10 per network an hour by default.
 */
import type { ResetThrottlePolicy } from '../config.ts';
import { networkOf } from '../lib/login-throttle.ts';

const MAX_KEYS = 50_000;

export class ResetThrottle {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly policy: ResetThrottlePolicy,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Counts one request from `ip` for `email` (normalized); answers null when allowed, else the
   * milliseconds until it would be. The network is checked first so one client spraying
   * addresses is stopped before it reaches their counters.
   */
  hit(email: string, ip: string): number | null {
    const now = this.clock();
    return this.count(`n\u0000${networkOf(ip)}`, this.policy.perNetwork, now) ?? this.count(`e\u0000${email}`, this.policy.perEmail, now);
  }

  private count(key: string, limit: number, now: number): number | null {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      this.windows.delete(key);
      w = { count: 0, resetAt: now + this.policy.windowMs };
      this.windows.set(key, w);
      if (this.windows.size > MAX_KEYS) this.prune(now);
    }
    w.count += 1;
    return w.count > limit ? w.resetAt - now : null;
  }

  private prune(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size <= MAX_KEYS * 0.9) break;
      this.windows.delete(k);
    }
  }
}
