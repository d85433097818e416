// Runs on SQLite only: another process holds SQLite's write lock (vitest.config.ts).
/**
 * Another process holding SQLite's write lock (a backup, the sqlite3 shell): the server keeps
 * its event loop free, /healthz answers at once and says "degraded", writes wait a bounded time
 * then answer 503 DATABASE_BUSY with Retry-After, and nothing due is lost (README "Data and
 * backups"). A second real connection on the same file holds BEGIN IMMEDIATE.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDueReminder, expectBoundedBusyAnswer, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

let server: TestServer;
let sink: WebhookSink;

beforeAll(async () => {
  sink = await startWebhookSink();
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

describe('a write lock held by another process', () => {
  it('never blocks the event loop; writes answer 503 DATABASE_BUSY after a bounded wait; due reminders are delivered after', async () => {
    const user = await signUp(server.url, { timezone: 'UTC' });
    const due = new Date(Date.now() + 1500);
    await createDueReminder(user.api, due, `${sink.url}/hook`, 'Due while locked');

    const other = new SQLite(path.join(server.dir, 'chime.db'));
    other.pragma('busy_timeout = 10000');
    other.exec('BEGIN IMMEDIATE');
    // The event loop of this process (the server runs in it): the largest gap between 20 ms ticks.
    let last = performance.now();
    let worstGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
    }, 20);
    try {
      const startedAt = performance.now();
      const write = user.api.post('/api/reminders', { date: '2031-01-01', time: '09:00', message: 'Blocked', destinations: [] });
      await new Promise((r) => setTimeout(r, 300));
      const healthStarted = performance.now();
      const health = await fetch(`${server.url}/healthz`);
      expect(performance.now() - healthStarted).toBeLessThan(500);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'degraded' });

      const res = await write;
      expectBoundedBusyAnswer(res, performance.now() - startedAt);
      // Reads are answered meanwhile (WAL readers are not blocked).
      const list = await user.api.get('/api/reminders');
      expect(list.status).toBe(200);
      expect(list.body.map((r: { message: string }) => r.message)).toEqual(['Due while locked']);
      // The reminder fell due during the lock and could not be claimed yet.
      await new Promise((r) => setTimeout(r, 1000));
      expect(sink.requests).toHaveLength(0);
    } finally {
      other.exec('ROLLBACK');
      other.close();
      clearInterval(ticker);
    }
    expect(worstGap).toBeLessThan(1000);

    // Released: writes work again and the due reminder is delivered, once.
    const after = await user.api.post('/api/reminders', { date: '2031-01-01', time: '09:00', message: 'After', destinations: [] });
    expect(after.status).toBe(201);
    const [delivered] = await sink.waitFor(1, 10_000);
    expect(delivered!.json.message).toBe('Due while locked');
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.requests).toHaveLength(1);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  }, 30_000);

  it('bounds every write by its own arrival however many wait, and reads do not wait behind them', async () => {
    const user = await signUp(server.url, { timezone: 'UTC' });
    // Raw requests with a time limit: a write or read queued behind the others must fail this test
    // quickly rather than wait out the whole queue.
    const request = (method: 'GET' | 'POST', url: string, limitMs: number, body?: unknown) =>
      fetch(server.url + url, {
        method,
        headers: { authorization: `Bearer ${user.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(limitMs),
      });

    // Twenty connections open and kept alive beforehand: what is timed below is the server's answer.
    await Promise.all(Array.from({ length: 20 }, () => request('GET', '/api/reminders', 5000).then((res) => res.arrayBuffer())));

    const other = new SQLite(path.join(server.dir, 'chime.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const writes = Array.from({ length: 20 }, async (_, i) => {
        const startedAt = performance.now();
        const res = await request('POST', '/api/reminders', 5000, { date: '2031-01-01', time: '09:00', message: `Queued ${i}`, destinations: [] });
        return { res, body: await res.json(), tookMs: performance.now() - startedAt };
      });
      // Once the writes are waiting for the lock (/healthz says so), a read is answered at once.
      await expect.poll(async () => ((await (await fetch(`${server.url}/healthz`)).json()) as { status: string }).status, { timeout: 5000, interval: 50 }).toBe('degraded');
      const readStartedAt = performance.now();
      const list = await request('GET', '/api/reminders', 2000);
      expect(list.status).toBe(200);
      // Behind the waiting writes it took their 3 s; a loaded machine may add a second of its own.
      expect(performance.now() - readStartedAt).toBeLessThan(1500);

      const answers = await Promise.all(writes);
      for (const { res, body, tookMs } of answers) {
        expect(res.status).toBe(503);
        expect(body).toMatchObject({ code: 'DATABASE_BUSY' });
        expect(res.headers.get('retry-after')).toBe('2');
        // Each waited for the lock (about 3 s) from its own arrival: queued behind the others, the
        // second would have answered after 6 s. The margin is for a loaded machine's own delays.
        expect(tookMs).toBeGreaterThan(2500);
        expect(tookMs).toBeLessThan(4500);
      }
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }

    const after = await user.api.post('/api/reminders', { date: '2031-01-01', time: '09:00', message: 'After the lock', destinations: [] });
    expect(after.status).toBe(201);
    const messages = (await user.api.get('/api/reminders')).body.map((r: { message: string }) => r.message);
    expect(messages).toEqual(['After the lock']);
  }, 30_000);
});
