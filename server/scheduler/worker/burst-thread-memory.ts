/**
 * The young generation of the extra delivery threads. `npm start` gives V8
 * `--max-semi-space-size=2` so the process stays small at rest (bench/RESULTS.md), but a
 * delivery thread in a burst allocates fast and briefly: rows, payloads, requests that live a few
 * milliseconds. With 2 MB a scavenge finds them still in flight and copies or promotes them;
 * garbage collection took 17 % of each delivery thread in a burst of 100,000.
 *
 * The extra threads run only during a burst (host.ts starts them on a backlog), so they get
 * DELIVERY_SEMI_SPACE_MB: about 6 % more deliveries a second and 9 % less CPU per delivery, for
 * about 28 MB while one runs. Thread 0 always runs and keeps the small one: giving it the same
 * would add 10 % more speed but 14 MB at rest, which the API's memory goal cannot spare.
 *
 * V8 reads the flag when an isolate is created, and the flag overrides a Worker's resourceLimits,
 * so it is raised while such a thread starts and put back once it runs; the isolates that exist
 * already keep their size.
 */
import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';

export const DELIVERY_SEMI_SPACE_MB = 16;

/** The process's own --max-semi-space-size (command line or NODE_OPTIONS), or null when V8 chooses. */
export function processSemiSpaceMb(args: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]): number | null {
  let found: number | null = null;
  for (const arg of args) {
    const match = /^--max[-_]semi[-_]space[-_]size=(\d+)$/.exec(arg);
    if (match) found = Number(match[1]);
  }
  return found;
}

let starting = 0;

/** Starts a thread with the larger young generation; the running threads' are untouched. */
export function startWithDeliveryYoungGeneration(start: () => Worker): Worker {
  const own = processSemiSpaceMb();
  // No flag: V8's own default (16 MB on 64-bit) applies to every thread already.
  if (own === null || own >= DELIVERY_SEMI_SPACE_MB) return start();
  starting += 1;
  v8.setFlagsFromString(`--max-semi-space-size=${DELIVERY_SEMI_SPACE_MB}`);
  const done = () => {
    starting -= 1;
    // Only once no other delivery thread is still creating its isolate.
    if (starting === 0) v8.setFlagsFromString(`--max-semi-space-size=${own}`);
  };
  try {
    const worker = start();
    let settled = false;
    const once = () => {
      if (settled) return;
      settled = true;
      done();
    };
    worker.once('online', once);
    worker.once('exit', once);
    return worker;
  } catch (err) {
    done();
    throw err;
  }
}
