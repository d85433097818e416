/** The keyed limiter alone: an overall and a per-key ceiling, read on every use. */
import { describe, expect, it } from 'vitest';
import { KeyedLimiter } from '../../../../server/scheduler/keyed-limiter.ts';

describe('KeyedLimiter', () => {
  it('takes within the per-key and the overall ceiling, and gives back', () => {
    const limits = { overall: 3, perKey: 2 };
    const limiter = new KeyedLimiter(() => limits);
    expect([limiter.tryTake('a'), limiter.tryTake('a'), limiter.tryTake('a')]).toEqual([true, true, false]);
    expect(limiter.fullKeys()).toEqual(['a']);
    expect(limiter.tryTake('b')).toBe(true);
    // Overall ceiling reached: another key is refused too.
    expect(limiter.tryTake('c')).toBe(false);
    expect(limiter.room()).toBe(0);
    expect([limiter.count(), limiter.count('a'), limiter.count('b'), limiter.count('c')]).toEqual([3, 2, 1, 0]);
    limiter.give('a');
    expect(limiter.fullKeys()).toEqual([]);
    expect(limiter.room()).toBe(1);
    expect(limiter.tryTake('c')).toBe(true);
  });

  it('giving back what was not taken changes nothing', () => {
    const limiter = new KeyedLimiter(() => ({ overall: 2, perKey: 2 }));
    limiter.give('nobody');
    expect(limiter.count()).toBe(0);
    expect(limiter.room()).toBe(2);
  });

  it('reads its limits on every use (they change at run time)', () => {
    const limits = { overall: 10, perKey: 1 };
    const limiter = new KeyedLimiter(() => limits);
    expect(limiter.tryTake('a')).toBe(true);
    expect(limiter.fits('a')).toBe(false);
    limits.perKey = 2;
    expect(limiter.fits('a')).toBe(true);
    limits.overall = 1;
    expect(limiter.fits('b')).toBe(false);
  });
});
