/**
 * An extra delivery thread gets a larger young generation than the API thread, whose small one
 * `npm start` sets with --max-semi-space-size=2 (server/scheduler/worker/burst-thread-memory.ts).
 * Real V8 isolates in a child process started with that flag: each thread allocates, then says
 * how large its new space became.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DELIVERY_SEMI_SPACE_MB, processSemiSpaceMb } from '../../../../../server/scheduler/worker/burst-thread-memory.ts';

const MODULE = fileURLToPath(new URL('../../../../../server/scheduler/worker/burst-thread-memory.ts', import.meta.url));

/**
 * Allocates short-lived objects, enough to grow a new space to its limit (a 16 MB semi-space is
 * full size after about 200,000 of them); newSpaceMb() then says the isolate's new space in MB
 * (needs v8 in scope).
 */
const CHURN = `
  let keep = [];
  for (let i = 0; i < 5e5; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 200000) keep = []; }
  const newSpaceMb = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
`;

const SCRIPT = `
  import v8 from 'node:v8';
  import { Worker } from 'node:worker_threads';
  import { startWithDeliveryYoungGeneration } from ${JSON.stringify(MODULE)};
  ${CHURN}
  const run = (start) => new Promise((resolve) => {
    const worker = start(() => new Worker(${JSON.stringify(`import v8 from 'node:v8'; import { parentPort } from 'node:worker_threads'; ${CHURN}; parentPort.postMessage(newSpaceMb());`)}, { eval: true }));
    worker.once('message', (mb) => { resolve(mb); worker.terminate(); });
  });
  const extra = await run(startWithDeliveryYoungGeneration);
  const plain = await run((spawn) => spawn());
  console.log(JSON.stringify({ main: newSpaceMb(), extra, plain }));
`;

describe('the young generation of the extra delivery threads', () => {
  it('is larger than the API thread, which keeps its own, and the flag is put back afterwards', () => {
    const run = spawnSync(process.execPath, ['--max-semi-space-size=2', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    const sizes = JSON.parse(run.stdout.trim()) as { main: number; extra: number; plain: number };
    // A new space is two semi-spaces.
    expect(sizes.extra).toBe(2 * DELIVERY_SEMI_SPACE_MB);
    expect(sizes.main).toBeLessThanOrEqual(4);
    // A thread started afterwards without it gets the process's own size again.
    expect(sizes.plain).toBeLessThanOrEqual(4);
  });

  it('reads the process flag from the command line or NODE_OPTIONS, the last one winning', () => {
    expect(processSemiSpaceMb(['--max-semi-space-size=2'])).toBe(2);
    expect(processSemiSpaceMb(['--max_semi_space_size=8', '--max-semi-space-size=4'])).toBe(4);
    expect(processSemiSpaceMb(['--max-old-space-size=256', ''])).toBeNull();
  });
});
