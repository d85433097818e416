/**
 * The delivery loop in its worker threads, as `npm start` runs it on a machine with 2 cores
 * (DELIVERY_THREADS=2): each thread has its own database connection and senders, is woken by the
 * API thread, forwards its figures to /metrics, is restarted when it dies, and stops cleanly with
 * the app. The second thread starts for a burst, shares it without sending anything twice, and
 * stops when idle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

let server: TestServer;
let sink: WebhookSink;
let user: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  sink = await startWebhookSink();
  server = await startTestServer({ overrides: { schedulerMode: 'worker', deliveryThreads: 2, deliveryHelperIdleMs: 1500 } });
  await server.app.scheduler.worker!.ready();
  user = await signUp(server.url);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

/** A one-off reminder due `inMs` from now, to the sink. */
async function createDue(message: string, inMs = 1500) {
  const at = new Date(Date.now() + inMs).toISOString();
  const res = await user.api.post('/api/reminders', {
    date: at.slice(0, 10),
    time: at.slice(11, 19),
    timezone: 'UTC',
    message,
    destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hook`, platform: 'generic' } }],
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const received = (message: string) => sink.requests.filter((r) => r.body.includes(message));

describe('scheduler worker thread', () => {
  it('runs the loop off the API thread, in one thread while quiet', () => {
    expect(server.app.scheduler.mode).toBe('worker');
    expect(server.app.scheduler.worker!.hosts).toHaveLength(1);
    expect(server.app.scheduler.worker!.starts).toBe(1);
  });

  it('delivers a reminder created through the API after the worker armed (wake)', async () => {
    const count = sink.requests.length;
    await createDue('first from the worker');
    await sink.waitFor(count + 1, 15_000);
    expect(received('first from the worker')).toHaveLength(1);
    // Results are written by the worker; drain() waits for them through the thread.
    await server.app.scheduler.drain();
    const rows = await server.app.db.selectFrom('deliveries').select('status').execute();
    expect(rows.map((r) => r.status)).toEqual(['delivered']);
  });

  it('shows the worker figures at /metrics', async () => {
    const res = await client(server.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/chime_deliveries_total\{platform="generic",outcome="delivered"\} 1\b/);
    expect(res.body).toMatch(/chime_delivery_lateness_seconds_count 1\b/);
    // The main thread's own figures are still there.
    expect(res.body).toMatch(/chime_reminders_due 0\b/);
    expect(res.body).toMatch(/process_cpu_user_seconds_total/);
  });

  it('starts a second thread for a burst, splits it without sending twice, and stops it when idle', async () => {
    const pool = server.app.scheduler.worker!;
    expect(pool.hosts).toHaveLength(1);
    // Small claims and a small memory: thread 0 leaves most rows in the outbox, which thread 1
    // reads. The receiver is slow (1 s an answer) until thread 1 is ready, however long a thread
    // takes to start on a loaded machine, so the burst is still there to share; then it is quick.
    server.app.scheduler.setOptions({ batchSize: 10, maxBuffered: 20, maxBufferedPerKey: 20, perHostConcurrency: 4 });
    let helperReady = false;
    void (async () => {
      while (pool.hosts.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      await pool.hosts[1]!.ready();
      helperReady = true;
    })();
    sink.reply(() => ({ status: 200, delayMs: helperReady ? 100 : 1000 }));
    const before = sink.requests.length;
    const at = new Date(Date.now() + 5000).toISOString();
    const count = 120;
    for (let i = 0; i < count; i++) {
      const res = await user.api.post('/api/reminders', {
        date: at.slice(0, 10),
        time: at.slice(11, 19),
        timezone: 'UTC',
        message: `burst ${i}`,
        destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hook`, platform: 'generic' } }],
      });
      expect(res.status).toBe(201);
    }
    await sink.waitFor(before + count, 30_000);
    await server.app.scheduler.drain();
    expect(pool.hosts).toHaveLength(2);
    expect(pool.starts).toBe(2);

    const bodies = sink.requests.slice(before).map((r) => (r.json as { message: string }).message);
    expect(bodies).toHaveLength(count);
    expect(new Set(bodies).size).toBe(count);
    const rows = await server.app.db.selectFrom('deliveries').select(['status', 'lease_owner']).execute();
    expect(rows.filter((r) => r.status === 'delivered')).toHaveLength(count + 1);
    expect(rows.every((r) => r.lease_owner === null)).toBe(true);
    // Each thread sent a share (its own counters, before summing).
    for (const host of pool.hosts) {
      const figures = await host.call({ kind: 'metrics' });
      const sent = figures.find((m) => m.name === 'chime_deliveries_total')?.values.reduce((n, v) => n + v.value, 0) ?? 0;
      expect(sent).toBeGreaterThan(0);
    }

    // Idle for deliveryHelperIdleMs: thread 1 stops. /metrics, read all along, counts each
    // delivery once: before, while and after the thread stops.
    const delivered = async () => {
      const body = (await client(server.url).get('/metrics')).body as string;
      return [
        body.match(/chime_deliveries_total\{platform="generic",outcome="delivered"\} (\d+)/)?.[1],
        body.match(/chime_delivery_lateness_seconds_count (\d+)/)?.[1],
      ];
    };
    const reads: (string | undefined)[][] = [];
    for (const until = Date.now() + 15_000; pool.hosts.length > 1 && Date.now() < until; ) reads.push(await delivered());
    expect(pool.hosts).toHaveLength(1);
    for (let i = 0; i < 5; i++) reads.push(await delivered());
    expect(reads.length).toBeGreaterThan(5);
    expect(new Set(reads.map((r) => r.join()))).toEqual(new Set([`${count + 1},${count + 1}`]));
    sink.reply({ status: 200 });
    server.app.scheduler.setOptions({ batchSize: 250, maxBuffered: 8000, maxBufferedPerKey: 4000, perHostConcurrency: 32 });
  }, 90_000);

  it('restarts a worker that died and delivers on', async () => {
    const host = server.app.scheduler.worker!;
    await host.kill(0);
    await host.ready();
    expect(host.starts).toBe(3);
    const count = sink.requests.length;
    await createDue('after the restart');
    // Due in 1.5 s: well before the 30 s safety net, so this holds that wake() armed the new thread.
    await sink.waitFor(count + 1, 10_000);
    expect(received('after the restart')).toHaveLength(1);
  });

  it('runOnce and prune answer through the thread', async () => {
    await server.app.scheduler.runOnce();
    expect(await server.app.scheduler.prune()).toBe(0);
    expect(server.app.scheduler.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it('stops with the app, leaving no thread behind', async () => {
    const host = server.app.scheduler.worker!;
    await server.close();
    // A stopped host neither restarts the thread nor answers calls.
    await expect(host.tick()).rejects.toThrow(/not running/);
    expect(host.starts).toBe(3);
    server = undefined as never;
  });
});
