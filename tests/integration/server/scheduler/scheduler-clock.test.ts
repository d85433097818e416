/**
 * The scheduler's wiring with a hand-moved clock on a real SQLite file: one timer armed at the
 * earliest due instant, re-armed by wake(), retries re-arming it, results written after the
 * flush interval. Time moves only when the test says so.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../../server/db/connection.ts';
import { migrateToLatest } from '../../../../server/db/migrate.ts';
import { ManualClock } from '../../../../server/scheduler/clock.ts';
import { createSchedulerMetrics } from '../../../../server/scheduler/metrics.ts';
import { Scheduler } from '../../../../server/scheduler/scheduler.ts';
import type { DestinationSender, SendContext, SendResult } from '../../../../server/scheduler/types.ts';
import { seedAccount, seedReminder } from '../../../helpers/webhook-sink.ts';

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
  // The timer's own rules first, claiming only what is due; "Prepared ahead" below adds the lead.
  scheduler = new Scheduler(handle.db, silent, createSchedulerMetrics(async () => 0), { retryDelaysMs: [30_000], retryJitter: 0, flushIntervalMs: 100, prepareAheadMs: 0 }, clock);
  scheduler.registerSender('webhook', sender);
});
afterEach(async () => {
  await scheduler.stop();
  await handle.db.destroy();
});

const db = () => handle.db;
const deliveriesOf = (id: string) => db().selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
const atMs = (ms: number) => new Date(T0 + ms).toISOString();

/** An outbox row for the first destination of `reminder`, as an earlier claim left it. */
async function insertDelivery(reminder: Awaited<ReturnType<typeof seedReminder>>, accountId: string, row: { occurrenceMs: number; status: 'pending' | 'retrying'; attempts: number; nextAttemptMs: number; leaseOwner?: string; leaseUntilMs?: number }) {
  await db()
    .insertInto('deliveries')
    .values({
      id: randomUUID(),
      reminder_id: reminder.id,
      destination_id: reminder.destinations[0]!.id,
      account_id: accountId,
      occurrence_utc: atMs(row.occurrenceMs),
      idempotency_key: `msg_${randomUUID()}`,
      status: row.status,
      attempts: row.attempts,
      next_attempt_at: atMs(row.nextAttemptMs),
      lease_owner: row.leaseOwner ?? null,
      lease_expires_at: row.leaseUntilMs === undefined ? null : atMs(row.leaseUntilMs),
      late: 0,
      created_at: atMs(row.occurrenceMs),
      updated_at: atMs(row.occurrenceMs),
    })
    .execute();
}

/**
 * `db()` watching the scheduler's reads of the next fire (the first statement of a re-arm): it
 * counts them, and `holdNext()` makes the next one wait to answer until released.
 */
