/** Deadlines and shutdown of webhook requests in flight, kept by one sweeper timer per sender. */

/** The request had no status line by its deadline. */
export class TimeoutError extends Error {}
/** The send's signal aborted: the server is shutting down. */
export class ShutdownError extends Error {}

export interface InFlight {
  deadline: number;
  /** Settles the request with this error (once). */
  fail: (err: Error) => void;
  /** Aborts the request on the wire once it has started. */
  abort: ((err: Error) => void) | null;
  group: Set<InFlight> | null;
}

export interface InFlightRequests {
  track(entry: InFlight, signal: AbortSignal | undefined): void;
  untrack(entry: InFlight): void;
  /** The sweep interval follows the timeout (a tenth of it, 10 to 250 ms). */
  retime(timeoutMs: number): void;
  stopSweeping(): void;
}

// Deadlines and shutdown for in-flight requests without an AbortSignal, a timer or an event
// listener per request: a burst sends 10,000s a second and those cost more than the send.
export function createInFlightRequests(timeoutMs: number): InFlightRequests {
  const inFlight = new Set<InFlight>();
  const bySignal = new WeakMap<AbortSignal, Set<InFlight>>();
  let sweeper: NodeJS.Timeout | null = null;
  let sweepEveryMs = 0;

  function stop(entry: InFlight, err: Error) {
    untrack(entry);
    entry.fail(err);
    entry.abort?.(err);
  }

  function sweep() {
    const now = Date.now();
    for (const e of inFlight) if (e.deadline <= now) stop(e, new TimeoutError('timeout'));
    if (inFlight.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }

  function startSweeper() {
    if (sweeper) return;
    sweeper = setInterval(sweep, sweepEveryMs);
    sweeper.unref();
  }

  function track(entry: InFlight, signal: AbortSignal | undefined) {
    if (signal) {
      let group = bySignal.get(signal);
      if (!group) {
        const members = new Set<InFlight>();
        group = members;
        bySignal.set(signal, members);
        signal.addEventListener('abort', () => {
          for (const e of [...members]) stop(e, new ShutdownError('shutdown'));
        }, { once: true });
      }
      group.add(entry);
      entry.group = group;
    }
    inFlight.add(entry);
    startSweeper();
  }

  function untrack(entry: InFlight) {
    inFlight.delete(entry);
    entry.group?.delete(entry);
  }

  function retime(nextTimeoutMs: number) {
    sweepEveryMs = Math.max(10, Math.min(250, Math.floor(nextTimeoutMs / 10)));
    if (sweeper) {
      clearInterval(sweeper);
      sweeper = null;
      startSweeper();
    }
  }

  function stopSweeping() {
    if (sweeper) clearInterval(sweeper);
    sweeper = null;
  }

  retime(timeoutMs);
  return { track, untrack, retime, stopSweeping };
}
