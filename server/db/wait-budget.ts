/**
 * How long a query may wait for the database (sqlite-busy.ts) counts from when the work it serves
 * arrived, not from when the query was sent: an API request that spent a while reading, or queued
 * for the CPU behind many others, before it wrote still answers within the bound of its arrival.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<Arrival>();

/** One piece of work the database serves (an API request): when it arrived, whether it is answered. */
export class Arrival {
  /** performance.now() when it arrived. */
  readonly at: number;
  answered = false;

  constructor(at = performance.now()) {
    this.at = at;
  }

  /** Runs `fn`, and whatever it starts, as part of this work. */
  run<T>(fn: () => T): T {
    return current.run(this, fn);
  }
}

/**
 * When the work now running arrived, while it is not answered yet. Once it is answered, what it
 * started (a timer, a write nobody waits for) waits on its own terms.
 */
export function arrivalOfCurrentWork(): number | undefined {
  const arrival = current.getStore();
  return arrival && !arrival.answered ? arrival.at : undefined;
}
