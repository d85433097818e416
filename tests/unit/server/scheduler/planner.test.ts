/**
 * The planner alone: pure functions of a due reminder's wall-clock anchor and "now". No database,
 * no timers.
 */
import { describe, expect, it } from 'vitest';
import { type DueReminder, latestOccurrenceAtOrBefore, planBatch, planFiring, planFiringOrStop } from '../../../../server/scheduler/planner.ts';
import { ruleOf } from '../../../../server/reminders/schedule.ts';
import { LATE_THRESHOLD_MS } from '../../../../server/scheduler/late.ts';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../../../server/scheduler/options.ts';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const LATE = MIN;
const ms = (iso: string) => Date.parse(iso);
const iso = (n: number) => new Date(n).toISOString();

function due(fields: Partial<DueReminder> & Pick<DueReminder, 'local_date' | 'local_time' | 'next_fire_utc'>): DueReminder {
  return {
    id: 'r1',
    timezone: 'UTC',
    recurrence_type: 'ONCE',
    snoozed_at_utc: null,
    next_occurrence_utc: fields.next_fire_utc,
    ...fields,
  };
}

describe('planFiring', () => {
  it('a one-off fired on time: its occurrence, not late, completed', () => {
    const r = due({ local_date: '2026-11-23', local_time: '08:00', next_fire_utc: '2026-11-23T08:00:00.000Z' });
    expect(planFiring(r, ms('2026-11-23T08:00:00.200Z'), LATE)).toEqual({
      occurrenceMs: ms('2026-11-23T08:00:00.000Z'),
      dueMs: ms('2026-11-23T08:00:00.000Z'),
      late: false,
      nextFireMs: null,
      completed: true,
    });
  });

  it('a one-off fired after the late threshold is late', () => {
    const r = due({ local_date: '2026-11-23', local_time: '08:00', next_fire_utc: '2026-11-23T08:00:00.000Z' });
    expect(planFiring(r, ms('2026-11-23T08:01:00.001Z'), LATE).late).toBe(true);
    expect(planFiring(r, ms('2026-11-23T08:01:00.000Z'), LATE).late).toBe(false);
    // docs/time.md "How a reminder keeps time": more than 60 s late counts; the scheduler runs with that one constant.
    expect(LATE).toBe(LATE_THRESHOLD_MS);
    expect(DEFAULT_SCHEDULER_OPTIONS.lateThresholdMs).toBe(LATE_THRESHOLD_MS);
  });

  it('a daily reminder on time: the next fire is tomorrow at the same wall-clock time', () => {
    const r = due({ local_date: '2026-11-20', local_time: '09:00', timezone: 'Europe/Paris', recurrence_type: 'DAILY', next_fire_utc: '2026-11-23T08:00:00.000Z' });
    const plan = planFiring(r, ms('2026-11-23T08:00:00.050Z'), LATE);
    expect(plan).toMatchObject({ occurrenceMs: ms('2026-11-23T08:00:00.000Z'), late: false, completed: false });
    expect(iso(plan.nextFireMs!)).toBe('2026-11-24T08:00:00.000Z');
  });

  it('follows the stored wall clock, not the instant: 02:30 on a spring-forward day fires at the gap end, then 02:30 again', () => {
    // Europe/Paris skips 02:00-03:00 on 2026-03-29: that day 02:30 becomes 03:00 CEST (01:00Z).
    const r = due({ local_date: '2026-03-29', local_time: '02:30', timezone: 'Europe/Paris', recurrence_type: 'DAILY', next_fire_utc: '2026-03-29T01:00:00.000Z' });
    const plan = planFiring(r, ms('2026-03-29T01:00:00.500Z'), LATE);
    expect(plan.occurrenceMs).toBe(ms('2026-03-29T01:00:00.000Z'));
    // The next day is back at 02:30 (CEST, 00:30Z), not at 03:00 read back from the instant.
    expect(iso(plan.nextFireMs!)).toBe('2026-03-30T00:30:00.000Z');
  });

  it('after downtime: one catch-up for the latest missed occurrence, late, then the next future one', () => {
    const r = due({ local_date: '2026-11-01', local_time: '07:00', recurrence_type: 'DAILY', next_fire_utc: '2026-11-20T07:00:00.000Z' });
    const now = ms('2026-11-23T08:00:00.000Z');
    const plan = planFiring(r, now, LATE);
    expect(iso(plan.occurrenceMs)).toBe('2026-11-23T07:00:00.000Z');
    expect(plan.late).toBe(true);
    expect(iso(plan.nextFireMs!)).toBe('2026-11-24T07:00:00.000Z');
  });

  it('a snooze pressed after a delivery fires on its own and keeps the pending occurrence', () => {
    const r = due({
      local_date: '2026-11-01',
      local_time: '09:00',
      recurrence_type: 'DAILY',
      snoozed_at_utc: '2026-11-23T09:10:00.000Z',
      next_fire_utc: '2026-11-23T09:10:00.000Z',
      next_occurrence_utc: '2026-11-24T09:00:00.000Z',
    });
    expect(planFiring(r, ms('2026-11-23T09:10:00.100Z'), LATE)).toEqual({
      occurrenceMs: ms('2026-11-23T09:10:00.000Z'),
      dueMs: ms('2026-11-23T09:10:00.000Z'),
      late: false,
      nextFireMs: ms('2026-11-24T09:00:00.000Z'),
      completed: false,
    });
  });

  it('a snooze of an occurrence not sent yet delivers that occurrence, then the recurrence goes on', () => {
    const r = due({
      local_date: '2026-11-01',
      local_time: '09:00',
      recurrence_type: 'HOURLY',
      snoozed_at_utc: '2026-11-23T09:20:00.000Z',
      next_fire_utc: '2026-11-23T09:20:00.000Z',
      next_occurrence_utc: '2026-11-23T09:00:00.000Z',
    });
    const plan = planFiring(r, ms('2026-11-23T09:20:00.000Z'), LATE);
    expect(iso(plan.occurrenceMs)).toBe('2026-11-23T09:00:00.000Z');
    expect(iso(plan.dueMs)).toBe('2026-11-23T09:20:00.000Z');
    expect(plan.late).toBe(false);
    expect(iso(plan.nextFireMs!)).toBe('2026-11-23T10:00:00.000Z');
  });
});

