/**
 * Alerts before a reminder, the pure part: where the pointer (next_alert_utc) goes, and what a due
 * pointer sends. Fixed instants, no database.
 */
import { describe, expect, it } from 'vitest';
import { nextAlertMs, nextAlertUtc, parseStoredAlerts, planAlertFiring, storedAlertsText } from '../../../../server/scheduler/alerts.ts';
import { type DueReminder, planBatch } from '../../../../server/scheduler/planner.ts';
import { parseAlerts } from '../../../../server/reminders/input.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const LATE = MIN;
const ms = (iso: string) => Date.parse(iso);
const iso = (n: number) => new Date(n).toISOString();

describe('nextAlertMs', () => {
  const occurrence = ms('2026-12-01T09:00:00.000Z');

  it('is the earliest alert still ahead of now', () => {
    expect(nextAlertMs([1440, 15], occurrence, occurrence - 2 * DAY)).toBe(occurrence - DAY);
    expect(nextAlertMs([1440, 15], occurrence, occurrence - DAY)).toBe(occurrence - 15 * MIN);
    expect(nextAlertMs([1440, 15], occurrence, occurrence - 15 * MIN)).toBeNull();
  });

  it('leaves out alerts whose time passed when the reminder was set (not sent late)', () => {
    // Set 2 hours before: the day-before alert is gone, the 15-minute one stays.
    expect(nextAlertMs([1440, 15], occurrence, occurrence - 2 * HOUR)).toBe(occurrence - 15 * MIN);
  });

  it('is null without alerts or without an occurrence', () => {
    expect(nextAlertMs([], occurrence, 0)).toBeNull();
    expect(nextAlertMs([15], null, 0)).toBeNull();
  });

  it('nextAlertUtc reads the stored columns', () => {
    expect(nextAlertUtc('[60]', iso(occurrence), occurrence - 2 * HOUR)).toBe(iso(occurrence - HOUR));
    expect(nextAlertUtc('[]', iso(occurrence), 0)).toBeNull();
    expect(nextAlertUtc('not json', iso(occurrence), 0)).toBeNull();
    expect(nextAlertUtc('[60]', null, 0)).toBeNull();
  });
});

describe('planAlertFiring', () => {
  const occurrence = ms('2026-12-01T09:00:00.000Z');
  const due = (pointer: number, occ: number | null = occurrence, alerts = '[1440,60,15]') => ({
    alerts,
    next_alert_utc: iso(pointer),
    next_occurrence_utc: occ === null ? null : iso(occ),
  });

  it('sends the due alert and moves to the next one of the same occurrence', () => {
    expect(planAlertFiring(due(occurrence - DAY), occurrence - DAY + 500, LATE)).toEqual({
      send: { beforeMinutes: 1440, occurrenceMs: occurrence, dueMs: occurrence - DAY, late: false },
      nextAlertMs: occurrence - HOUR,
    });
    expect(planAlertFiring(due(occurrence - 15 * MIN), occurrence - 15 * MIN, LATE)).toEqual({
      send: { beforeMinutes: 15, occurrenceMs: occurrence, dueMs: occurrence - 15 * MIN, late: false },
      nextAlertMs: null,
    });
  });

  it('after a downtime over several alerts, sends only the latest one, marked late', () => {
    const plan = planAlertFiring(due(occurrence - DAY), occurrence - 10 * MIN, LATE);
    expect(plan).toEqual({ send: { beforeMinutes: 15, occurrenceMs: occurrence, dueMs: occurrence - 15 * MIN, late: true }, nextAlertMs: null });
  });

  it('never sends an alert once its occurrence has come', () => {
    expect(planAlertFiring(due(occurrence - 15 * MIN), occurrence, LATE)).toEqual({ send: null, nextAlertMs: null });
    expect(planAlertFiring(due(occurrence - 15 * MIN), occurrence + HOUR, LATE)).toEqual({ send: null, nextAlertMs: null });
    expect(planAlertFiring(due(occurrence - 15 * MIN, null), occurrence - 10 * MIN, LATE)).toEqual({ send: null, nextAlertMs: null });
  });

  it('a pointer that is no alert of the occurrence (alerts changed) sends nothing and finds the next one', () => {
    // Pointer left between alerts: nothing between it and now.
    expect(planAlertFiring(due(occurrence - 30 * MIN, occurrence, '[15]'), occurrence - 20 * MIN, LATE)).toEqual({ send: null, nextAlertMs: occurrence - 15 * MIN });
  });
});

