/**
 * Lateness: 1,000 reminders due at random instants over 60 s; for each, the time between when it
 * was due and when the webhook reached the sink (another process). Prints p50/p99/max.
 * The real server runs as its own process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { percentile, startServerProcess } from './lib/server-process.ts';
import { seedSchedulerDatabase } from './scheduler-seed.ts';
import { startSinkProcess } from './webhook-sink.ts';

export async function run(options: { count?: number; spreadSeconds?: number; filler?: number; leadSeconds?: number; port?: number } = {}) {
  const count = options.count ?? 1000;
  const spreadMs = (options.spreadSeconds ?? 60) * 1000;
  const leadMs = (options.leadSeconds ?? 10) * 1000;
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-lateness-'));
  const file = path.join(dir, 'chime.db');
  const sink = await startSinkProcess();
  try {
    // Due instants are fixed before the server starts: it learns them from the database alone.
    const start = Date.now() + leadMs;
    const dueAtMs = Array.from({ length: count }, () => start + Math.floor(Math.random() * spreadMs)).sort((a, b) => a - b);
    await seedSchedulerDatabase(file, { filler: options.filler ?? 10_000, dueAtMs, url: `${sink.url}/hook` });
    const server = await startServerProcess({ DATABASE_URL: file, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'warn' }, options.port ?? 3912);
    try {
      const headroom = start - Date.now();
      if (headroom < 0) throw new Error(`server started ${-headroom} ms after the first reminder was due; raise leadSeconds`);
      const stats = await sink.waitForCount(count, leadMs + spreadMs + 30_000, 200);
      const receipts = await sink.receipts();
      const lateness = receipts.map(([, , occurrenceAt, receivedAt]) => receivedAt - Date.parse(occurrenceAt)).sort((a, b) => a - b);
      return {
        reminders: count,
        spread_seconds: spreadMs / 1000,
        received: stats.received,
        duplicates: stats.duplicate_ids + stats.duplicate_occurrences,
        p50_ms: percentile(lateness, 50),
        p90_ms: percentile(lateness, 90),
        p99_ms: percentile(lateness, 99),
        max_ms: lateness.at(-1) ?? NaN,
        min_ms: lateness[0] ?? NaN,
        early: lateness.filter((l) => l < 0).length,
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
  console.log('Scheduler lateness (1,000 reminders over 60 s; received at the sink minus due):');
  console.table(figures);
}
