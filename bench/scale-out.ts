/**
 * Scale-out (issue "Scale-out"): the same burst of reminders due at once, delivered by 1, 2 and 3
 * instances of the real server (separate processes, the built bundle) sharing one database, to a
 * webhook sink in its own process. Prints deliveries/s per instance count and the speed-up over
 * one instance (goal: 2 instances >= 1.6x one), and checks none is lost or sent twice.
 *
 * PostgreSQL by default (BENCH_POSTGRES_URL, a role allowed to CREATE DATABASE; a throwaway
 * database per run); BENCH_SCALE_DB=sqlite runs the same on one SQLite file.
 * BENCH_SCALE_DUE sets the burst (default 50,000); BENCH_SCALE_INSTANCES the counts (1,2,3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { machineBusyMs, processCpuMs } from './lib/cpu.ts';
import { startServerProcess, type ServerProcess } from './lib/server-process.ts';
import { databaseLabel, retimeDue, seedDue, throwawayDatabase } from './lib/any-database.ts';
import { startSinkProcess } from './webhook-sink.ts';

const DUE = Number(process.env.BENCH_SCALE_DUE ?? 50_000);
const COUNTS = (process.env.BENCH_SCALE_INSTANCES ?? '1,2,3').split(',').map(Number);
const KIND = process.env.BENCH_SCALE_DB === 'sqlite' ? 'sqlite' : 'postgres';
const PLACEHOLDER = new Date(Date.UTC(2090, 0, 1)).toISOString();

async function burst(instances: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-scale-'));
  const database = await throwawayDatabase(KIND, dir);
  const sink = await startSinkProcess();
  const servers: ServerProcess[] = [];
  try {
    await seedDue(database.url, DUE, `${sink.url}/hook`, PLACEHOLDER);
    const env = { DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'warn', CHIME_ROLES: 'scheduler' };
    for (let i = 0; i < instances; i++) servers.push(await startServerProcess(env, 3941 + i));
    const dueAt = Date.now() + 3000;
    if ((await retimeDue(database.url, PLACEHOLDER, new Date(dueAt).toISOString())) !== DUE) throw new Error('retime failed');
    const serverCpu = () => servers.reduce((sum, s) => sum + processCpuMs(s.pid), 0);
    // From the due instant: the instances are idle until then.
    await new Promise((r) => setTimeout(r, Math.max(0, dueAt - Date.now() - 20)));
    const [serverBefore, machineBefore, startedMs] = [serverCpu(), machineBusyMs(), Date.now()];
    const stats = await sink.waitForCount(DUE, 600_000, 50);
    const [serverMs, machineMs, wallMs] = [serverCpu() - serverBefore, machineBusyMs() - machineBefore, Date.now() - startedMs];
    const seconds = ((stats.last_at ?? NaN) - dueAt) / 1000;
    return {
      instances,
      due_at_once: DUE,
      seconds: Number(seconds.toFixed(2)),
      deliveries_per_second: Math.round(DUE / seconds),
      first_after_due_ms: (stats.first_at ?? NaN) - dueAt,
      sent_twice: stats.duplicate_ids,
      claimed_twice: stats.duplicate_occurrences,
      // CPU per delivery: Chime's instances together, and the whole machine (PostgreSQL and the
      // sink too). Flat from 1 to 3 instances means they add no work per delivery, only share cores.
      instances_cpu_us_per_delivery: Math.round((serverMs * 1000) / DUE),
      machine_cpu_us_per_delivery: Math.round((machineMs * 1000) / DUE),
      machine_busy_pct: Math.round((100 * machineMs) / (wallMs * cpus().length)),
    };
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    await sink.stop();
    await database.drop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = [];
  for (const n of COUNTS) {
    rows.push(await burst(n));
    console.log(`${n} instance(s): ${rows.at(-1)!.deliveries_per_second} deliveries/s`);
  }
  const one = rows.find((r) => r.instances === 1)?.deliveries_per_second;
  console.log(`Scale-out on ${databaseLabel(KIND === 'postgres' ? 'postgres://' : 'file')}, ${cpus().length} cores (every instance, the database and the sink share them):`);
  console.table(rows.map((r) => ({ ...r, speed_up: one ? Number((r.deliveries_per_second / one).toFixed(2)) : null })));
  const ok = rows.every((r) => r.claimed_twice === 0 && r.sent_twice === 0);
  console.log(ok ? 'OK: every reminder delivered once.' : 'NOT OK: some delivered twice');
}
