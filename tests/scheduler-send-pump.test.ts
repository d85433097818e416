/**
 * The send pump alone: an outbox in memory, senders whose answers the test releases by hand, a
 * hand-moved clock. Concurrency limits, buffering limits, outbox paging, failure results and
 * shutdown, without timers or a database.
 */
import { describe, expect, it } from 'vitest';
import type { DestinationType } from '../server/db/database.ts';
import type { OutboxCursor, OutboxRow } from '../server/repositories/outbox.ts';
import { ManualClock } from '../server/scheduler/clock.ts';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../server/scheduler/options.ts';
import type { AttemptInput } from '../server/scheduler/result-recorder.ts';
import { SendPump } from '../server/scheduler/send-pump.ts';
import type { DestinationSender, SendContext, SendResult } from '../server/scheduler/types.ts';

const T0 = Date.UTC(2026, 10, 23, 8, 0, 0);
let seq = 0;

function row(host: string, overrides: Partial<OutboxRow> = {}): OutboxRow {
  seq += 1;
  const at = new Date(T0).toISOString();
  return {
    id: `d${String(seq).padStart(6, '0')}`,
    reminder_id: `r${seq}`,
    destination_id: `dest-${host}`,
    account_id: 'a1',
    occurrence_utc: at,
    idempotency_key: `msg_${seq}`,
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    late: 0,
    message: 'hello',
    recurrence_type: 'ONCE',
    reminder_timezone: 'UTC',
    remind_at_utc: at,
    destination_type: 'webhook',
    metadata: JSON.stringify({ url: `http://${host}/hook`, platform: 'generic' }),
    secret: null,
    disabled_at: null,
    disabled_reason: null,
    account_timezone: 'UTC',
    locale: null,
    username: 'alice',
    ...overrides,
  };
}

/** A sender whose sends wait until the test answers them. */
function manualSender(label = 'generic') {
  const calls: { ctx: SendContext; answer: (r: SendResult) => void }[] = [];
  const sender: DestinationSender = {
    concurrencyKey: (d) => `host:${new URL(String(d.metadata.url)).host}`,
    metricsLabel: () => label,
    send: (ctx) =>
      new Promise<SendResult>((resolve) => {
        calls.push({ ctx, answer: resolve });
        ctx.signal.addEventListener('abort', () => resolve({ ok: false, retryable: true, code: 'ABORTED', error: 'aborted' }));
      }),
  };
  const inFlightFor = (host: string) => calls.filter((c) => c.ctx.destination.id === `dest-${host}` && !answered.has(c)).length;
  const answered = new Set<(typeof calls)[number]>();
  const answerAll = (result: SendResult = { ok: true, httpStatus: 200 }, host?: string) => {
    for (const c of calls) {
      if (answered.has(c) || (host && c.ctx.destination.id !== `dest-${host}`)) continue;
      answered.add(c);
      c.answer(result);
    }
  };
  return { sender, calls, inFlightFor, answerAll };
}

/** An outbox table in memory, read the way loadOutboxPage reads it. */
function memoryOutbox(rows: OutboxRow[]) {
  const reads: { status: string; cursor: OutboxCursor | null }[] = [];
  return {
    reads,
    loadPage: async (status: 'pending' | 'retrying', nowIso: string, cursor: OutboxCursor | null, limit: number) => {
      reads.push({ status, cursor });
      return rows
        .filter((r) => r.status === status && r.next_attempt_at <= nowIso && (!cursor || r.next_attempt_at > cursor.at || (r.next_attempt_at === cursor.at && r.id > cursor.id)))
        .sort((a, b) => (a.next_attempt_at === b.next_attempt_at ? (a.id < b.id ? -1 : 1) : a.next_attempt_at < b.next_attempt_at ? -1 : 1))
        .slice(0, limit);
    },
  };
}

