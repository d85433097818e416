/**
 * Scale-out (issue 26): does a second and a third instance of the real server (separate
 * processes, the built bundle, one database) add what an instance on a small machine of its own
 * would? Every instance runs in its own CPU quota (cgroup v1 `cpu` controller, bench/lib/cpu-quota.ts:
 * BENCH_SCALE_QUOTA µs per 100,000 µs, default 40,000 = 40% of a core), so on this 2-core machine
 * 3 instances together are held to 1.2 cores, and PostgreSQL, the webhook sink and the load
 * generator run outside the quotas, as on machines of their own. Two parts, for 1, 2 and 3 instances:
 *
 * - Burst: BENCH_SCALE_DUE reminders (default 20,000) due at once, delivered to a sink in its own
 *   process; deliveries/s from the due instant to the last receipt; none lost, none sent twice.
 * - Mixed: the API load of bench/mixed.ts (bench/lib/mixed-load.ts: 50 connections over 200
 *   accounts, lists, reads, updates, pause/resume, create+delete) for BENCH_SCALE_MIXED_SECONDS
 *   (default 20), the connections spread round-robin over the instances; req/s, p99, 5xx. Before
 *   it, every instance count gets the same load for BENCH_SCALE_WARM_SECONDS (default 5) outside
 *   the quotas, not measured: instances of a real deployment have run for a while, and otherwise
 *   the first count alone (whose instance also created the accounts) would be measured warm.
 *
 * Goals: 2 instances >= 1.7x one, 3 >= 2.3x, in both parts; 0 lost, 0 twice. How to read the
 * figures: `throttled_pct` is the share of the 100 ms periods in which an instance used up its
 * quota: near 100% means the instances are the limit (as wanted: the quota stands for the small
 * machine); well below it means something outside the quotas (PostgreSQL, the sink, the load
 * generator, or other work on this machine: `postgres_cpu_pct` for this run's database backends,
 * `loadgen_cpu_pct` for this process, `other_cpu_pct` for the rest, in % of one core;
 * `machine_busy_pct` near 100 means the cores are full) is the limit and the speed-up says more
 * about that than about Chime. Without root or without cgroup v1 it says so and runs without
 * quotas: the instances then share the cores and the figures are not comparable.
 *
 * PostgreSQL by default (BENCH_POSTGRES_URL, a role allowed to CREATE DATABASE, else a throwaway
 * server for the run as the tests start one; a throwaway database per part); BENCH_SCALE_DB=sqlite
 * runs the same on one SQLite file.
 * BENCH_SCALE_INSTANCES sets the counts (1,2,3); BENCH_SCALE_PARTS=burst or mixed runs one part.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { machineBusyMs, postgresBackendsCpuMs, processCpuMs } from './lib/cpu.ts';
import { cpuQuotas, type CpuGroup } from './lib/cpu-quota.ts';
import { caller, CONNECTIONS, createAccounts, mixedLoad, type Account } from './lib/mixed-load.ts';
import { percentile, startServerProcess, type ServerProcess } from './lib/server-process.ts';
import { databaseLabel, retimeDue, seedDue, throwawayDatabase } from './lib/any-database.ts';
import { startSinkProcess, type SinkProcess } from './webhook-sink.ts';
import { startThrowawayPostgres } from '../tests/helpers/throwaway-postgres.ts';

const DUE = Number(process.env.BENCH_SCALE_DUE ?? 20_000);
const MIXED_SECONDS = Number(process.env.BENCH_SCALE_MIXED_SECONDS ?? 20);
const WARM_SECONDS = Number(process.env.BENCH_SCALE_WARM_SECONDS ?? 5);
const QUOTA_US = Number(process.env.BENCH_SCALE_QUOTA ?? 40_000);
const COUNTS = (process.env.BENCH_SCALE_INSTANCES ?? '1,2,3').split(',').map(Number);
const PARTS = (process.env.BENCH_SCALE_PARTS ?? 'burst,mixed').split(',');
const KIND = process.env.BENCH_SCALE_DB === 'sqlite' ? 'sqlite' : 'postgres';
const PLACEHOLDER = new Date(Date.UTC(2090, 0, 1)).toISOString();
const GOALS: Record<number, number> = { 2: 1.7, 3: 2.3 };

const quotas = cpuQuotas(QUOTA_US);

/** Puts each server in a quota of its own (when there are quotas). */
function confine(servers: ServerProcess[]): CpuGroup[] {
  if ('unavailable' in quotas) return [];
  return servers.map((s, i) => {
    const group = quotas.create(i);
    group.add(s.pid);
    return group;
  });
}

/**
 * CPU over a measured stretch: the instances (each, and the share of periods they were throttled),
 * the sink, and everything else on the machine (PostgreSQL, the load generator, other work).
 */
