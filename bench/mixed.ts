/**
 * Mixed load: what many users do at once, while deliveries fire. 200 accounts with 20 reminders
 * each; 50 connections send 60% list, 15% get one, 5% account, 8% update, 6% pause/resume and
 * 6% create+delete, while 1,000 reminders (5 per account, webhooks to a sink in another process)
 * fall due within the same minute. Prints the API's requests/s and latency, the 5xx count, and
 * the deliveries' lateness (received at the sink minus due).
 * The issue-12 goals: API >= 2x the first measurement (1,039 req/s) and p99 lateness < 1 s.
 * BENCH_MIXED_DB=postgres runs it on a throwaway PostgreSQL database (BENCH_POSTGRES_URL, a role
 * allowed to CREATE DATABASE), with the server's default pool, as a new user would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseLabel, throwawayDatabase } from './lib/any-database.ts';
import { postgresBackendsCpuMs, processCpuMs } from './lib/cpu.ts';
import { percentile, startServerProcess } from './lib/server-process.ts';
import { ACCOUNTS, CONNECTIONS, caller, createAccounts, DUE_PER_ACCOUNT, mixedLoad, PER_ACCOUNT } from './lib/mixed-load.ts';
import { startSinkProcess } from './webhook-sink.ts';

export async function run(options: { loadSeconds?: number; port?: number } = {}) {
  const loadSeconds = options.loadSeconds ?? 40;
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-mixed-'));
  const database = await throwawayDatabase(process.env.BENCH_MIXED_DB === 'postgres' ? 'postgres' : 'sqlite', dir);
  const sink = await startSinkProcess();
  try {
    const server = await startServerProcess(
      { DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'warn' },
      options.port ?? 3921,
    );
    const { call, close } = caller(server.url, CONNECTIONS);
    try {
      // Accounts and their reminders (far in the future), through the API like users.
      const t0 = Date.now();
      const accounts = await createAccounts([call], sink.url);
      const setupSeconds = (Date.now() - t0) / 1000;

      // 1,000 reminders due within one minute, starting 15 s into the load. On a loaded machine
      // creating them takes longer: BENCH_MIXED_DUE_LEAD_S gives them more time (the load then
      // starts that much later before the due minute).
      const dueStart = Date.now() + Number(process.env.BENCH_MIXED_DUE_LEAD_S || 25) * 1000;
      let n = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = w; i < ACCOUNTS; i += 8) {
            for (let k = 0; k < DUE_PER_ACCOUNT; k++) {
              const due = new Date(dueStart + ((i * DUE_PER_ACCOUNT + k) * 60_000) / (ACCOUNTS * DUE_PER_ACCOUNT));
              const r = await call('POST', '/api/reminders', accounts[i]!.auth, {
                date: due.toISOString().slice(0, 10),
                time: due.toISOString().slice(11, 19),
                timezone: 'UTC',
                message: `Due ${k} of ${i}`,
                destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hook`, platform: 'generic' } }],
              });
              if (r.status !== 201) throw new Error(`create due: ${r.status} ${JSON.stringify(r.body)}`);
              n++;
            }
          }
        }),
      );
      if (Date.now() > dueStart - 5_000) throw new Error('setup of the due reminders took too long');
      if (process.env.BENCH_MIXED_DUE_LEAD_S) await new Promise((r) => setTimeout(r, Math.max(0, dueStart - 15_000 - Date.now())));

      // The load: from now until loadSeconds, covering the whole due minute.
      // CPU per request, steadier than requests/s on a shared machine: the server's, and on
      // PostgreSQL its backends' for this database (the pool stays open through the load).
      const databaseName = databaseLabel(database.url) === 'PostgreSQL' ? new URL(database.url).pathname.slice(1) : null;
      const backendsCpu = () => [...(databaseName ? postgresBackendsCpuMs(databaseName) : new Map<number, number>())];
      const serverCpuBefore = processCpuMs(server.pid);
      const backendsBefore = new Map(backendsCpu());
      const { latencies, byOp, errors5xx, errors4xx, elapsedSeconds: elapsed } = await mixedLoad([call], accounts, loadSeconds, sink.url);
      const serverCpuMs = processCpuMs(server.pid) - serverCpuBefore;
      const databaseCpuMs = backendsCpu().reduce((sum, [pid, ms]) => sum + ms - (backendsBefore.get(pid) ?? 0), 0);
      const stats = await sink.waitForCount(n, 60_000, 200);
      const receipts = await sink.receipts();
      const lateness = receipts.map(([, , occurrenceAt, receivedAt]) => receivedAt - Date.parse(occurrenceAt)).sort((x, y) => x - y);
      await close();
      return {
        database: databaseLabel(database.url),
        setup_seconds: Math.round(setupSeconds),
        requests: latencies.length,
        req_per_s: Math.round(latencies.length / elapsed),
        api_p50_ms: Math.round(percentile(latencies, 50) * 10) / 10,
        api_p99_ms: Math.round(percentile(latencies, 99) * 10) / 10,
        api_5xx: errors5xx,
        api_4xx: errors4xx,
        server_cpu_us_per_request: Math.round((serverCpuMs * 1000) / latencies.length),
        ...(databaseName ? { database_cpu_us_per_request: Math.round((databaseCpuMs * 1000) / latencies.length) } : {}),
        ops: Object.fromEntries(byOp),
        delivered: stats.unique_ids,
        duplicates: stats.duplicate_ids + stats.duplicate_occurrences,
        lateness_p50_ms: percentile(lateness, 50),
        lateness_p99_ms: percentile(lateness, 99),
        lateness_max_ms: lateness.at(-1) ?? NaN,
        rss_mb: server.rssMb(),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await sink.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  const { ops, ...rest } = figures;
  console.log(`Mixed load: ${ACCOUNTS} accounts x ${PER_ACCOUNT} reminders, ${CONNECTIONS} connections, 1,000 deliveries due within one minute during the load`);
  console.table(rest);
  console.log('requests per operation:', ops);
}
