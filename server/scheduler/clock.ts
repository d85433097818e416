/**
 * Time as the scheduler sees it. The parts (claimer, send pump, result recorder, timer) take a
 * Clock instead of calling Date.now() and setTimeout, so their tests step time by hand.
 */

/** What setTimeout returned; only ever given back to clearTimeout. */
export type TimerHandle = object;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Calls `callback` once after `delayMs`. `background`: the timer alone does not keep the process
   * alive (the scheduler's long wait for the next fire).
   */
  setTimeout(callback: () => void, delayMs: number, options?: { background?: boolean }): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Calls `callback` after pending I/O: lets sends and API requests run between batches. */
  setImmediate(callback: () => void): void;
}

/** setTimeout's ceiling; a longer delay would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, delayMs, options) {
    const timer = setTimeout(callback, Math.min(Math.max(delayMs, 0), MAX_TIMER_MS));
    if (options?.background) timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  setImmediate(callback) {
    setImmediate(callback);
  },
};

/** Resolves on the next turn of `clock` (after pending I/O with the system clock). */
export const nextTurn = (clock: Clock): Promise<void> => new Promise((resolve) => clock.setImmediate(resolve));

interface ManualTimer {
  at: number;
  seq: number;
  callback: () => void;
}

/**
 * A clock that only moves when told to, for tests: `advance(ms)` runs every timer that falls due,
 * in order, letting promises settle after each. setImmediate callbacks run on the next advance
 * (`advance(0)` runs them alone).
 */
export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Set<ManualTimer>();

  constructor(startMs = Date.UTC(2026, 10, 23, 8, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer: ManualTimer = { at: this.current + Math.max(0, Math.min(delayMs, MAX_TIMER_MS)), seq: this.seq++, callback };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as ManualTimer);
  }

  setImmediate(callback: () => void): void {
    this.setTimeout(callback, 0);
  }

  /** Timers waiting, for assertions. */
  get pending(): number {
    return this.timers.size;
  }

  /** When the earliest timer is due, or null when none is set. */
  nextAt(): number | null {
    let best: ManualTimer | null = null;
    for (const t of this.timers) if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    return best ? best.at : null;
  }

  /** Moves time forward by `ms`, running every timer due on the way (also those they set). */
  async advance(ms: number): Promise<void> {
    const until = this.current + ms;
    await settle();
    for (;;) {
      let next: ManualTimer | null = null;
      for (const t of this.timers) if (t.at <= until && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (!next) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.at);
      next.callback();
      await settle();
    }
    this.current = until;
  }

  /** Moves time to `atMs` (see advance). */
  advanceTo(atMs: number): Promise<void> {
    return this.advance(Math.max(0, atMs - this.current));
  }
}

/** Lets pending promise chains run (microtasks and already-settled I/O callbacks). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