function setup(opts: { rows?: OutboxRow[]; options?: Partial<SchedulerOptions>; senders?: Partial<Record<DestinationType, DestinationSender>> } = {}) {
  const clock = new ManualClock(T0);
  const options: SchedulerOptions = { ...DEFAULT_SCHEDULER_OPTIONS, ...opts.options };
  const outbox = memoryOutbox(opts.rows ?? []);
  const results: AttemptInput[] = [];
  const logged: string[] = [];
  const pump = new SendPump({
    clock,
    options,
    loadPage: outbox.loadPage,
    senderFor: (type) => opts.senders?.[type],
    onResult: (attempt) => results.push(attempt),
    log: { error: (_o, msg) => logged.push(msg), warn: (_o, msg) => logged.push(msg), info: (_o, msg) => logged.push(msg) },
  });
  /** What the result recorder does once results are written: the rows leave memory and the table. */
  const writeBack = () => {
    const ids = results.map((r) => r.row.id);
    for (const r of opts.rows ?? []) if (ids.includes(r.id)) r.status = 'delivered';
    pump.release(ids);
  };
  return { clock, options, outbox, results, pump, logged, writeBack };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('SendPump: concurrency', () => {
  it('keeps within the overall and per-key limits, and one busy key does not hold the others back', async () => {
    const m = manualSender();
    const rows = [...Array.from({ length: 10 }, () => row('slow.test')), row('fast.test')];
    const { pump, results } = setup({ options: { concurrency: 4, perHostConcurrency: 2 }, senders: { webhook: m.sender } });
    for (const r of rows) expect(pump.offer(r)).toBe(true);
    pump.pump();
    // Two for the slow host (its limit), the fast host's one, and nothing more for the slow host.
    expect(m.inFlightFor('slow.test')).toBe(2);
    expect(m.inFlightFor('fast.test')).toBe(1);
    expect(pump.stats()).toEqual({ active: 3, queued: 8, known: 11 });

    m.answerAll({ ok: true, httpStatus: 200 }, 'fast.test');
    await settle();
    expect(results.map((r) => r.row.destination_id)).toEqual(['dest-fast.test']);
    expect(results[0]).toMatchObject({ attempt: 1, platform: 'generic', startedMs: T0, result: { ok: true } });

    // Each slow answer frees one slot for the next slow job.
    m.answerAll();
    await settle();
    expect(m.inFlightFor('slow.test')).toBe(2);
    expect(results).toHaveLength(3);
  });

  it('hands the sender everything about the delivery, with frozen shared metadata', async () => {
    const m = manualSender();
    const r = row('ctx.test', { attempts: 2, late: 1, secret: 'whsec_x', message: 'Stand-up', locale: 'fr' });
    const { pump } = setup({ senders: { webhook: m.sender } });
    pump.offer(r);
    pump.pump();
    const ctx = m.calls[0]!.ctx;
    expect(ctx).toMatchObject({
      deliveryId: r.id,
      idempotencyKey: r.idempotency_key,
      attempt: 3,
      late: true,
      firedAt: new Date(T0).toISOString(),
      reminder: { id: r.reminder_id, message: 'Stand-up' },
      account: { id: 'a1', locale: 'fr', username: 'alice' },
      destination: { id: 'dest-ctx.test', type: 'webhook', secret: 'whsec_x', metadata: { url: 'http://ctx.test/hook', platform: 'generic' } },
    });
    expect(Object.isFrozen(ctx.destination.metadata)).toBe(true);
    expect(ctx.test).toBeUndefined();
  });
});

describe('SendPump: failures without a send', () => {
  it('a disabled destination, a type without a sender and a crashing sender give coded failures', async () => {
    const crashing: DestinationSender = {
      concurrencyKey: () => 'crash',
      send: async () => {
        throw new Error('kaboom');
      },
    };
    const m = manualSender();
    const { pump, results } = setup({ senders: { webhook: m.sender, discord_channel: crashing } });
    pump.offer(row('off.test', { disabled_at: new Date(T0).toISOString(), disabled_reason: 'HTTP 410' }));
    pump.offer(row('x', { destination_type: 'discord_dm', metadata: '{}' }));
    pump.offer(row('y', { destination_type: 'discord_channel', metadata: '{}' }));
    pump.pump();
    await settle();
    expect(m.calls).toHaveLength(0);
    const byType = Object.fromEntries(results.map((r) => [{ 'dest-off.test': 'disabled', 'dest-x': 'discord_dm', 'dest-y': 'discord_channel' }[r.row.destination_id], r]));
    expect(byType.disabled!.result).toEqual({ ok: false, retryable: false, code: 'DESTINATION_DISABLED', error: 'Destination is disabled: HTTP 410' });
    expect(byType.discord_dm!.result).toMatchObject({ ok: false, retryable: false, code: 'DESTINATION_NOT_CONFIGURED' });
    expect(byType.discord_dm!.platform).toBe('discord_dm');
    expect(byType.discord_channel!.result).toEqual({ ok: false, retryable: true, code: 'SEND_CRASHED', error: 'Unexpected error: kaboom' });
  });

  it('after a result that disables the destination, its queued rows are not sent', async () => {
    const m = manualSender();
    const { pump, results } = setup({ options: { perHostConcurrency: 1 }, senders: { webhook: m.sender } });
    pump.offer(row('gone.test'));
    pump.offer(row('gone.test'));
    pump.pump();
    m.answerAll({ ok: false, retryable: false, code: 'WEBHOOK_GONE', error: 'HTTP 410', disableDestination: true });
    await settle();
    expect(m.calls).toHaveLength(1);
    expect(results.map((r) => (r.result.ok ? 'ok' : r.result.code))).toEqual(['WEBHOOK_GONE', 'DESTINATION_DISABLED']);
  });
});

describe('SendPump: memory bounds and outbox paging', () => {
  it('refuses rows beyond maxBuffered and maxBufferedPerKey; they stay in the table', () => {
    const m = manualSender();
    const { pump } = setup({ options: { maxBuffered: 5, maxBufferedPerKey: 3 }, senders: { webhook: m.sender } });
    const held = row('a.test');
    expect(pump.offer(held)).toBe(true);
    // A row already held is taken again without being held twice.
    expect(pump.offer(held)).toBe(true);
    expect([1, 2, 3].map(() => pump.offer(row('a.test')))).toEqual([true, true, false]);
    expect([1, 2, 3].map(() => pump.offer(row('b.test')))).toEqual([true, true, false]);
    expect(pump.offer(row('c.test'))).toBe(false);
    expect(pump.stats()).toMatchObject({ known: 5, queued: 5 });
  });

  it('pages through the outbox, never skips a row left behind, and reads on when room comes back', async () => {
    const m = manualSender();
    const rows = Array.from({ length: 9 }, () => row('one.test'));
    const { pump, outbox, results, writeBack } = setup({
      rows,
      options: { maxBuffered: 100, maxBufferedPerKey: 4, pageSize: 3, concurrency: 2, perHostConcurrency: 2 },
      senders: { webhook: m.sender },
    });
    await pump.fill();
    expect(pump.stats().known).toBe(4);
    expect(m.calls.map((c) => c.ctx.deliveryId)).toEqual([rows[0]!.id, rows[1]!.id]);

    // Sends finish and their results are written: the pump reads the rest, in order, once each.
    for (let round = 0; round < 10 && results.length < 9; round++) {
      m.answerAll();
      await settle();
      writeBack();
      await settle();
    }
    expect(results.map((r) => r.row.id)).toEqual(rows.map((r) => r.id));
    expect(new Set(m.calls.map((c) => c.ctx.deliveryId)).size).toBe(9);
    expect(outbox.reads.length).toBeGreaterThan(1);
  });

  it('claimed rows are queued at once and, while caught up, the next read starts after them', async () => {
    const m = manualSender();
    const { pump, outbox } = setup({ senders: { webhook: m.sender } });
    await pump.fill(); // empty outbox: caught up
    const claimed = [row('a.test'), row('a.test')];
    pump.acceptClaimed(claimed, true);
    expect(m.calls).toHaveLength(2);
    await pump.fill();
    expect(outbox.reads.at(-2)).toEqual({ status: 'pending', cursor: { at: claimed[1]!.next_attempt_at, id: claimed[1]!.id } });
  });

  it('an incomplete claim makes the pump read the outbox for the rest', async () => {
    const m = manualSender();
    const inTable = row('a.test');
    const { pump, outbox } = setup({ rows: [inTable], senders: { webhook: m.sender } });
    pump.acceptClaimed([], false);
    await settle();
    expect(outbox.reads.length).toBeGreaterThan(0);
    expect(m.calls.map((c) => c.ctx.deliveryId)).toEqual([inTable.id]);
  });

  it('marks what it has read up to with the clock', async () => {
    const { pump, clock } = setup();
    expect(pump.seenUntilIso).toBe(new Date(0).toISOString());
    await clock.advance(5_000);
    await pump.fill();
    expect(pump.seenUntilIso).toBe(new Date(T0 + 5_000).toISOString());
  });
});

describe('SendPump: shutdown', () => {
  it('queued jobs are dropped, in-flight ones get the grace period, then are aborted and not reported', async () => {
    const m = manualSender();
    const { pump, results, clock, logged } = setup({ options: { concurrency: 1 }, senders: { webhook: m.sender } });
    pump.offer(row('a.test'));
    pump.offer(row('a.test'));
    pump.pump();
    expect(pump.stats()).toMatchObject({ active: 1, queued: 1 });
    const stopped = pump.stop(10_000);
    await settle();
    expect(pump.stats()).toMatchObject({ active: 1, queued: 0 });
    await clock.advance(9_999);
    expect(m.calls[0]!.ctx.signal.aborted).toBe(false);
    await clock.advance(1);
    await stopped;
    expect(m.calls[0]!.ctx.signal.aborted).toBe(true);
    expect(results).toHaveLength(0);
    expect(pump.stats()).toEqual({ active: 0, queued: 0, known: 0 });
    expect(logged.some((l) => l.includes('abandoning'))).toBe(true);
    // Nothing new starts after a stop.
    pump.offer(row('b.test'));
    pump.pump();
    expect(m.calls).toHaveLength(1);
  });

  it('a send that finishes within the grace period is reported', async () => {
    const m = manualSender();
    const { pump, results } = setup({ senders: { webhook: m.sender } });
    pump.offer(row('a.test'));
    pump.pump();
    const stopped = pump.stop(10_000);
    m.answerAll();
    await stopped;
    expect(results).toHaveLength(1);
    expect(m.calls[0]!.ctx.signal.aborted).toBe(false);
  });
});
