/**
 * Burst: 100,000 reminders due at the same instant in a database of 1,000,000 reminders. The real
 * server runs as its own process and delivers to a webhook sink in a third process.
 * Prints time to all delivered, deliveries/s, missing and duplicated deliveries, and the server's
 * RSS with 1,000,000 reminders stored (idle and peak during the burst).
 * Goal (issue "Scheduler and delivery"): >= 10,000 deliveries/s, none missing, none twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadAverage, processCpuMs } from './lib/cpu.ts';
import { startServerProcess } from './lib/server-process.ts';
import { retime, seedSchedulerDatabase } from './scheduler-seed.ts';
import { startSinkProcess } from './webhook-sink.ts';

export interface BurstOptions {
  total?: number;
  due?: number;
  /** Seconds between the end of seeding and the due instant (the server starts meanwhile). */
  leadSeconds?: number;
  port?: number;
}

export async function run(options: BurstOptions = {}) {
  const total = options.total ?? Number(process.env.BENCH_REMINDERS ?? 1_000_000);
  const dueCount = options.due ?? Number(process.env.BENCH_BURST ?? 100_000);
  const leadSeconds = options.leadSeconds ?? 10;
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-burst-'));
  const file = path.join(dir, 'chime.db');
  const sink = await startSinkProcess();
  try {
    const t0 = Date.now();
    // Far-future filler plus the burst: every one due at the same millisecond, after the server is up.
    // Seeding a million rows takes a while: the due instant is counted from its end.
    const placeholder = Date.UTC(2090, 0, 1);
    await seedSchedulerDatabase(file, { filler: total - dueCount, dueAtMs: new Array<number>(dueCount).fill(placeholder), url: `${sink.url}/hook` });
    const seedSeconds = (Date.now() - t0) / 1000;
    const dueAt = Date.now() + leadSeconds * 1000;
    if (retime(file, placeholder, dueAt) !== dueCount) throw new Error('retime failed');

    const server = await startServerProcess(
      { DATABASE_URL: file, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'warn' },
      options.port ?? 3911,
    );
    try {
      const startedBeforeDueMs = dueAt - Date.now();
      if (startedBeforeDueMs < 500) throw new Error('server started after the due instant; raise leadSeconds');
      await new Promise((r) => setTimeout(r, 300));
      const rssIdle = server.rssMb();
      let peakRss = rssIdle;
      const cpuBefore = processCpuMs(server.pid);
      const sinkCpuBefore = processCpuMs(sink.pid);
      const loadBefore = loadAverage();
      const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, server.rssMb())), 200);

      const stats = await sink.waitForCount(dueCount, 180_000, 50);
      clearInterval(rssTimer);
      const serverCpuMs = processCpuMs(server.pid) - cpuBefore;
      const sinkCpuMs = processCpuMs(sink.pid) - sinkCpuBefore;
      const loadAfter = loadAverage();
      const firstMs = (stats.first_at ?? NaN) - dueAt;
      const allMs = (stats.last_at ?? NaN) - dueAt;

      // The database agrees: every delivery row is delivered, exactly one per reminder.
      const reader = new SQLite(file, { readonly: true });
      reader.pragma('busy_timeout = 5000');
      let dbDelivered = 0;
      let dbSettledMs = NaN;
      for (const until = Date.now() + 60_000; Date.now() < until; ) {
        dbDelivered = (reader.prepare(`select count(*) as n from deliveries where status = 'delivered'`).get() as { n: number }).n;
        if (dbDelivered >= dueCount) {
          dbSettledMs = Date.now() - dueAt;
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      const rows = (reader.prepare('select count(*) as n, count(distinct reminder_id) as r from deliveries').get() as { n: number; r: number });
      const stillDue = (reader.prepare(`select count(*) as n from reminders where next_fire_utc <= ? and next_fire_utc is not null and is_paused = 0`).get(new Date().toISOString()) as { n: number }).n;
      reader.close();

      const receipts = await sink.receipts();
      const reminders = new Set(receipts.map((r) => r[1]));
      return {
        reminders_in_db: total,
        due_at_once: dueCount,
        seed_seconds: Number(seedSeconds.toFixed(1)),
        first_delivery_after_due_ms: firstMs,
        all_received_after_due_ms: allMs,
        all_recorded_in_db_after_due_ms: dbSettledMs,
        deliveries_per_second: Math.round(dueCount / (allMs / 1000)),
        received: stats.received,
        missing: dueCount - reminders.size,
        duplicate_webhook_ids: stats.duplicate_ids,
        duplicate_occurrences: stats.duplicate_occurrences,
        delivery_rows: rows.n,
        delivered_rows: dbDelivered,
        still_due_after: stillDue,
        rss_idle_mb_with_1m_reminders: rssIdle,
        rss_peak_mb_during_burst: peakRss,
        // Throughput moves with whatever else runs on the machine; CPU per delivery much less so.
        server_cpu_us_per_delivery: Math.round((serverCpuMs * 1000) / dueCount),
        sink_cpu_us_per_delivery: Math.round((sinkCpuMs * 1000) / dueCount),
        deliveries_per_second_per_server_core: Math.round(dueCount / (serverCpuMs / 1000)),
        load_average_before_after: `${loadBefore} / ${loadAfter}`,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await sink.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  console.log('Scheduler burst (100,000 due at once, 1,000,000 in DB; server and sink in their own processes):');
  console.table(figures);
  const ok = figures.deliveries_per_second >= 10_000 && figures.missing === 0 && figures.duplicate_webhook_ids === 0 && figures.duplicate_occurrences === 0;
  console.log(ok ? 'Goal met: >= 10,000 deliveries/s, none missing, none twice.' : 'Goal NOT met.');
}
