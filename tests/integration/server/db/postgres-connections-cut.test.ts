// Runs on PostgreSQL only: PostgreSQL cuts its connections (vitest.config.ts).
/**
 * PostgreSQL cuts every connection (a restart, a failover, an administrator's
 * pg_terminate_backend) or refuses new ones for a while: the instances keep serving, the delivery
 * thread stays up, and the wake-ups between instances come back, so a reminder written on one
 * instance still fires on time on another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { Config } from '../../../../server/config.ts';
import { createDatabase, type DatabaseHandle } from '../../../../server/db/connection.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { admin, onPostgres, testDatabaseUrl } from '../../../helpers/test-database.ts';
import { seedAccount, seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';
import { waitFor } from '../../../helpers/fake-discord/util.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
let url: string;
let sink: WebhookSink;
let writer: DatabaseHandle;
const servers: TestServer[] = [];

beforeAll(async () => {
  if (!onPostgres) throw new Error('run this file in the postgres project (CHIME_TEST_DB=postgres)');
  dir = mkdtempSync(path.join(tmpdir(), 'chime-pg-cut-'));
  url = await testDatabaseUrl(dir);
  sink = await startWebhookSink();
  writer = createDatabase(url);
});
afterAll(async () => {
  await writer?.db.destroy();
  for (const s of servers) await s.close();
  await sink?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Same folder, same database (test-database.ts). */
async function start(overrides: Partial<Config> = {}) {
  const server = await startTestServer({ dir, overrides });
  servers.push(server);
  return server;
}

/** Runs `fn` on the maintenance database (the test database may refuse connections meanwhile). */
const onMaintenanceDb = <T>(fn: (client: pg.Client, name: string) => Promise<T>) => admin((client) => fn(client, new URL(url).pathname.slice(1)));

/** Terminates every session on the test database; how many it ended. */
const cutEveryConnection = () =>
  onMaintenanceDb(async (c, name) => {
    const { rows } = await c.query('select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    return rows[0].n as number;
  });

/** Whether the test database accepts new connections (false: as while PostgreSQL starts up). */
const allowConnections = (allow: boolean) => onMaintenanceDb((c, name) => c.query(`alter database ${name} allow_connections ${allow}`));

/** A reminder written by another instance, due in 2 s, arrives on time: the wake-ups work. */
async function firesOnTime() {
  const accountId = await seedAccount(writer.db);
  const dueAt = Date.now() + 2000;
  const { id } = await seedReminder(writer.db, { accountId, at: dueAt, destinations: [{ url: sink.url }] });
  const got = await waitFor(() => sink.requests.find((r) => r.json.reminder_id === id), 10_000, `reminder ${id} delivered`);
  // The scheduler's safety net is 30 s: only a working LISTEN makes it this early.
  expect(got.receivedAt - dueAt).toBeLessThan(1500);
}

describe('PostgreSQL cuts every connection', () => {
  let web: TestServer;
  beforeAll(async () => {
    // One API instance, one that only delivers (on the test's thread).
    web = await start({ schedulerEnabled: false });
    await start();
  });

  it('answers no 500 to requests in flight, and serves the next ones', async () => {
    const user = await signUp(web.url);
    const statuses: number[] = [];
    let stop = false;
    let n = 0;
    // Writes (each a transaction) and reads, back to back, so some are in flight at the cut.
    const loop = async (writes: boolean) => {
      while (!stop) {
        const res = writes
          ? await user.api.post('/api/reminders', { date: '2031-05-01', time: '09:00', message: `load ${n++}`, recurrence: 'DAILY', destinations: [] })
          : await user.api.get('/api/reminders');
        statuses.push(res.status);
      }
    };
    const loops = Array.from({ length: 10 }, (_, i) => loop(i % 2 === 0));
    await sleep(300);
    // Several cuts, so some land on a connection between its checkout and its first statement.
    expect(await cutEveryConnection()).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < 5; i++) {
      await sleep(150);
      await cutEveryConnection();
    }
    await sleep(1000);
    stop = true;
    await Promise.all(loops);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(statuses.slice(-10).every((s) => s === 200 || s === 201)).toBe(true);
  });

  it('listens again: a reminder written by another instance fires on time', async () => {
    await sleep(300);
    expect(await cutEveryConnection()).toBeGreaterThanOrEqual(2);
    await sleep(1500);
    await firesOnTime();
  });
});

describe('PostgreSQL refuses connections for a while (starting up, failing over)', () => {
  it('answers 503 DATABASE_BUSY meanwhile; the delivery thread survives a wake-up and delivers after', async () => {
    const web = await start({ schedulerEnabled: false });
    const scheduler = await start({ schedulerMode: 'worker', deliveryThreads: 1 });
    await scheduler.app.scheduler.worker!.ready();
    const user = await signUp(web.url);
    const startsBefore = scheduler.app.scheduler.worker!.starts;

    await allowConnections(false);
    try {
      await cutEveryConnection();
      const res = await user.api.get('/api/reminders');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'DATABASE_BUSY' });
      expect(res.headers.get('retry-after')).toBe('2');
      // Re-arming reads the database: the thread must log the failure and retry, not die.
      scheduler.app.scheduler.wake();
      await sleep(1500);
    } finally {
      await allowConnections(true);
    }
    expect(scheduler.app.scheduler.worker!.starts).toBe(startsBefore);
    await sleep(1500);
    await firesOnTime();
  });
});
