/**
 * `npm run bench`: every benchmark in turn, each in its own process so one's memory and timers do
 * not colour the next. Each prints its own figures and goals; this runner shows them as they come
 * and writes them to bench/RESULTS.md, one section per benchmark stamped with its run (time,
 * commit, machine load), so a figure is only compared with figures of the same run or hour.
 * BENCH_ONLY=instant,lock runs some and replaces only their sections.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../tests/helpers/throwaway-postgres.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = `${root}/bench/RESULTS.md`;
/** Each benchmark: its section's name, its file, and settings it runs with (beside this process's). */
const all: Array<[name: string, file: string, env?: Record<string, string>]> = [
  ['recurrence', 'bench/recurrence-bench.ts'],
  ['rrule', 'bench/rrule-bench.ts'],
  ['bundle', 'bench/bundle-size.ts'],
  ['api', 'bench/api-bench.ts'],
  ['mixed', 'bench/mixed.ts'],
  // The same load on PostgreSQL right after SQLite's, so the two compare within the hour.
  ['mixed-postgres', 'bench/mixed.ts', { BENCH_MIXED_DB: 'postgres' }],
  ['lateness', 'bench/scheduler-lateness.ts'],
  ['burst', 'bench/scheduler-burst.ts'],
  ['crash', 'bench/scheduler-crash.ts'],
  ['instant', 'bench/scheduler-same-instant.ts'],
  ['lock', 'bench/foreign-lock.ts'],
  ['chaos', 'bench/chaos.ts'],
  ['scale-out', 'bench/scale-out.ts'],
  ['feed', 'bench/calendar-feed-bench.ts'],
];

/** Runs one benchmark, echoing its output, and answers what it printed and how it ended. */
function run(file: string, env: Record<string, string> = {}): Promise<{ output: string; status: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on('data', take(process.stdout));
    child.stderr.on('data', take(process.stderr));
    child.on('close', (status) => resolve({ output, status }));
  });
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** The sections of the results file, by benchmark name, in file order. */
function readSections(): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(RESULTS)) return sections;
  const parts = readFileSync(RESULTS, 'utf8').split(/^## /m).slice(1);
  for (const part of parts) sections.set(part.slice(0, part.indexOf(' ')).trim(), `## ${part.trimEnd()}\n`);
  return sections;
}

const POSTGRES_BENCHMARKS = ['mixed-postgres', 'chaos', 'scale-out'];

/**
 * The PostgreSQL benchmarks (POSTGRES_BENCHMARKS) need a role allowed to CREATE DATABASE:
 * BENCH_POSTGRES_URL or TEST_POSTGRES_URL, else a throwaway server for this run, as the tests start
 * one (tests/helpers/throwaway-postgres.ts).
 */
async function postgresForRun(): Promise<ThrowawayPostgres | null> {
  if (process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL) return null;
  const server = await startThrowawayPostgres();
  process.env.BENCH_POSTGRES_URL = server.url;
  return server;
}

const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const sections = readSections();
const wantsPostgres = all.some(([name]) => POSTGRES_BENCHMARKS.includes(name) && (!only || only.includes(name)));
const postgres = wantsPostgres ? await postgresForRun() : null;
let failed = 0;
for (const [name, file, env] of all) {
  if (only && !only.includes(name)) continue;
  if (!existsSync(`${root}/${file}`)) continue;
  console.log(`\n=== ${name} (${file}) ===`);
  const started = new Date();
  const load = os.loadavg()[0]!.toFixed(1);
  const { output, status } = await run(file, env);
  const seconds = Math.round((Date.now() - started.getTime()) / 1000);
  const verdict = status === 0 ? 'done' : `FAILED (exit ${status})`;
  console.log(`--- ${name}: ${verdict} in ${seconds} s`);
  if (status !== 0) failed++;
  sections.set(
    name,
    [
      `## ${name} (\`${file}\`${env ? `, ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''})`,
      '',
      `Run ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${gitCommit()}, ${machine}, load average ${load} at the start; ${verdict} in ${seconds} s.`,
      '',
      '```',
      output.trimEnd(),
      '```',
      '',
    ].join('\n'),
  );
  const ordered = all.map(([n]) => sections.get(n)).filter(Boolean);
  writeFileSync(
    RESULTS,
    [
      '# Benchmark results',
      '',
      'Written by `npm run bench` (bench/run-all.ts); each section by its own run. This machine is noisy: compare figures only within one section, or between sections run within the same hour, and look at the load average first. How to read each benchmark: the comment at the top of its file.',
      '',
      ...ordered,
    ].join('\n'),
  );
}
await postgres?.stop();
console.log(`\nMachine: ${machine}. Results in bench/RESULTS.md.`);
process.exit(failed ? 1 : 0);
