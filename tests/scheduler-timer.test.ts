/**
 * The scheduler's wiring with a hand-moved clock on a real SQLite file: one timer armed at the
 * earliest due instant, re-armed by wake(), retries re-arming it, results written after the
 * flush interval. Time moves only when the test says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { ManualClock } from '../server/scheduler/clock.ts';
import { createSchedulerMetrics } from '../server/scheduler/metrics.ts';
import { Scheduler } from '../server/scheduler/scheduler.ts';
import type { DestinationSender, SendContext, SendResult } from '../server/scheduler/types.ts';
import { seedAccount, seedReminder } from './helpers/webhook-sink.ts';

const T0 = Date.UTC(2030, 0, 1, 8, 0, 0);
const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as unknown as FastifyBaseLogger;

let dir: string;
let handle: DatabaseHandle;
let clock: ManualClock;
let scheduler: Scheduler;
const sent: SendContext[] = [];
let answer: (ctx: SendContext) => SendResult = () => ({ ok: true, httpStatus: 200 });

const sender: DestinationSender = {
  concurrencyKey: () => 'test',
  send: async (ctx) => {
    sent.push(ctx);
    return answer(ctx);
  },
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'chime-timer-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
let n = 0;
beforeEach(async () => {
  handle = createDatabase(path.join(dir, `chime-${++n}.db`));
  await migrateToLatest(handle.db);
  clock = new ManualClock(T0);
  sent.length = 0;
  answer = () => ({ ok: true, httpStatus: 200 });
  scheduler = new Scheduler(handle.db, silent, createSchedulerMetrics(async () => 0), { retryDelaysMs: [30_000], retryJitter: 0, flushIntervalMs: 100 }, clock);
  scheduler.registerSender('webhook', sender);
});
afterEach(async () => {
  await scheduler.stop();
  await handle.db.destroy();
});

const db = () => handle.db;
const deliveriesOf = (id: string) => db().selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();

describe('Scheduler with a manual clock', () => {
  it('arms one timer at the next fire and sends exactly then; results are written after the flush interval', async () => {
    const accountId = await seedAccount(db());
    const { id } = await seedReminder(db(), { accountId, at: T0 + 5_000, destinations: [{ url: 'http://a.test/' }] });
    await scheduler.start();
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(T0 + 5_000);

    await clock.advance(4_999);
    expect(sent).toHaveLength(0);
    await clock.advance(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.firedAt).toBe(new Date(T0 + 5_000).toISOString());
    expect((await deliveriesOf(id))[0]!.status).toBe('pending');
    expect(scheduler.stats().pendingResults).toBe(1);

    await clock.advance(100);
    expect(await deliveriesOf(id)).toMatchObject([{ status: 'delivered', attempts: 1 }]);
    expect(scheduler.idle()).toBe(true);
    expect(scheduler.stats().timerAt).toBe(Number.POSITIVE_INFINITY);
  });

  it('wake() re-arms for a nearer reminder added later', async () => {
    const accountId = await seedAccount(db());
    await seedReminder(db(), { accountId, at: T0 + 3_600_000, destinations: [{ url: 'http://a.test/' }] });
    await scheduler.start();
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(T0 + 3_600_000);

    const near = await seedReminder(db(), { accountId, at: T0 + 2_000, destinations: [{ url: 'http://a.test/' }] });
    scheduler.wake();
    scheduler.wake();
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(T0 + 2_000);
    await clock.advance(2_000);
    expect(sent.map((c) => c.reminder.id)).toEqual([near.id]);
  });

  it('a retryable failure re-arms the timer for the retry, which reuses the idempotency key', async () => {
    const accountId = await seedAccount(db());
    answer = (ctx) => (ctx.attempt === 1 ? { ok: false, retryable: true, code: 'TEST_DOWN', error: 'down' } : { ok: true });
    const { id } = await seedReminder(db(), { accountId, at: T0 + 1_000, destinations: [{ url: 'http://a.test/' }] });
    await scheduler.start();
    await clock.advance(1_000);
    expect(sent).toHaveLength(1);
    await clock.advance(100); // the failed attempt is written, with its next attempt time
    expect(await deliveriesOf(id)).toMatchObject([{ status: 'retrying', last_error_code: 'TEST_DOWN', next_attempt_at: new Date(T0 + 1_000 + 30_000).toISOString() }]);
    expect(scheduler.stats().timerAt).toBe(T0 + 31_000);

    await clock.advance(29_899);
    expect(sent).toHaveLength(1);
    await clock.advance(1);
    expect(sent.map((c) => c.attempt)).toEqual([1, 2]);
    expect(sent[1]!.idempotencyKey).toBe(sent[0]!.idempotencyKey);
    await clock.advance(100);
    expect(await deliveriesOf(id)).toMatchObject([{ status: 'delivered', attempts: 2, last_error_code: null }]);
  });

  it('tick() claims what is due without the loop (runOnce as the tests use it)', async () => {
    const accountId = await seedAccount(db());
    const { id } = await seedReminder(db(), { accountId, at: T0 - 1, destinations: [{ url: 'http://a.test/' }] });
    await scheduler.tick();
    expect(sent).toHaveLength(1);
    // The loop is off: no timer is armed.
    expect(scheduler.stats().timerAt).toBe(Number.POSITIVE_INFINITY);
    await clock.advance(100);
    expect((await deliveriesOf(id))[0]!.status).toBe('delivered');
  });
});
