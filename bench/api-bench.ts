/**
 * GET /api/reminders for an account with 50 reminders, in a database of 1,000,000 reminders,
 * under 50 concurrent connections. Prints requests/s, latency and the server's RSS.
 * Goal (issue 2): >= 3,000 req/s and RSS < 150 MB on the 2-core reference machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { percentile, startServerProcess } from './lib/server-process.ts';
import { seedSchedulerDatabase } from './scheduler-seed.ts';

export async function run(options: { reminders?: number; seconds?: number; connections?: number } = {}) {
  const total = options.reminders ?? Number(process.env.BENCH_REMINDERS ?? 1_000_000);
  const seconds = options.seconds ?? 10;
  const connections = options.connections ?? 50;
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-api-'));
  const file = path.join(dir, 'chime.db');
  try {
    const t0 = Date.now();
    // Filler reminders only: none fires during the benchmark.
    await seedSchedulerDatabase(file, { filler: total, dueAtMs: [], url: 'https://example.com/hook' });
    const seedSeconds = (Date.now() - t0) / 1000;

    const server = await startServerProcess({ DATABASE_URL: file, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false' }, 3901);
    try {
      const json = { 'content-type': 'application/json' };
      const creds = { email: 'bench@example.com', username: 'bench', password: 'bench-password-1', timezone: 'Europe/Paris' };
      await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify(creds) });
      const login = (await (await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ ...creds, remember_me: true }) })).json()) as { token: string };
      const auth = { authorization: `Bearer ${login.token}` };
      for (let i = 0; i < 50; i++) {
        const res = await fetch(`${server.url}/api/reminders`, {
          method: 'POST',
          headers: { ...json, ...auth },
          body: JSON.stringify({
            date: '2030-01-01',
            time: '09:00',
            message: `Bench reminder ${i}`,
            recurrence: i % 2 ? 'DAILY' : 'ONCE',
            destinations: [{ type: 'webhook', metadata: { url: 'https://example.com/hook', platform: 'generic' } }],
          }),
        });
        if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
      }
      const rssIdle = server.rssMb();

      const pool = new Pool(server.url, { connections, pipelining: 1 });
      const latencies: number[] = [];
      let errors = 0;
      let bytes = 0;
      const warmupEnd = Date.now() + 2000;
      const end = warmupEnd + seconds * 1000;
      let peakRss = rssIdle;
      const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, server.rssMb())), 250);
      async function worker() {
        while (Date.now() < end) {
          const start = performance.now();
          const res = await pool.request({ path: '/api/reminders', method: 'GET', headers: auth });
          const body = await res.body.arrayBuffer();
          if (Date.now() < warmupEnd) continue;
          if (res.statusCode !== 200) errors++;
          bytes += body.byteLength;
          latencies.push(performance.now() - start);
        }
      }
      await Promise.all(Array.from({ length: connections }, worker));
      clearInterval(rssTimer);
      await pool.close();
      latencies.sort((a, b) => a - b);
      return {
        reminders_in_db: total + 50,
        seed_seconds: seedSeconds,
        connections,
        seconds,
        requests_per_second: Math.round(latencies.length / seconds),
        p50_ms: Number(percentile(latencies, 50).toFixed(2)),
        p99_ms: Number(percentile(latencies, 99).toFixed(2)),
        errors,
        response_kb: Math.round(bytes / Math.max(latencies.length, 1) / 1024),
        rss_idle_mb: rssIdle,
        rss_peak_mb: peakRss,
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  console.log('GET /api/reminders (50 reminders, 1M in DB, 50 connections):');
  console.table(figures);
}
