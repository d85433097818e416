/**
 * SerialRounds: a round now and then one every interval, never two at once however long one
 * takes, queued work after the rounds before it, and nothing new after stop().
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SerialRounds } from '../../../../server/lib/serial-rounds.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('SerialRounds', () => {
  it('runs one round at a time, in order, and none after stop', async () => {
    const log: string[] = [];
    let running = 0;
    let n = 0;
    const rounds = new SerialRounds(100, async () => {
      const i = ++n;
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${i}`);
      // Longer than the interval: the next round waits for this one.
      await new Promise((r) => setTimeout(r, 250));
      log.push(`end ${i}`);
      running -= 1;
    });
    rounds.start();
    rounds.start();
    rounds.enqueue(async () => void log.push('queued'));
    await vi.advanceTimersByTimeAsync(300);
    expect(log).toEqual(['start 1', 'end 1', 'queued', 'start 2']);
    rounds.stop();
    expect(rounds.stopped).toBe(true);
    const idle = rounds.idle();
    await vi.advanceTimersByTimeAsync(1000);
    await idle;
    // The rounds queued before stop still run (they check `stopped` themselves); no new ones start.
    const after = log.length;
    await vi.advanceTimersByTimeAsync(1000);
    expect(log.length).toBe(after);
    rounds.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(log.length).toBe(after);
  });
});
