/**
 * Crash: the real server is SIGKILLed in the middle of a burst, then started again on the same
 * database. Counts, at the sink (another process): occurrences never delivered (must be 0),
 * occurrences delivered under two different webhook-ids (a double claim: must be 0), and webhooks
 * received twice with the same webhook-id (sends that were in flight, or done but not yet
 * recorded, when the process died: expected, and bounded by what was in flight).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { startServerProcess } from './lib/server-process.ts';
import { retime, seedSchedulerDatabase } from './scheduler-seed.ts';
import { startSinkProcess } from './webhook-sink.ts';

export async function run(options: { due?: number; filler?: number; killAtFraction?: number; port?: number } = {}) {
  const due = options.due ?? 20_000;
  const killAt = Math.floor(due * (options.killAtFraction ?? 0.3));
  const port = options.port ?? 3913;
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-crash-'));
  const file = path.join(dir, 'chime.db');
  const env = { DATABASE_URL: file, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'warn' };
  const sink = await startSinkProcess();
  try {
    const placeholder = Date.UTC(2090, 0, 1);
    await seedSchedulerDatabase(file, { filler: options.filler ?? 100_000, dueAtMs: new Array<number>(due).fill(placeholder), url: `${sink.url}/hook` });
    const server = await startServerProcess(env, port);
    // Aimed once the server is up, a little ahead: it sees another process's write within 500 ms.
    const dueAt = Date.now() + 2000;
    retime(file, placeholder, dueAt);

    // Kill hard once part of the burst has arrived.
    for (;;) {
      const s = await sink.stats();
      if (s.unique_ids >= killAt) break;
      if (Date.now() > dueAt + 120_000) throw new Error('burst did not start');
      await new Promise((r) => setTimeout(r, 5));
    }
    const killedAfterMs = Date.now() - dueAt;
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));
    const atKill = await sink.stats();
    await new Promise((r) => setTimeout(r, 200)); // let the last bytes in flight land
    const afterKill = await sink.stats();

    const db = new SQLite(file, { readonly: true });
    const byStatus = Object.fromEntries(
      (db.prepare('select status, count(*) as n from deliveries group by status').all() as { status: string; n: number }[]).map((r) => [r.status, r.n]),
    );
    db.close();

    const again = await startServerProcess(env, port);
    const restartAt = again.spawnedAt;
    try {
      const final = await sink.waitForCount(due, 180_000, 50);
      const recoveredMs = (final.last_at ?? NaN) - restartAt;
      const firstResendMs = ((await sink.firstAfter(restartAt)) ?? NaN) - restartAt;
      const receipts = await sink.receipts();
      const reminders = new Set(receipts.map((r) => r[1]));
      const check = new SQLite(file, { readonly: true });
      check.pragma('busy_timeout = 5000');
      let delivered = 0;
      for (const until = Date.now() + 30_000; Date.now() < until; ) {
        delivered = (check.prepare(`select count(*) as n from deliveries where status = 'delivered'`).get() as { n: number }).n;
        if (delivered >= due) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const rows = (check.prepare('select count(*) as n from deliveries').get() as { n: number }).n;
      check.close();
      return {
        due_at_once: due,
        killed_after_due_ms: killedAfterMs,
        received_before_kill: afterKill.unique_ids,
        in_flight_at_kill: afterKill.unique_ids - atKill.unique_ids,
        db_at_kill_delivered: byStatus.delivered ?? 0,
        db_at_kill_pending: byStatus.pending ?? 0,
        sent_but_unrecorded_at_kill: afterKill.unique_ids - (byStatus.delivered ?? 0),
        first_resend_after_restart_ms: firstResendMs,
        restart_to_all_received_ms: recoveredMs,
        lost_occurrences: due - reminders.size,
        double_claimed_occurrences: final.duplicate_occurrences,
        resent_same_webhook_id: final.duplicate_ids,
        delivery_rows: rows,
        delivered_rows: delivered,
      };
    } finally {
      await again.stop();
    }
  } finally {
    await sink.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  console.log('Scheduler crash (SIGKILL mid-burst, restart on the same database):');
  console.table(figures);
  const ok = figures.lost_occurrences === 0 && figures.double_claimed_occurrences === 0 && figures.resent_same_webhook_id <= figures.sent_but_unrecorded_at_kill;
  console.log(ok ? 'OK: nothing lost, nothing claimed twice; resends only of what was in flight, with the same webhook-id.' : 'NOT OK');
}
