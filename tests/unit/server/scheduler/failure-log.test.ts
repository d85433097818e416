/**
 * While the database is out, the scheduler's retries log the first failure, then one line a
 * minute, then one line when it works again (server/scheduler/failure-log.ts).
 */
import { describe, expect, it } from 'vitest';
import { FailureLog, STILL_FAILING_EVERY_MS } from '../../../../server/scheduler/failure-log.ts';

function setup() {
  let now = Date.UTC(2026, 10, 23, 22, 0, 0);
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  const log = {
    error: (obj: object, msg: string) => lines.push({ level: 'error', msg, obj: obj as Record<string, unknown> }),
    info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj: obj as Record<string, unknown> }),
  };
  let counted = 0;
  const failures = new FailureLog(log, () => now, () => counted++);
  return { failures, lines, advance: (ms: number) => (now += ms), counted: () => counted };
}

describe('FailureLog', () => {
  it('logs the first failure with its error, counts the next ones, and logs again a minute later', () => {
    const { failures, lines, advance, counted } = setup();
    const err = new Error('Cannot connect to PostgreSQL');
    failures.failed('scheduler tick', err);
    for (let i = 0; i < 59; i++) {
      advance(1000);
      failures.failed('scheduler tick', err);
    }
    expect(lines).toEqual([{ level: 'error', msg: 'scheduler tick failed', obj: { err } }]);
    advance(1000);
    failures.failed('scheduler tick', err);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({ level: 'error', msg: 'scheduler tick failed (still failing)', obj: { err, failures: 61, failingForMs: STILL_FAILING_EVERY_MS } });
    // Every failure is counted (for /metrics), logged or not.
    expect(counted()).toBe(61);
  });

  it('says once when it works again, and a later failure starts a new streak', () => {
    const { failures, lines, advance } = setup();
    failures.succeeded('scheduler tick');
    expect(lines).toEqual([]);
    failures.failed('scheduler tick', new Error('down'), { count: 3 });
    advance(2500);
    failures.failed('scheduler tick', new Error('down'));
    failures.succeeded('scheduler tick');
    failures.succeeded('scheduler tick');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'scheduler tick failed'],
      ['info', 'scheduler tick works again'],
    ]);
    expect(lines[0]!.obj).toMatchObject({ count: 3 });
    expect(lines[1]!.obj).toEqual({ failures: 2, failedForMs: 2500 });
    failures.failed('scheduler tick', new Error('down again'));
    expect(lines.at(-1)!.msg).toBe('scheduler tick failed');
  });

  it('keeps one streak per kind', () => {
    const { failures, lines } = setup();
    failures.failed('scheduler tick', new Error('a'));
    failures.failed('scheduler: reading the outbox', new Error('b'));
    failures.failed('scheduler tick', new Error('a'));
    expect(lines.map((l) => l.msg)).toEqual(['scheduler tick failed', 'scheduler: reading the outbox failed']);
  });
});
