/**
 * The send pump alone: claimed rows handed in by the test, senders whose answers the test releases
 * by hand, a hand-moved clock. Its states, concurrency limits, memory bounds, failure results and
 * shutdown, without timers or a database.
 */
import { describe, expect, it } from 'vitest';
import type { DestinationType } from '../../../../server/db/database.ts';
import type { OutboxRow } from '../../../../server/repositories/outbox.ts';
import { ManualClock } from '../../../../server/scheduler/clock.ts';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../../../../server/scheduler/options.ts';
import type { AttemptInput } from '../../../../server/scheduler/result-recorder.ts';
import { SendPump } from '../../../../server/scheduler/send-pump.ts';
import type { DestinationSender, SendContext, SendResult } from '../../../../server/scheduler/types.ts';

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
    alert_minutes: 0,
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

function setup(opts: { options?: Partial<SchedulerOptions>; senders?: Partial<Record<DestinationType, DestinationSender>> } = {}) {
  const clock = new ManualClock(T0);
  const options: SchedulerOptions = { ...DEFAULT_SCHEDULER_OPTIONS, ...opts.options };
  const results: AttemptInput[] = [];
  const logged: string[] = [];
  let roomCalls = 0;
  const pump = new SendPump({
    clock,
    options,
    senderFor: (type) => opts.senders?.[type],
    onResult: (attempt) => results.push(attempt),
    onRoom: () => void (roomCalls += 1),
    log: { warn: (_o, msg) => logged.push(msg) },
  });
  /** What the result recorder does once results are written: the rows leave memory. */
  const writeBack = () => pump.release(results.map((r) => r.row.id));
  return { clock, options, results, pump, logged, writeBack, roomCalls: () => roomCalls };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('SendPump: concurrency', () => {
  it('keeps within the overall and per-key limits, and one busy key does not hold the others back', async () => {
    const m = manualSender();
    const rows = [...Array.from({ length: 10 }, () => row('slow.test')), row('fast.test')];
    const { pump, results } = setup({ options: { concurrency: 4, perHostConcurrency: 2 }, senders: { webhook: m.sender } });
    expect(pump.accept(rows)).toEqual([]);
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
    pump.accept([r]);
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
    pump.accept([row('off.test', { disabled_at: new Date(T0).toISOString(), disabled_reason: 'HTTP 410' })]);
    pump.accept([row('x', { destination_type: 'discord_dm', metadata: '{}' })]);
    pump.accept([row('y', { destination_type: 'discord_channel', metadata: '{}' })]);
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
    pump.accept([row('gone.test')]);
    pump.accept([row('gone.test')]);
    m.answerAll({ ok: false, retryable: false, code: 'WEBHOOK_GONE', error: 'HTTP 410', disableDestination: true });
    await settle();
    expect(m.calls).toHaveLength(1);
    expect(results.map((r) => (r.result.ok ? 'ok' : r.result.code))).toEqual(['WEBHOOK_GONE', 'DESTINATION_DISABLED']);
  });
});

describe('SendPump: memory bounds and states', () => {
  it('takes rows up to maxBuffered and maxBufferedPerKey and answers the ones left for the table', () => {
    const m = manualSender();
    const { pump } = setup({ options: { maxBuffered: 5, maxBufferedPerKey: 3 }, senders: { webhook: m.sender } });
    const held = row('a.test');
    expect(pump.accept([held])).toEqual([]);
    // A row already held is not held twice.
    expect(pump.accept([held])).toEqual([]);
    const a = [row('a.test'), row('a.test'), row('a.test')];
    expect(pump.accept(a)).toEqual([a[2]!.id]);
    const b = [row('b.test'), row('b.test'), row('b.test')];
    expect(pump.accept(b)).toEqual([b[2]!.id]);
    const c = row('c.test');
    expect(pump.accept([c])).toEqual([c.id]);
    expect(pump.stats()).toMatchObject({ known: 5 });
    expect(pump.room()).toBe(0);
  });

  it('idle -> draining -> idle as rows come and their results are written', async () => {
    const m = manualSender();
    const { pump, writeBack } = setup({ senders: { webhook: m.sender } });
    expect(pump.state).toBe('idle');
    pump.accept([row('a.test'), row('a.test')]);
    expect(pump.state).toBe('draining');
    m.answerAll();
    await settle();
    // Sent, but held until the results are in the database.
    expect(pump.state).toBe('draining');
    expect(pump.heldIds()).toHaveLength(2);
    writeBack();
    expect(pump.state).toBe('idle');
    expect(pump.room()).toBe(DEFAULT_SCHEDULER_OPTIONS.maxBuffered);
  });

  it('a full key waits for room: its key is skipped by claims until half its share is free, then onRoom', async () => {
    const m = manualSender();
    const { pump, results, roomCalls } = setup({ options: { maxBuffered: 100, maxBufferedPerKey: 4, perHostConcurrency: 1 }, senders: { webhook: m.sender } });
    const rows = Array.from({ length: 6 }, () => row('slow.test'));
    expect(pump.accept(rows)).toEqual([rows[4]!.id, rows[5]!.id]);
    expect(pump.state).toBe('waiting-for-room');
    expect(pump.fullKeys()).toEqual(['host:slow.test']);
    // Another key still has room.
    expect(pump.accept([row('fast.test')])).toEqual([]);
    for (let i = 0; i < 3; i++) {
      m.answerAll();
      await settle();
    }
    const slow = results.filter((r) => r.row.destination_id === 'dest-slow.test');
    expect(slow).toHaveLength(3);
    // One result written: 3 of 4 held, not yet half a share free.
    pump.release([slow[0]!.row.id]);
    expect(pump.state).toBe('waiting-for-room');
    expect(pump.fullKeys()).toEqual(['host:slow.test']);
    expect(roomCalls()).toBe(0);
    pump.release([slow[1]!.row.id]);
    expect(pump.state).toBe('draining');
    expect(pump.fullKeys()).toEqual([]);
    expect(roomCalls()).toBe(1);
  });

  it('memory full overall: waiting-for-room until half of maxBuffered is free', () => {
    const m = manualSender();
    const { pump, roomCalls } = setup({ options: { maxBuffered: 4, maxBufferedPerKey: 4 }, senders: { webhook: m.sender } });
    const rows = Array.from({ length: 4 }, (_, i) => row(`h${i}.test`));
    pump.accept(rows);
    expect(pump.room()).toBe(0);
    pump.wantRoom();
    expect(pump.state).toBe('waiting-for-room');
    pump.release([rows[0]!.id]);
    expect(pump.state).toBe('waiting-for-room');
    pump.release([rows[1]!.id]);
    expect(pump.state).toBe('draining');
    expect(roomCalls()).toBe(1);
  });
});

describe('SendPump: shutdown', () => {
  it('queued jobs are dropped, in-flight ones get the grace period, then are aborted and not reported', async () => {
    const m = manualSender();
    const { pump, results, clock, logged } = setup({ options: { concurrency: 1 }, senders: { webhook: m.sender } });
    pump.accept([row('a.test')]);
    pump.accept([row('a.test')]);
    expect(pump.stats()).toMatchObject({ active: 1, queued: 1 });
    const stopped = pump.stop(10_000);
    await settle();
    expect(pump.state).toBe('stopping');
    expect(pump.stats()).toMatchObject({ active: 1, queued: 0 });
    await clock.advance(9_999);
    expect(m.calls[0]!.ctx.signal.aborted).toBe(false);
    await clock.advance(1);
    await stopped;
    expect(m.calls[0]!.ctx.signal.aborted).toBe(true);
    expect(results).toHaveLength(0);
    expect(pump.stats()).toEqual({ active: 0, queued: 0, known: 0 });
    expect(pump.state).toBe('stopped');
    expect(logged.some((l) => l.includes('abandoning'))).toBe(true);
    // Nothing new is taken or started after a stop.
    const late = row('b.test');
    expect(pump.accept([late])).toEqual([late.id]);
    expect(m.calls).toHaveLength(1);
  });

  it('a send that finishes within the grace period is reported', async () => {
    const m = manualSender();
    const { pump, results } = setup({ senders: { webhook: m.sender } });
    pump.accept([row('a.test')]);
    const stopped = pump.stop(10_000);
    m.answerAll();
    await stopped;
    expect(results).toHaveLength(1);
    expect(m.calls[0]!.ctx.signal.aborted).toBe(false);
  });
});
