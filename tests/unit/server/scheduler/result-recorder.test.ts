/**
 * The result recorder alone: outcomes, retry times, batching and write retries with a hand-moved
 * clock and a fake writer. No timers, no database.
 */
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../../server/repositories/attempt-results.ts';
import { ManualClock } from '../../../../server/scheduler/clock.ts';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../../../../server/scheduler/options.ts';
import { type AttemptInput, FLUSH_AT_COUNT, ResultRecorder, WRITE_RETRY_MS } from '../../../../server/scheduler/result-recorder.ts';
import type { SendResult } from '../../../../server/scheduler/types.ts';

const T0 = Date.UTC(2026, 10, 23, 8, 0, 0);

function setup(options: Partial<SchedulerOptions> = {}, random = () => 0.5) {
  const clock = new ManualClock(T0);
  const opts: SchedulerOptions = { ...DEFAULT_SCHEDULER_OPTIONS, retryDelaysMs: [1_000, 10_000], retryJitter: 0.2, flushIntervalMs: 100, ...options };
  const writes: AttemptRecord[][] = [];
  const written: AttemptRecord[][] = [];
  let failNext = 0;
  const counted: Array<Record<string, string>> = [];
  let retries = 0;
  let databaseErrors = 0;
  const logs: string[] = [];
  const recorder = new ResultRecorder({
    clock,
    options: opts,
    write: async (records) => {
      writes.push([...records]);
      if (failNext > 0) {
        failNext -= 1;
        throw new Error('database is locked');
      }
    },
    onWritten: (batch) => written.push(batch),
    metrics: {
      deliveries: { inc: (labels: Record<string, string>) => counted.push(labels) } as never,
      retries: { inc: () => (retries += 1) } as never,
      databaseErrors: { inc: () => (databaseErrors += 1) } as never,
    },
    log: { info: (_o, msg) => logs.push(msg), error: (_o, msg) => logs.push(msg) },
    random,
  });
  return { clock, opts, recorder, writes, written, counted, logs, failWrites: (n: number) => (failNext = n), retries: () => retries, databaseErrors: () => databaseErrors };
}

let seq = 0;
function attempt(result: SendResult, extra: Partial<AttemptInput> = {}): AttemptInput {
  seq += 1;
  return {
    row: { id: `d${seq}`, reminder_id: `r${seq}`, destination_id: `dest${seq}`, account_id: 'a1', occurrence_utc: new Date(T0).toISOString() },
    platform: 'generic',
    attempt: 1,
    startedMs: T0,
    result,
    ...extra,
  };
}

const ok: SendResult = { ok: true, httpStatus: 204 };
const fail5xx: SendResult = { ok: false, retryable: true, code: 'WEBHOOK_HTTP_5XX', error: 'HTTP 503 from x', httpStatus: 503 };

