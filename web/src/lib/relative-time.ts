/**
 * The unit and amount a relative time is said in ("in 2 months", "next month", "in 3 days"), for
 * Intl.RelativeTimeFormat. Months and years count calendar months and years, as people read them:
 * on 27 November, 4 January is "in 2 months" (it was "next month": 38 days rounded to one
 * 30-day month; issue 27 #18), and 30 December is "next month".
 */
const DAY = 86_400_000;
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * DAY],
  ['month', 30 * DAY],
  ['week', 7 * DAY],
  ['day', DAY],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

export function relativeParts(value: Date, now: Date): { amount: number; unit: Intl.RelativeTimeFormatUnit } {
  const diff = value.getTime() - now.getTime();
  const abs = Math.abs(diff);
  for (const [unit, ms] of STEPS) {
    if (abs < ms && unit !== 'second') continue;
    if (unit === 'year') return { amount: value.getFullYear() - now.getFullYear(), unit };
    if (unit === 'month') {
      const months = (value.getFullYear() - now.getFullYear()) * 12 + value.getMonth() - now.getMonth();
      // 1 to 31 January is 30 days within one month: said in weeks.
      if (months === 0) continue;
      return months === 12 || months === -12 ? { amount: Math.sign(months), unit: 'year' } : { amount: months, unit };
    }
    return { amount: Math.round(diff / ms), unit };
  }
  return { amount: 0, unit: 'second' };
}
