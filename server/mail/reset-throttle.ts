/**
 * Counters of password-reset requests per email and per network (config.resetThrottle): fixed
 * windows in the database (rate_windows, hashed keys), so every instance behind one load balancer
 * counts against the same caps and a restart does not reset them. A reset request costs a mail,
 * so the caps are low: 3 per email and 10 per network an hour by default.
 */
import type { ResetThrottlePolicy } from '../config.ts';
import { networkOf } from '../accounts/login-throttle.ts';
import { RateWindow } from '../coordination/rate-window.ts';
import type { Executor } from '../repositories/executor.ts';

export class ResetThrottle {
  private readonly perNetwork: RateWindow;
  private readonly perEmail: RateWindow;

  constructor(db: Executor, policy: ResetThrottlePolicy, clock: () => number = Date.now) {
    this.perNetwork = new RateWindow(db, 'reset_network', policy.perNetwork, policy.windowMs, clock);
    this.perEmail = new RateWindow(db, 'reset_email', policy.perEmail, policy.windowMs, clock);
  }

  /**
   * Counts one request from `ip` for `email` (normalized); answers null when allowed, else the
   * milliseconds until it would be. The network is checked first so one client spraying
   * addresses is stopped before it reaches their counters.
   */
  async hit(email: string, ip: string): Promise<number | null> {
    return (await this.perNetwork.hit(networkOf(ip))) ?? (await this.perEmail.hit(email));
  }
}
