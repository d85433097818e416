/**
 * PostgreSQL cuts every connection (a restart, a failover, an administrator's
 * pg_terminate_backend): the instances keep serving, and the wake-ups between them come back, so
 * a reminder written on one instance still fires on time on another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, type DatabaseHandle } from '../server/db/connection.ts';
import { signUp, startTestServer, type TestServer } from './helpers/server.ts';
import { onPostgres, testDatabaseUrl } from './helpers/test-database.ts';
import { seedAccount, seedReminder, startWebhookSink, type WebhookSink } from './helpers/webhook-sink.ts';
import { waitFor } from './fake-discord/util.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL cuts every connection', () => {
  let dir: string;
  let url: string;
  let sink: WebhookSink;
  let web: TestServer;
  let scheduler: TestServer;
  let writer: DatabaseHandle;

  beforeAll(async () => {
    if (!onPostgres) throw new Error('run this file in the postgres project (CHIME_TEST_DB=postgres)');
    dir = mkdtempSync(path.join(tmpdir(), 'chime-pg-cut-'));
    url = await testDatabaseUrl(dir);
    sink = await startWebhookSink();
    // Same folder, same database: one API instance, one that only delivers.
    web = await startTestServer({ dir, overrides: { schedulerEnabled: false } });
    scheduler = await startTestServer({ dir });
    writer = createDatabase(url);
  });
  afterAll(async () => {
    await writer?.db.destroy();
    await web?.close();
    await scheduler?.close();
    await sink?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Terminates every session on the test database but the one asking; how many it ended. */
  async function cutEveryConnection(): Promise<number> {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        'select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()) t',
      );
      return rows[0].n as number;
    } finally {
      await admin.end();
    }
  }

  it('answers no 500 to requests in flight when the connections are cut, and serves the next ones', async () => {
    const user = await signUp(web.url);
    const statuses: number[] = [];
    let stop = false;
    let n = 0;
    // Writes (each a transaction) and reads, back to back, so some are in flight at the cut.
    const loop = async (writes: boolean) => {
      while (!stop) {
        const res = writes
          ? await user.api.post('/api/reminders', { date: '2031-05-01', time: '09:00', message: `load ${n++}`, recurrence: 'DAILY', destinations: [] })
          : await user.api.get('/api/reminders?limit=5');
        statuses.push(res.status);
      }
    };
    const loops = Array.from({ length: 10 }, (_, i) => loop(i % 2 === 0));
    await sleep(300);
    expect(await cutEveryConnection()).toBeGreaterThanOrEqual(2);
    await sleep(1000);
    stop = true;
    await Promise.all(loops);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(statuses.slice(-10).every((s) => s === 200 || s === 201)).toBe(true);
  });

  it('keeps answering the API, and a reminder written elsewhere fires on time', async () => {
    const user = await signUp(web.url);
    const accountId = await seedAccount(writer.db);
    // Every instance has connections open (API pool, scheduler pool, LISTEN).
    expect((await user.api.get('/api/reminders')).status).toBe(200);
    await sleep(300);

    const ended = await cutEveryConnection();
    expect(ended).toBeGreaterThanOrEqual(3);

    // The API: a request right after the cut may find a dead pooled connection; it must not be a 500,
    // and the next ones are served.
    const first = await user.api.get('/api/reminders');
    expect([200, 503]).toContain(first.status);
    await waitFor(async () => (await user.api.get('/api/reminders')).status === 200, 5000);
    const health = await fetch(`${scheduler.url}/healthz`);
    expect(health.status).toBe(200);

    // The wake-ups: written by another instance, due in 2 s; the scheduler's safety net is 30 s,
    // so only a working LISTEN makes it fire on time.
    await sleep(1500);
    const dueAt = Date.now() + 2000;
    const { id } = await seedReminder(writer.db, { accountId, at: dueAt, destinations: [{ url: sink.url }] });
    await waitFor(() => sink.requests.some((r) => r.json.reminder_id === id), 10_000);
    const got = sink.requests.find((r) => r.json.reminder_id === id)!;
    expect(got.receivedAt - dueAt).toBeLessThan(1500);
  });
});