describe('latestOccurrenceAtOrBefore', () => {
  it('finds the latest occurrence years back in a few steps, and the start when nothing later is due', () => {
    const rule = ruleOf({ local_date: '2020-01-01', local_time: '06:00', timezone: 'UTC', recurrence_type: 'DAILY' });
    expect(iso(latestOccurrenceAtOrBefore(rule, ms('2020-01-01T06:00:00.000Z'), ms('2026-11-23T05:59:59.999Z')))).toBe('2026-11-22T06:00:00.000Z');
    expect(latestOccurrenceAtOrBefore(rule, ms('2026-11-23T06:00:00.000Z'), ms('2026-11-23T07:00:00.000Z'))).toBe(ms('2026-11-23T06:00:00.000Z'));
  });
});

describe('planFiringOrStop and planBatch', () => {
  it('a rule the recurrence code refuses fires what was scheduled, then stops', () => {
    const r = due({ local_date: '2026-11-23', local_time: '08:00', timezone: 'Mars/Olympus_Mons', recurrence_type: 'DAILY', next_fire_utc: '2026-11-23T08:00:00.000Z' });
    expect(() => planFiring(r, ms('2026-11-23T08:00:00.000Z'), LATE)).toThrow();
    expect(planFiringOrStop(r, ms('2026-11-23T08:00:00.000Z'), LATE)).toEqual({
      occurrenceMs: ms('2026-11-23T08:00:00.000Z'),
      dueMs: ms('2026-11-23T08:00:00.000Z'),
      late: false,
      nextFireMs: null,
      completed: true,
    });
  });

  it('plans every reminder in order and groups those that move to the same state', () => {
    const now = ms('2026-11-23T08:00:00.000Z');
    const reminders = [
      due({ id: 'once-a', local_date: '2026-11-23', local_time: '08:00', next_fire_utc: '2026-11-23T08:00:00.000Z' }),
      due({ id: 'daily-a', local_date: '2026-11-01', local_time: '08:00', recurrence_type: 'DAILY', next_fire_utc: '2026-11-23T08:00:00.000Z' }),
      due({ id: 'once-b', local_date: '2026-11-23', local_time: '07:59', next_fire_utc: '2026-11-23T07:59:00.000Z' }),
      due({ id: 'daily-b', local_date: '2026-10-01', local_time: '08:00', recurrence_type: 'DAILY', next_fire_utc: '2026-11-23T08:00:00.000Z' }),
      due({ id: 'hourly', local_date: '2026-11-23', local_time: '07:00', recurrence_type: 'HOURLY', next_fire_utc: '2026-11-23T08:00:00.000Z' }),
    ];
    const plan = planBatch(reminders, now, LATE);
    expect(plan.firings.map((f) => iso(f.occurrenceMs))).toEqual([
      '2026-11-23T08:00:00.000Z',
      '2026-11-23T08:00:00.000Z',
      '2026-11-23T07:59:00.000Z',
      '2026-11-23T08:00:00.000Z',
      '2026-11-23T08:00:00.000Z',
    ]);
    expect(plan.advances).toEqual([
      { nextFireMs: null, nextAlertMs: null, completed: true, firedAtMs: now, reminderIds: ['once-a', 'once-b'] },
      { nextFireMs: now + DAY, nextAlertMs: null, completed: false, firedAtMs: now, reminderIds: ['daily-a', 'daily-b'] },
      { nextFireMs: now + HOUR, nextAlertMs: null, completed: false, firedAtMs: now, reminderIds: ['hourly'] },
    ]);
  });

  it('a reminder claimed ahead of its instant fires at that instant: its group records it as fired then', () => {
    const now = ms('2026-11-23T07:59:59.400Z');
    const at = ms('2026-11-23T08:00:00.000Z');
    const reminders = [
      due({ id: 'once-now', local_date: '2026-11-23', local_time: '07:59', next_fire_utc: '2026-11-23T07:59:00.000Z' }),
      due({ id: 'once-ahead', local_date: '2026-11-23', local_time: '08:00', next_fire_utc: '2026-11-23T08:00:00.000Z' }),
      due({ id: 'daily-ahead', local_date: '2026-11-01', local_time: '08:00', recurrence_type: 'DAILY', next_fire_utc: '2026-11-23T08:00:00.000Z' }),
    ];
    const plan = planBatch(reminders, now, LATE);
    expect(plan.firings.map((f) => [iso(f.occurrenceMs), iso(f.dueMs), f.late])).toEqual([
      ['2026-11-23T07:59:00.000Z', '2026-11-23T07:59:00.000Z', false],
      ['2026-11-23T08:00:00.000Z', '2026-11-23T08:00:00.000Z', false],
      ['2026-11-23T08:00:00.000Z', '2026-11-23T08:00:00.000Z', false],
    ]);
    expect(plan.advances).toEqual([
      { nextFireMs: null, nextAlertMs: null, completed: true, firedAtMs: now, reminderIds: ['once-now'] },
      { nextFireMs: null, nextAlertMs: null, completed: true, firedAtMs: at, reminderIds: ['once-ahead'] },
      { nextFireMs: at + DAY, nextAlertMs: null, completed: false, firedAtMs: at, reminderIds: ['daily-ahead'] },
    ]);
  });

  it('an empty batch plans nothing', () => {
    expect(planBatch([], Date.now(), LATE)).toEqual({ firings: [], advances: [] });
  });
});