function cpuMeter(servers: ServerProcess[], groups: CpuGroup[], sink: SinkProcess, databaseUrl: string) {
  const instances = () => servers.map((s) => processCpuMs(s.pid));
  const databaseName = new URL(databaseUrl, 'file:///').pathname.slice(1);
  const backends = () => (KIND === 'postgres' ? postgresBackendsCpuMs(databaseName) : new Map<number, number>());
  const before = { instances: instances(), sink: processCpuMs(sink.pid), machine: machineBusyMs(), backends: backends(), self: process.cpuUsage(), throttle: groups.map((g) => g.throttled()), at: Date.now() };
  return () => {
    const wallMs = Date.now() - before.at;
    const perInstance = instances().map((ms, i) => ms - before.instances[i]!);
    const instancesMs = perInstance.reduce((a, b) => a + b, 0);
    const sinkMs = processCpuMs(sink.pid) - before.sink;
    const machineMs = machineBusyMs() - before.machine;
    const selfUsage = process.cpuUsage(before.self);
    const selfMs = (selfUsage.user + selfUsage.system) / 1000;
    let backendsMs = 0;
    for (const [pid, ms] of backends()) backendsMs += ms - (before.backends.get(pid) ?? 0);
    const throttle = groups.map((g, i) => {
      const t = g.throttled();
      const periods = t.periods - before.throttle[i]!.periods;
      return periods ? (100 * (t.throttled_periods - before.throttle[i]!.throttled_periods)) / periods : 0;
    });
    return {
      instancesMs,
      // Per instance, in % of one core: with a quota of 40,000 µs the ceiling is 40.
      instance_cpu_pct: perInstance.map((ms) => Math.round((100 * ms) / wallMs)).join('/'),
      throttled_pct: groups.length ? throttle.map((p) => Math.round(p)).join('/') : 'no quota',
      sink_cpu_pct: Math.round((100 * sinkMs) / wallMs),
      // This run's PostgreSQL backends, this process (the load generator), then the rest of the
      // machine (PostgreSQL's background processes, the kernel, any other work on this machine).
      postgres_cpu_pct: Math.round((100 * backendsMs) / wallMs),
      loadgen_cpu_pct: Math.round((100 * selfMs) / wallMs),
      other_cpu_pct: Math.round((100 * (machineMs - instancesMs - sinkMs - backendsMs - selfMs)) / wallMs),
      machine_busy_pct: Math.round((100 * machineMs) / (wallMs * cpus().length)),
    };
  };
}

async function stopAll(servers: ServerProcess[], groups: CpuGroup[]) {
  for (const s of servers) await s.stop().catch(() => {});
  for (const g of groups) await g.remove().catch((e) => console.error(`could not remove ${g.name}: ${(e as Error).message}`));
}

