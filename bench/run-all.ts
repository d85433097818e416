/**
 * `npm run bench`: every benchmark in turn, each in its own process so one's memory and timers do
 * not colour the next. They print their own figures. Set BENCH_ONLY=api,burst to pick some.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const all: Array<[name: string, file: string]> = [
  ['recurrence', 'bench/recurrence-bench.ts'],
  ['rrule', 'bench/rrule-bench.ts'],
  ['bundle', 'bench/bundle-size.ts'],
  ['api', 'bench/api-bench.ts'],
  ['mixed', 'bench/mixed.ts'],
  ['lateness', 'bench/scheduler-lateness.ts'],
  ['burst', 'bench/scheduler-burst.ts'],
  ['crash', 'bench/scheduler-crash.ts'],
  ['instant', 'bench/scheduler-same-instant.ts'],
  ['lock', 'bench/foreign-lock.ts'],
  ['chaos', 'bench/chaos.ts'],
  ['scale-out', 'bench/scale-out.ts'],
  ['feed', 'bench/calendar-feed-bench.ts'],
];
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
let failed = 0;
for (const [name, file] of all) {
  if (only && !only.includes(name)) continue;
  if (!existsSync(`${root}/${file}`)) continue;
  console.log(`\n=== ${name} (${file}) ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, stdio: 'inherit' });
  console.log(`--- ${name}: ${result.status === 0 ? 'done' : `FAILED (exit ${result.status})`} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (result.status !== 0) failed++;
}
console.log(`\nMachine: ${(await import('node:os')).cpus().length} cores, ${Math.round((await import('node:os')).totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
process.exit(failed ? 1 : 0);