describe('the pointer after an occurrence fires (planBatch)', () => {
  function reminder(fields: Partial<DueReminder> & Pick<DueReminder, 'local_date' | 'local_time' | 'next_fire_utc'>): DueReminder {
    return { id: 'r1', timezone: 'UTC', recurrence_type: 'DAILY', snoozed_at_utc: null, next_occurrence_utc: fields.next_fire_utc, ...fields };
  }

  it('a daily reminder: the first alert of the next occurrence still ahead', () => {
    const now = ms('2026-11-23T08:00:00.000Z');
    const plan = planBatch([reminder({ local_date: '2026-11-01', local_time: '08:00', next_fire_utc: iso(now), alerts: '[120,15]' })], now, LATE);
    expect(plan.advances).toEqual([{ nextFireMs: now + DAY, nextAlertMs: now + DAY - 2 * HOUR, completed: false, firedAtMs: now, reminderIds: ['r1'] }]);
  });

  it('an hourly reminder whose alert is longer than its period: only alerts still ahead of now', () => {
    const now = ms('2026-11-23T08:00:00.000Z');
    const plan = planBatch([reminder({ local_date: '2026-11-23', local_time: '07:00', recurrence_type: 'HOURLY', next_fire_utc: iso(now), alerts: '[90,30]' })], now, LATE);
    // 09:00 minus 90 minutes is 07:30, already past: the 30-minute alert (08:30) is next.
    expect(plan.advances[0]).toMatchObject({ nextFireMs: now + HOUR, nextAlertMs: now + 30 * MIN });
  });

  it('across the spring DST change the alert is the elapsed time before the occurrence, which keeps its wall clock', () => {
    // Europe/Paris, 09:00 every day; the clocks go forward on 2026-03-29.
    const now = ms('2026-03-28T08:00:00.000Z'); // 09:00 CET
    const plan = planBatch(
      [reminder({ local_date: '2026-03-01', local_time: '09:00', timezone: 'Europe/Paris', next_fire_utc: iso(now), alerts: '[1440,60]' })],
      now,
      LATE,
    );
    const next = ms('2026-03-29T07:00:00.000Z'); // 09:00 CEST
    expect(plan.advances[0]).toMatchObject({ nextFireMs: next, nextAlertMs: next - HOUR });
    // The day-before alert (24 h before 09:00 CEST: 08:00 CET) came one hour before the occurrence fired: gone.
    expect(next - DAY).toBeLessThan(now);
  });

  it('across the autumn DST change (overlap) the occurrence keeps 09:00 and the alert is 15 minutes before it', () => {
    const now = ms('2026-10-24T07:00:00.000Z'); // 09:00 CEST
    const plan = planBatch([reminder({ local_date: '2026-10-01', local_time: '09:00', timezone: 'Europe/Paris', next_fire_utc: iso(now), alerts: '[15]' })], now, LATE);
    const next = ms('2026-10-25T08:00:00.000Z'); // 09:00 CET
    expect(plan.advances[0]).toMatchObject({ nextFireMs: next, nextAlertMs: next - 15 * MIN });
  });

  it('a monthly reminder on the 31st: the alert of the next month that has one', () => {
    const now = ms('2027-01-31T10:00:00.000Z');
    const plan = planBatch([reminder({ local_date: '2027-01-31', local_time: '10:00', recurrence_type: 'MONTHLY', next_fire_utc: iso(now), alerts: '[1440]' })], now, LATE);
    const next = plan.advances[0]!.nextFireMs!;
    expect(plan.advances[0]!.nextAlertMs).toBe(next - DAY);
    expect(iso(next).slice(0, 7)).not.toBe('2027-01');
  });

  it('a one-off: no alert after it fired', () => {
    const now = ms('2026-11-23T08:00:00.000Z');
    const plan = planBatch([reminder({ local_date: '2026-11-23', local_time: '08:00', recurrence_type: 'ONCE', next_fire_utc: iso(now), alerts: '[15]' })], now, LATE);
    expect(plan.advances).toEqual([{ nextFireMs: null, nextAlertMs: null, completed: true, firedAtMs: now, reminderIds: ['r1'] }]);
  });

  it('a snooze fired while the next occurrence is ahead keeps that occurrence and its alerts still to come', () => {
    const pending = ms('2026-11-24T08:00:00.000Z');
    const snooze = ms('2026-11-23T08:10:00.000Z');
    const plan = planBatch(
      [reminder({ local_date: '2026-11-01', local_time: '08:00', next_fire_utc: iso(snooze), snoozed_at_utc: iso(snooze), next_occurrence_utc: iso(pending), alerts: '[60]' })],
      snooze,
      LATE,
    );
    expect(plan.advances[0]).toMatchObject({ nextFireMs: pending, nextAlertMs: pending - HOUR });
  });
});

describe('stored alerts and their input', () => {
  it('stores distinct minutes, largest first, and reads only valid ones back', () => {
    expect(storedAlertsText([15, 1440, 15])).toBe('[1440,15]');
    expect(parseStoredAlerts('[15,1440,0,-3,1.5,"x",40321]')).toEqual([1440, 15]);
    expect(parseStoredAlerts('{}')).toEqual([]);
  });

  it('parseAlerts answers a code for each kind of bad input', () => {
    const code = (v: unknown) => {
      try {
        parseAlerts(v);
        return 'ok';
      } catch (err) {
        return (err as { code: string }).code;
      }
    };
    expect(parseAlerts([{ before_minutes: 15 }, { before_minutes: 1440 }])).toEqual([1440, 15]);
    expect(parseAlerts(undefined)).toEqual([]);
    expect(code('15')).toBe('ALERTS_INVALID');
    expect(code([{}])).toBe('ALERTS_INVALID');
    expect(code([{ before_minutes: 0 }])).toBe('ALERT_AFTER_EVENT');
    expect(code([{ before_minutes: 40_321 }])).toBe('ALERTS_INVALID');
    expect(code([{ before_minutes: 5 }, { before_minutes: 5 }])).toBe('ALERTS_INVALID');
    expect(code([1, 2, 3, 4].map((m) => ({ before_minutes: m })))).toBe('ALERT_TOO_MANY');
  });
});
