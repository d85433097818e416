import { createHash } from 'node:crypto';
import type { Executor } from '../repositories/executor.ts';
import { deleteEndedRateWindows, hitRateWindow } from '../repositories/rate-windows.ts';

/**
 * Fixed-window request counters per key (a feed token, a client address, an account), in the
 * database so every instance counts against the same limit. Keys are stored hashed: a feed token
 * is a secret, a client address personal data.
 */
export class RateWindow {
  private lastSweep = 0;

  constructor(
    private readonly db: Executor,
    /** Distinguishes the counters of different limits that may share keys. */
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts one request; answers null when allowed, else the milliseconds until the window ends. */
  async hit(key: string): Promise<number | null> {
    const now = this.clock();
    const nowIso = new Date(now).toISOString();
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await deleteEndedRateWindows(this.db, nowIso);
    }
    const hashed = createHash('sha256').update(`${this.name}\u0000${key}`).digest('hex');
    const window = await hitRateWindow(this.db, hashed, nowIso, new Date(now + this.windowMs).toISOString());
    return window.count > this.limit ? Math.max(1, Date.parse(window.reset_at) - now) : null;
  }
}
