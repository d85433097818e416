/**
 * Fixed-window request counters per key (a feed token, a client address), in memory and bounded:
 * when full, windows that have ended are dropped first, then the oldest.
 */
export class RateWindow {
  private windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 50_000,
  ) {}

  /** Counts one request; answers null when allowed, else the milliseconds until the window ends. */
  hit(key: string, nowMs = Date.now()): number | null {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= nowMs) {
      if (w) this.windows.delete(key);
      w = { count: 0, resetAt: nowMs + this.windowMs };
      this.windows.set(key, w);
      this.prune(nowMs);
    }
    w.count += 1;
    return w.count > this.limit ? w.resetAt - nowMs : null;
  }

  private prune(nowMs: number) {
    if (this.windows.size <= this.maxKeys) return;
    for (const [k, w] of this.windows) if (w.resetAt <= nowMs) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(k);
    }
  }
}
