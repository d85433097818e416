/** "Jan 4, 2027 · next month" on 27 November (issue 27 #18): months and years are calendar ones. */
import { describe, expect, it } from 'vitest';
import { relativeParts } from '../../../../web/src/lib/relative-time.ts';

const at = (iso: string) => new Date(iso);
const NOW = at('2026-11-27T08:00:00');

describe('relativeParts', () => {
  it('counts calendar months: 4 January is in 2 months, 30 December next month', () => {
    expect(relativeParts(at('2027-01-04T09:00:00'), NOW)).toEqual({ amount: 2, unit: 'month' });
    expect(relativeParts(at('2026-12-30T09:00:00'), NOW)).toEqual({ amount: 1, unit: 'month' });
    expect(relativeParts(at('2026-10-20T09:00:00'), NOW)).toEqual({ amount: -1, unit: 'month' });
    expect(relativeParts(at('2027-01-31T20:00:00'), at('2027-01-01T08:00:00'))).toEqual({ amount: 4, unit: 'week' });
  });

  it('counts calendar years, and twelve months as a year', () => {
    expect(relativeParts(at('2028-01-04T09:00:00'), NOW)).toEqual({ amount: 2, unit: 'year' });
    expect(relativeParts(at('2027-11-20T09:00:00'), NOW)).toEqual({ amount: 1, unit: 'year' });
  });

  it('keeps weeks, days, hours and minutes as they were', () => {
    expect(relativeParts(at('2026-12-12T08:00:00'), NOW)).toEqual({ amount: 2, unit: 'week' });
    expect(relativeParts(at('2026-11-29T08:00:00'), NOW)).toEqual({ amount: 2, unit: 'day' });
    expect(relativeParts(at('2026-11-27T11:00:00'), NOW)).toEqual({ amount: 3, unit: 'hour' });
    expect(relativeParts(at('2026-11-27T08:00:20'), NOW)).toEqual({ amount: 20, unit: 'second' });
  });
});
