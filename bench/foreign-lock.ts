/**
 * Another process holds SQLite's write lock (a backup, the sqlite3 shell): 20 writes sent at once
 * to the real server process, while this process holds BEGIN IMMEDIATE on the same file. Prints
 * each write's answer and its time from its own start, a read's time during the lock, and that a
 * write succeeds once the lock is given back. Goal: every write answers 503 DATABASE_BUSY with
 * Retry-After within 3.5 s of its own start (docs/operations.md "Data and backups"); the read at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Pool } from 'undici';
import { percentile, startServerProcess } from './lib/server-process.ts';

const GOAL_MS = 3500;

export async function run(options: { writes?: number; port?: number } = {}) {
  const writes = options.writes ?? 20;
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-lock-'));
  const file = path.join(dir, 'chime.db');
  // LOG_LEVEL=error: each refused write is a slow request the server warns about, which would
  // fill the results with log lines; the table below says the same.
  const server = await startServerProcess({ DATABASE_URL: file, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'error' }, options.port ?? 3931);
  const pool = new Pool(server.url, { connections: writes + 1, pipelining: 1 });
  try {
    const json = { 'content-type': 'application/json' };
    const creds = { email: 'lock@example.com', username: 'lock', password: 'bench-password-1', timezone: 'UTC' };
    await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify(creds) });
    const login = (await (await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ ...creds, remember_me: true }) })).json()) as { token: string };
    const headers = { ...json, authorization: `Bearer ${login.token}` };
    const send = async (method: 'GET' | 'POST', i = 0) => {
      const started = performance.now();
      const res = await pool.request({ path: '/api/reminders', method, headers, body: method === 'POST' ? JSON.stringify({ date: '2031-01-01', time: '09:00', message: `Locked out ${i}`, destinations: [] }) : undefined });
      const body = (await res.body.json()) as { code?: string };
      return { status: res.statusCode, code: body.code ?? '', retryAfter: String(res.headers['retry-after'] ?? ''), ms: performance.now() - started };
    };
    // Every connection open and the write path warm beforehand: what is timed is the server's
    // answer, not connection setup or first-call compilation.
    await Promise.all(Array.from({ length: writes + 1 }, () => send('GET')));
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: writes }, (_, i) => send('POST', i)));

    const other = new SQLite(file);
    other.exec('BEGIN IMMEDIATE');
    let answers: Awaited<ReturnType<typeof send>>[];
    let read: Awaited<ReturnType<typeof send>>;
    try {
      const pending = Array.from({ length: writes }, (_, i) => send('POST', i));
      // Once the writes wait (/healthz says so), a read.
      while (((await (await fetch(`${server.url}/healthz`)).json()) as { status: string }).status !== 'degraded') await new Promise((r) => setTimeout(r, 20));
      read = await send('GET');
      answers = await Promise.all(pending);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const after = await send('POST', writes);

    const times = answers.map((a) => a.ms).sort((a, b) => a - b);
    return {
      per_write: answers.map((a, i) => ({ write: i, status: a.status, code: a.code, retry_after: a.retryAfter, answered_after_ms: Math.round(a.ms) })),
      summary: {
        writes,
        busy_answers: answers.filter((a) => a.status === 503 && a.code === 'DATABASE_BUSY' && a.retryAfter !== '').length,
        fastest_ms: Math.round(times[0]!),
        p50_ms: Math.round(percentile(times, 50)),
        slowest_ms: Math.round(times.at(-1)!),
        read_during_lock_ms: Math.round(read.ms),
        read_status: read.status,
        write_after_release_status: after.status,
        // A loaded machine delays every answer, this bound included: say how loaded it was.
        load_average_1min: Number(loadavg()[0]!.toFixed(1)),
      },
    };
  } finally {
    await pool.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { per_write, summary } = await run();
  console.log('Foreign write lock, 20 writes sent at once (each answer from its own start):');
  console.table(per_write);
  console.table([summary]);
  const ok = summary.busy_answers === summary.writes && summary.slowest_ms <= GOAL_MS && summary.read_status === 200 && summary.write_after_release_status === 201;
  console.log(ok ? `OK: every write answered 503 DATABASE_BUSY with Retry-After within ${GOAL_MS} ms of its start; the read did not wait.` : 'NOT OK');
}