function watchedNextFireReads() {
  let reads = 0;
  let hold: { held: Promise<void>; release: () => void; taken: boolean } | null = null;
  const nextFireReads = new WeakSet<object>();
  const watched = db().withPlugin({
    transformQuery(args) {
      const node = args.node as { kind: string; selections?: unknown[]; limit?: unknown };
      if (node.kind === 'SelectQueryNode' && node.selections?.length === 1 && node.limit && JSON.stringify(node.selections).includes('"next_fire_utc"')) {
        nextFireReads.add(args.queryId);
        reads++;
      }
      return args.node;
    },
    async transformResult(args) {
      if (hold && !hold.taken && nextFireReads.has(args.queryId)) {
        hold.taken = true;
        await hold.held;
      }
      return args.result;
    },
  });
  return {
    db: watched,
    reads: () => reads,
    holdNext(): { taken: () => boolean; release: () => void } {
      let release!: () => void;
      const current = { held: new Promise<void>((r) => (release = r)), release: () => release(), taken: false };
      hold = current;
      return { taken: () => current.taken, release: current.release };
    },
  };
}

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

  /**
   * A scheduler whose tick is held at its read of the next fire (no reminder yet), and a reminder
   * due in 2 s added meanwhile: release() lets the held read answer.
   */
  async function reminderAddedDuringAClaim(): Promise<{ id: string; release: () => void; ticking: Promise<void> }> {
    const watched = watchedNextFireReads();
    scheduler = new Scheduler(watched.db, silent, createSchedulerMetrics(async () => 0), { flushIntervalMs: 100, prepareAheadMs: 0 }, clock);
    scheduler.registerSender('webhook', sender);
    await scheduler.start();
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(Number.POSITIVE_INFINITY);
    const hold = watched.holdNext();
    const ticking = scheduler.tick();
    await clock.advance(0);
    expect(hold.taken()).toBe(true);
    const accountId = await seedAccount(db());
    const { id } = await seedReminder(db(), { accountId, at: T0 + 2_000, destinations: [{ url: 'http://a.test/' }] });
    return { id, release: hold.release, ticking };
  }

  it('a re-arm that read the table before wake() answered after it does not put the older timer back', async () => {
    // wake()'s own read arms the timer for the reminder; the held read (no reminder yet) answers after.
    const { id, release, ticking } = await reminderAddedDuringAClaim();
    scheduler.wake();
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(T0 + 2_000);
    release();
    await ticking;
    expect(scheduler.stats().timerAt).toBe(T0 + 2_000);
    await clock.advance(2_000);
    expect(sent.map((c) => c.reminder.id)).toEqual([id]);
  });

  /**
   * A scheduler with a prepare-ahead second, counting its reads of the next fire, started with one
   * reminder due at `atMs`; its timer is armed.
   */
  async function startedCountingReads(atMs: number): Promise<{ reads: () => number; readsAtStart: number; accountId: string }> {
    const watched = watchedNextFireReads();
    scheduler = new Scheduler(watched.db, silent, createSchedulerMetrics(async () => 0), { flushIntervalMs: 100, prepareAheadMs: 1_000 }, clock);
    scheduler.registerSender('webhook', sender);
    const accountId = await seedAccount(db());
    await seedReminder(db(), { accountId, at: atMs, destinations: [{ url: 'http://a.test/' }] });
    await scheduler.start();
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(atMs - 1_000);
    return { reads: watched.reads, readsAtStart: watched.reads(), accountId };
  }

  it('a wake that names the changed reminder\'s instant moves the timer earlier without reading the table', async () => {
    const { reads, readsAtStart, accountId } = await startedCountingReads(T0 + 3_600_000);
    const near = await seedReminder(db(), { accountId, at: T0 + 5_000, destinations: [{ url: 'http://a.test/' }] });
    scheduler.wake(T0 + 5_000);
    await clock.advance(0);
    // Prepared a second ahead, as a re-arm from the table would.
    expect(scheduler.stats().timerAt).toBe(T0 + 4_000);
    expect(reads()).toBe(readsAtStart);
    await clock.advance(5_000);
    expect(sent.map((c) => c.reminder.id)).toEqual([near.id]);
  });

  it('a wake that made nothing sooner (a pause, a delete, a later instant) leaves the timer, without reading the table', async () => {
    const { reads, readsAtStart } = await startedCountingReads(T0 + 60_000);
    scheduler.wake(null);
    scheduler.wake(T0 + 3_600_000);
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(T0 + 59_000);
    expect(reads()).toBe(readsAtStart);
    // A wake that cannot say reads the table.
    scheduler.wake();
    await clock.advance(0);
    expect(reads()).toBe(readsAtStart + 1);
  });

  it('a named wake while a claim is under way reads the table after all, so the reminder it names is not missed', async () => {
    const { id, release, ticking } = await reminderAddedDuringAClaim();
    scheduler.wake(T0 + 2_000);
    await clock.advance(0);
    release();
    await ticking;
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(T0 + 2_000);
    await clock.advance(2_000);
    expect(sent.map((c) => c.reminder.id)).toEqual([id]);
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

  it('a retry written after an outbox read that already passed its time is still sent then (not at the safety net)', async () => {
    // The retry is due 50 ms after the failure, but results are written 100 ms after it; meanwhile
    // the outbox is read past the retry's time: for another delivery's retry (which moves the
    // retrying sweep's cursor) and for another reminder.
    scheduler.setOptions({ retryDelaysMs: [50] });
    const accountId = await seedAccount(db());
    answer = (ctx) => (ctx.reminder.message === 'Flaky' && ctx.attempt === 1 ? { ok: false, retryable: true, code: 'TEST_DOWN', error: 'down' } : { ok: true });
    const flaky = await seedReminder(db(), { accountId, at: T0 + 1_000, message: 'Flaky', destinations: [{ url: 'http://a.test/' }] });
    await seedReminder(db(), { accountId, at: T0 + 1_080, message: 'Other', destinations: [{ url: 'http://b.test/' }] });
    const waiting = await seedReminder(db(), { accountId, at: T0 + 3_600_000, message: 'Waiting', destinations: [{ url: 'http://c.test/' }] });
    await insertDelivery(waiting, accountId, { occurrenceMs: -60_000, status: 'retrying', attempts: 1, nextAttemptMs: 1_060 });
    await scheduler.start();
    await clock.advance(1_000);
    await clock.advance(60); // the waiting retry is read and sent: the retrying cursor is at T0 + 1060
    await clock.advance(20); // the other reminder's tick reads the outbox up to T0 + 1080
    expect(sent.map((c) => `${c.reminder.message} ${c.attempt}`)).toEqual(['Flaky 1', 'Waiting 2', 'Other 1']);
    await clock.advance(20); // the results are written: the retry, due at T0 + 1050, lies behind both
    expect(await deliveriesOf(flaky.id)).toMatchObject([{ status: 'retrying', next_attempt_at: atMs(1_050) }]);
    await clock.advance(0);
    await clock.advance(1);
    expect(sent.filter((c) => c.reminder.id === flaky.id).map((c) => c.attempt)).toEqual([1, 2]);
    await clock.advance(100);
    expect(await deliveriesOf(flaky.id)).toMatchObject([{ status: 'delivered', attempts: 2 }]);
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

  it('a start the database fails (PostgreSQL out of connections, restarting) retries a second later and takes back its earlier life\'s leases then', async () => {
    // The delivery this instance's earlier life leased and never sent (it was killed): its lease
    // still runs for 30 s.
    const accountId = await seedAccount(db());
    const left = await seedReminder(db(), { accountId, at: T0 + 3_600_000, message: 'Left behind', destinations: [{ url: 'http://a.test/' }] });
    await insertDelivery(left, accountId, { occurrenceMs: -1_000, status: 'pending', attempts: 0, nextAttemptMs: -1_000, leaseOwner: 'box-1:t0', leaseUntilMs: 29_000 });
    const soon = await seedReminder(db(), { accountId, at: T0 + 500, message: 'Due soon', destinations: [{ url: 'http://b.test/' }] });
    // The first two statements fail as a database that refuses connections does.
    let failures = 2;
    const failing = db().withPlugin({
      transformQuery(args) {
        if (failures > 0) {
          failures--;
          throw new Error('sorry, too many clients already');
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    scheduler = new Scheduler(failing, silent, createSchedulerMetrics(async () => 0), { flushIntervalMs: 100, prepareAheadMs: 0, leaseOwner: 'box-1:t0' }, clock);
    scheduler.registerSender('webhook', sender);
    const starting = scheduler.start();
    await clock.advance(0);
    expect(failures).toBe(0);
    // The loop runs meanwhile: what falls due is sent on time.
    await clock.advance(500);
    expect(sent.map((c) => c.reminder.id)).toEqual([soon.id]);
    // A second after the failure the leases of the earlier life are taken back and sent, long before they expire.
    await clock.advance(500);
    await starting;
    expect(sent.map((c) => c.reminder.id)).toEqual([soon.id, left.id]);
  });
});

describe('Prepared ahead (prepareAheadMs)', () => {
  const reminderRow = (id: string) => db().selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  beforeEach(() => scheduler.setOptions({ prepareAheadMs: 1_000 }));

  it('claims a reminder a second before it is due and sends it exactly at its instant, with the text it has then', async () => {
    const accountId = await seedAccount(db());
    const { id } = await seedReminder(db(), { accountId, at: T0 + 5_000, message: 'As written', recurrence: 'DAILY', destinations: [{ url: 'http://a.test/' }] });
    await scheduler.start();
    await clock.advance(0);
    expect(scheduler.stats().timerAt).toBe(T0 + 4_000);

    await clock.advance(4_000);
    // Written to the outbox for its instant, unleased: whichever instance is free then sends it.
    expect(await deliveriesOf(id)).toMatchObject([{ status: 'pending', attempts: 0, lease_owner: null, next_attempt_at: new Date(T0 + 5_000).toISOString(), occurrence_utc: new Date(T0 + 5_000).toISOString(), late: 0 }]);
    // The reminder has moved on to its next occurrence, recorded as fired at its instant.
    expect(await reminderRow(id)).toMatchObject({ next_fire_utc: new Date(T0 + 5_000 + 86_400_000).toISOString(), last_fired_at: new Date(T0 + 5_000).toISOString() });
    expect(scheduler.stats().timerAt).toBe(T0 + 5_000);
    expect(sent).toHaveLength(0);

    // The text is read when the delivery is taken from the outbox, not when it was prepared.
    await db().updateTable('reminders').set({ message: 'As edited' }).where('id', '=', id).execute();
    await clock.advance(999);
    expect(sent).toHaveLength(0);
    await clock.advance(1);
    expect(sent.map((c) => [c.reminder.message, c.firedAt, c.late])).toEqual([['As edited', new Date(T0 + 5_000).toISOString(), false]]);
    await clock.advance(100);
    expect(await deliveriesOf(id)).toMatchObject([{ status: 'delivered', attempts: 1 }]);
  });

  it('a prepared delivery sent later than the late threshold (its instance stalled or died) is marked late', async () => {
    const accountId = await seedAccount(db());
    const { id } = await seedReminder(db(), { accountId, at: T0 + 5_000, destinations: [{ url: 'http://a.test/' }] });
    await scheduler.start();
    await clock.advance(4_000);
    expect(await deliveriesOf(id)).toMatchObject([{ status: 'pending', late: 0 }]);
    // This instance stops before the instant; the next start finds the row when it is long past.
    await scheduler.stop();
    clock = new ManualClock(T0 + 5_000 + 10 * 60_000);
    scheduler = new Scheduler(handle.db, silent, createSchedulerMetrics(async () => 0), { flushIntervalMs: 100 }, clock);
    scheduler.registerSender('webhook', sender);
    await scheduler.start();
    await clock.advance(0);
    expect(sent.map((c) => [c.occurrenceUtc, c.late])).toEqual([[new Date(T0 + 5_000).toISOString(), true]]);
  });

  it('reminders due at once are all prepared before their instant, in batches, and each is sent once at it', async () => {
    const accountId = await seedAccount(db());
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) ids.push((await seedReminder(db(), { accountId, at: T0 + 5_000, destinations: [{ url: `http://h${i % 3}.test/` }] })).id);
    await scheduler.start();
    await clock.advance(4_000);
    const prepared = await db().selectFrom('deliveries').select(['reminder_id', 'lease_owner', 'next_attempt_at']).execute();
    expect(prepared).toHaveLength(120);
    expect(new Set(prepared.map((d) => `${d.lease_owner}|${d.next_attempt_at}`))).toEqual(new Set([`null|${new Date(T0 + 5_000).toISOString()}`]));
    expect(sent).toHaveLength(0);
    await clock.advance(1_000);
    for (let i = 0; i < 10 && sent.length < 120; i++) await clock.advance(0);
    expect(sent.map((c) => c.reminder.id).sort()).toEqual([...ids].sort());
    expect(new Set(sent.map((c) => c.firedAt))).toEqual(new Set([new Date(T0 + 5_000).toISOString()]));
  });
});
