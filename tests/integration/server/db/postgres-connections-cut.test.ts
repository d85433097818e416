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
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { admin, onPostgres, testDatabaseUrl } from '../../../helpers/test-database.ts';
import { seedAccount, seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';
import { waitFor } from '../../../helpers/fake-discord/util.ts';

let dir: string;
let url: string;
let sink: WebhookSink;
let writer: DatabaseHandle;

beforeAll(async () => {
  if (!onPostgres) throw new Error('run this file in the postgres project (CHIME_TEST_DB=postgres)');
  dir = mkdtempSync(path.join(tmpdir(), 'chime-pg-cut-'));
  url = await testDatabaseUrl(dir);
  sink = await startWebhookSink();
  writer = createDatabase(url);
});
afterAll(async () => {
  await writer?.db.destroy();
  await sink?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The servers of the running describe block: each block closes its own, so only they listen. */
let servers: TestServer[] = [];
const closeServers = async () => {
  for (const s of servers) await s.close();
  servers = [];
};

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

/** PostgreSQL's clock now: sessions started later are newer than this. */
const databaseNow = () => onMaintenanceDb(async (c) => (await c.query('select now() as now')).rows[0].now as Date);

/**
 * Resolves once a scheduler listens again: a LISTEN session (server/db/pg-changes.ts) that started
 * after `since`. Only a feed with a scheduler subscribed reconnects by itself; the API's feeds
 * reconnect on their next request, and none comes meanwhile.
 */
const listeningSince = (since: Date) =>
  waitFor(
    () =>
      onMaintenanceDb(async (c, name) => {
        const { rows } = await c.query("select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'chime-listen' and backend_start > $2", [name, since]);
        return rows[0].n > 0;
      }),
    10_000,
    'a scheduler listening again',
  );

/** A reminder written by another instance, due in 1 s, arrives on time: the wake-ups work. */
async function firesOnTime() {
  const accountId = await seedAccount(writer.db);
  const dueAt = Date.now() + 1000;
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
  afterAll(closeServers);

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
    await waitFor(() => statuses.length >= 10, 10_000, 'the first answers');
    // Several cuts, each after more requests went out, so some land on a connection between its
    // checkout and its first statement.
    expect(await cutEveryConnection()).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < 5; i++) {
      const answered = statuses.length;
      await waitFor(() => statuses.length >= answered + 5, 10_000, 'answers after a cut');
      await cutEveryConnection();
    }
    // The next ones are served: ten answers in a row that are not errors.
    const afterCuts = statuses.length;
    await waitFor(() => statuses.length >= afterCuts + 10 && statuses.slice(-10).every((s) => s === 200 || s === 201), 10_000, 'ten successes in a row');
    stop = true;
    await Promise.all(loops);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
  });

  it('listens again: a reminder written by another instance fires on time', async () => {
    await listeningSince(new Date(0));
    const cutAt = await databaseNow();
    expect(await cutEveryConnection()).toBeGreaterThanOrEqual(2);
    await listeningSince(cutAt);
    await firesOnTime();
  });
});

describe('PostgreSQL refuses connections for a while (starting up, failing over)', () => {
  let web: TestServer;
  let scheduler: TestServer;
  beforeAll(async () => {
    // One API instance, one whose delivery loop runs in its thread, as `npm start` runs it.
    web = await start({ schedulerEnabled: false });
    scheduler = await start({ schedulerMode: 'worker', deliveryThreads: 1 });
    await scheduler.app.scheduler.worker!.ready();
  });

  it('answers 503 DATABASE_BUSY meanwhile; the delivery thread survives a wake-up and delivers after', async () => {
    const user = await signUp(web.url);
    const startsBefore = scheduler.app.scheduler.worker!.starts;

    await allowConnections(false);
    try {
      await cutEveryConnection();
      const res = await user.api.get('/api/reminders');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'DATABASE_BUSY' });
      expect(res.headers.get('retry-after')).toBe('2');
      // Re-arming reads the database: the thread must count the failure and retry, not die.
      const errorsBefore = await databaseErrors(scheduler);
      scheduler.app.scheduler.wake();
      await waitFor(async () => (await databaseErrors(scheduler)) > errorsBefore, 10_000, 'the delivery thread failing to re-arm');
    } finally {
      await allowConnections(true);
    }
    const allowedAt = await databaseNow();
    expect(scheduler.app.scheduler.worker!.starts).toBe(startsBefore);
    await listeningSince(allowedAt);
    await firesOnTime();
  });
  afterAll(closeServers);
});

/**
 * chime_scheduler_database_errors_total in the server's /metrics (its delivery threads' sum).
 * /metrics answers while the database refuses connections: that is when an operator needs it.
 */
async function databaseErrors(server: TestServer): Promise<number> {
  const res = await client(server.url).get('/metrics');
  expect(res.status).toBe(200);
  return Number(/^chime_scheduler_database_errors_total (\d+)/m.exec(res.body as string)?.[1] ?? Number.NaN);
}
