/**
 * Where a delivery thread's code is, and starting thread 0 before the API thread has loaded its
 * own modules. A thread takes about a CPU-second to load its modules; started once the scheduler
 * plugin registers, that second came after the API thread's own module loading, and a restarted
 * instance sent its first delivery about 2 s after it was started. Started from main.ts first, it
 * loads on the other core meanwhile, and waits for the scheduler plugin (after the migrations) to
 * hand it its settings (docs/operations.md "Roles and the delivery thread").
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What a thread started early gets as workerData: its settings come later, in a `start` message. */
export const EARLY_START = { early: true } as const;

/**
 * How to start the worker's code: the bundle scripts/build-server.mjs writes beside dist/main.mjs,
 * or, under tsx or vitest (this file is TypeScript), a small bootstrap that registers tsx's loader
 * in the thread before importing the TypeScript entry (a loader given with --import in the
 * thread's execArgv is not in place yet when its main module loads on Node 20).
 */
export function workerEntry(): { file: URL | string; eval: boolean } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // The ESM build of tsx's API (require.resolve would pick the CommonJS one).
    const tsxPackage = createRequire(here).resolve('tsx/package.json');
    const api = pathToFileURL(path.join(path.dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
    const entry = new URL('./entry.ts', here).href;
    return { file: `import(${JSON.stringify(api)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, eval: true };
  }
  // dist/main.mjs or a shared chunk in dist/chunks/.
  for (const candidate of ['./scheduler-worker.mjs', '../scheduler-worker.mjs']) {
    const file = new URL(candidate, here);
    if (existsSync(fileURLToPath(file))) return { file, eval: false };
  }
  throw new Error('dist/scheduler-worker.mjs is missing: run npm run build:server');
}

let early: Worker | null = null;

/**
 * Starts delivery thread 0 now; it loads its code and waits for takeEarlyThread's taker to send it
 * `start`. Until then it does not keep the process alive (a start that fails exits as before).
 */
export function startThreadEarly(): void {
  if (early) return;
  const entry = workerEntry();
  const worker = new Worker(entry.file, { workerData: EARLY_START, name: 'chime-delivery-0', eval: entry.eval });
  worker.unref();
  // A thread that fails to load is forgotten: the host starts one the usual way.
  worker.on('error', () => {});
  worker.once('exit', () => {
    if (early === worker) early = null;
  });
  early = worker;
}

/** The thread startThreadEarly started, if it is still alive: the caller sends it `start`. */
export function takeEarlyThread(): Worker | null {
  const worker = early;
  early = null;
  worker?.ref();
  return worker;
}