describe('ResultRecorder: outcomes', () => {
  it('delivered: no error, no code, duration from the clock', async () => {
    const { recorder, clock, counted } = setup();
    await clock.advance(40);
    const r = recorder.record(attempt(ok));
    expect(r).toMatchObject({ outcome: 'delivered', error: null, errorCode: null, httpStatus: 204, durationMs: 40, nextAttemptAt: null, disableReason: null });
    expect(r.startedAt).toBe(new Date(T0).toISOString());
    expect(r.finishedAt).toBe(new Date(T0 + 40).toISOString());
    expect(counted).toEqual([{ platform: 'generic', outcome: 'delivered' }]);
  });

  it('retryable failures retry after the attempt\'s delay with jitter, until the budget is spent', () => {
    const { recorder, retries, counted } = setup({}, () => 1); // jitter at its top: +20 %
    const first = recorder.record(attempt(fail5xx, { attempt: 1 }));
    expect(first).toMatchObject({ outcome: 'retrying', error: 'HTTP 503 from x', errorCode: 'WEBHOOK_HTTP_5XX', httpStatus: 503 });
    expect(first.nextAttemptAt).toBe(new Date(T0 + 1_200).toISOString());
    const second = recorder.record(attempt(fail5xx, { attempt: 2 }));
    expect(second.nextAttemptAt).toBe(new Date(T0 + 12_000).toISOString());
    // Two delays: the third attempt is the last.
    expect(recorder.record(attempt(fail5xx, { attempt: 3 }))).toMatchObject({ outcome: 'failed', nextAttemptAt: null });
    expect(retries()).toBe(2);
    expect(counted.map((c) => c.outcome)).toEqual(['retrying', 'retrying', 'failed']);
  });

  it('Retry-After wins over a shorter delay', () => {
    const { recorder } = setup();
    const r = recorder.record(attempt({ ...fail5xx, code: 'WEBHOOK_RATE_LIMITED', retryAfterMs: 30_000 }));
    expect(r.nextAttemptAt).toBe(new Date(T0 + 30_000).toISOString());
    // A Retry-After shorter than the delay does not shorten it.
    const short = recorder.record(attempt({ ...fail5xx, code: 'WEBHOOK_RATE_LIMITED', retryAfterMs: 10 }));
    expect(short.nextAttemptAt).toBe(new Date(T0 + 1_000).toISOString());
  });

  it('a permanent failure fails at once; one that disables the destination says why', () => {
    const { recorder, logs } = setup();
    const r = recorder.record(attempt({ ok: false, retryable: false, code: 'WEBHOOK_GONE', error: 'HTTP 410 from x: the endpoint is gone', disableDestination: true, httpStatus: 410 }));
    expect(r).toMatchObject({ outcome: 'failed', errorCode: 'WEBHOOK_GONE', disableReason: 'HTTP 410 from x: the endpoint is gone', disableCode: 'WEBHOOK_GONE' });
    expect(logs).toEqual(['delivery attempt failed']);
  });
});

describe('ResultRecorder: batched writes', () => {
  it('writes everything recorded within flushIntervalMs in one batch, then hands it on', async () => {
    const { recorder, clock, writes, written } = setup();
    recorder.record(attempt(ok));
    await clock.advance(50);
    recorder.record(attempt(fail5xx));
    expect(recorder.pending).toBe(2);
    expect(recorder.idle()).toBe(false);
    await clock.advance(49);
    expect(writes).toHaveLength(0);
    await clock.advance(1);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.map((r) => r.outcome)).toEqual(['delivered', 'retrying']);
    expect(written).toEqual(writes);
    expect(recorder.idle()).toBe(true);
  });

  it(`writes at once when ${FLUSH_AT_COUNT} are waiting`, async () => {
    const { recorder, writes, clock } = setup();
    for (let i = 0; i < FLUSH_AT_COUNT; i++) recorder.record(attempt(ok));
    await clock.advance(0);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(FLUSH_AT_COUNT);
  });

  it('a failed write keeps the results, in order, and tries again later', async () => {
    const { recorder, clock, writes, written, failWrites, logs, databaseErrors } = setup();
    failWrites(1);
    const a = recorder.record(attempt(ok));
    await clock.advance(100);
    expect(writes).toHaveLength(1);
    expect(written).toHaveLength(0);
    expect(logs.some((l) => l.includes('writing delivery results failed'))).toBe(true);
    expect(databaseErrors()).toBe(1);
    const b = recorder.record(attempt(ok));
    expect(recorder.pending).toBe(2);
    await clock.advance(WRITE_RETRY_MS - 1);
    expect(writes).toHaveLength(1);
    await clock.advance(1);
    expect(writes).toHaveLength(2);
    expect(written).toHaveLength(1);
    expect(written[0]!.map((r) => r.deliveryId)).toEqual([a.deliveryId, b.deliveryId]);
  });

  it('stop() writes what is left and sets no timer', async () => {
    const { recorder, clock, writes } = setup();
    recorder.record(attempt(ok));
    await recorder.stop();
    expect(writes).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });
});