async function burst(instances: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-scale-'));
  const database = await throwawayDatabase(KIND, dir);
  const sink = await startSinkProcess();
  const servers: ServerProcess[] = [];
  let groups: CpuGroup[] = [];
  try {
    await seedDue(database.url, DUE, `${sink.url}/hook`, PLACEHOLDER);
    const env = { DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'warn', CHIME_ROLES: 'scheduler' };
    for (let i = 0; i < instances; i++) servers.push(await startServerProcess(env, 3941 + i));
    groups = confine(servers);
    const dueAt = Date.now() + 3000;
    if ((await retimeDue(database.url, PLACEHOLDER, new Date(dueAt).toISOString())) !== DUE) throw new Error('retime failed');
    // From the due instant: the instances are idle until then.
    await new Promise((r) => setTimeout(r, Math.max(0, dueAt - Date.now() - 20)));
    const meter = cpuMeter(servers, groups, sink, database.url);
    const stats = await sink.waitForCount(DUE, 900_000, 50);
    const { instancesMs, ...cpu } = meter();
    const seconds = ((stats.last_at ?? NaN) - dueAt) / 1000;
    return {
      instances,
      seconds: Number(seconds.toFixed(2)),
      deliveries_per_second: Math.round(DUE / seconds),
      lost: DUE - stats.unique_ids,
      sent_twice: stats.duplicate_ids,
      claimed_twice: stats.duplicate_occurrences,
      instances_cpu_us_per_delivery: Math.round((instancesMs * 1000) / DUE),
      ...cpu,
    };
  } finally {
    await stopAll(servers, groups);
    await sink.stop();
    await database.drop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The mixed API load on 1, 2, 3 instances over one database (the accounts are created once). */
async function mixedParts(counts: number[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-scale-mixed-'));
  const database = await throwawayDatabase(KIND, dir);
  const sink = await startSinkProcess();
  const rows = [];
  let accounts: Account[] | null = null;
  try {
    for (const instances of counts) {
      const servers: ServerProcess[] = [];
      let groups: CpuGroup[] = [];
      const clients: ReturnType<typeof caller>[] = [];
      try {
        // 'error': under a quota many requests pass the slow-request threshold, and their warnings would bury the figures.
        const env = { DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'error' };
        for (let i = 0; i < instances; i++) servers.push(await startServerProcess(env, 3951 + i));
        for (const s of servers) clients.push(caller(s.url, Math.ceil(CONNECTIONS / instances)));
        const calls = clients.map((c) => c.call);
        // Set up outside the quota (not measured), then confine and load.
        accounts ??= await createAccounts(calls, sink.url, 'scale');
        if (WARM_SECONDS > 0) await mixedLoad(calls, accounts, WARM_SECONDS, sink.url);
        groups = confine(servers);
        const meter = cpuMeter(servers, groups, sink, database.url);
        const load = await mixedLoad(calls, accounts, MIXED_SECONDS, sink.url);
        const { instancesMs, ...cpu } = meter();
        rows.push({
          instances,
          requests: load.latencies.length,
          req_per_s: Math.round(load.latencies.length / load.elapsedSeconds),
          p50_ms: Math.round(percentile(load.latencies, 50) * 10) / 10,
          p99_ms: Math.round(percentile(load.latencies, 99) * 10) / 10,
          api_5xx: load.errors5xx,
          api_4xx: load.errors4xx,
          instances_cpu_us_per_request: Math.round((instancesMs * 1000) / load.latencies.length),
          ...cpu,
        });
        console.log(`mixed, ${instances} instance(s): ${rows.at(-1)!.req_per_s} req/s`);
      } finally {
        for (const c of clients) await c.close().catch(() => {});
        await stopAll(servers, groups);
      }
    }
    return rows;
  } finally {
    await sink.stop();
    await database.drop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Speed-up over one instance, and whether each count meets its goal. */
function withSpeedUp<T extends { instances: number }>(rows: T[], rate: (r: T) => number) {
  const one = rows.find((r) => r.instances === 1);
  const verdicts: string[] = [];
  const table = rows.map((r) => {
    const speedUp = one ? Number((rate(r) / rate(one)).toFixed(2)) : null;
    const goal = GOALS[r.instances];
    if (goal && speedUp !== null) verdicts.push(`${r.instances} instances ${speedUp}x one (goal >= ${goal}x): ${speedUp >= goal ? 'met' : 'NOT met'}`);
    return { ...r, speed_up: speedUp };
  });
  return { table, verdicts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quotaLine =
    'unavailable' in quotas
      ? `No CPU quotas (${quotas.unavailable}): the instances share all ${cpus().length} cores, so these figures are NOT comparable with the goals.`
      : `Each instance in its own CPU quota of ${QUOTA_US.toLocaleString('en')} µs per ${quotas.periodUs.toLocaleString('en')} µs (${Math.round((100 * QUOTA_US) / quotas.periodUs)}% of a core, cgroup v1); the database, the sink and the load generator outside the quotas on ${cpus().length} cores.`;
  console.log(quotaLine);
  // Without a server to use, one for this run (as bench/run-all.ts and the tests start one).
  const ownPostgres = KIND === 'postgres' && !process.env.BENCH_POSTGRES_URL && !process.env.TEST_POSTGRES_URL ? await startThrowawayPostgres() : null;
  if (ownPostgres) process.env.BENCH_POSTGRES_URL = ownPostgres.url;
  let ok = true;
  if (PARTS.includes('burst')) {
    const rows = [];
    for (const n of COUNTS) {
      rows.push(await burst(n));
      console.log(`burst, ${n} instance(s): ${rows.at(-1)!.deliveries_per_second} deliveries/s`);
    }
    const { table, verdicts } = withSpeedUp(rows, (r) => r.deliveries_per_second);
    console.log(`\nBurst: ${DUE.toLocaleString('en')} reminders due at once on ${databaseLabel(KIND === 'postgres' ? 'postgres://' : 'file')}`);
    console.table(table);
    for (const v of verdicts) console.log(v);
    const once = rows.every((r) => r.lost === 0 && r.claimed_twice === 0 && r.sent_twice === 0);
    console.log(once ? 'OK: every reminder delivered, none twice.' : 'NOT OK: some lost or delivered twice');
    ok &&= once;
  }
  if (PARTS.includes('mixed')) {
    const rows = await mixedParts(COUNTS);
    const { table, verdicts } = withSpeedUp(rows, (r) => r.req_per_s);
    console.log(`\nMixed API load: ${CONNECTIONS} connections over 200 accounts for ${MIXED_SECONDS} s, spread round-robin over the instances, on ${databaseLabel(KIND === 'postgres' ? 'postgres://' : 'file')}`);
    console.table(table);
    for (const v of verdicts) console.log(v);
    if (rows.some((r) => r.api_5xx > 0)) {
      console.log('NOT OK: some requests answered 5xx');
      ok = false;
    }
  }
  console.log(quotaLine);
  await ownPostgres?.stop();
  if (!ok) process.exitCode = 1;
}
