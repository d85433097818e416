/** server/reminders/schedule-text/parse-schedule.ts: repetition in plain words (en, fr, es) -> a preset or an RRULE, anchored on its first occurrence. */
import { describe, expect, it } from 'vitest';
import { has, t } from '../../../../../server/discord/i18n.ts';
import { parseSchedule, hasRepeatWords, type ParsedSchedule } from '../../../../../server/reminders/schedule-text/parse-schedule.ts';
import { parseWhen } from '../../../../../server/reminders/schedule-text/parse-when.ts';
import type { RecurrenceType } from '../../../../../server/db/database.ts';
import { firstRRuleOccurrence, parseRRule, presetToRRule, type ParsedRRule, type RRuleAnchor } from '../../../../../server/time/rrule.ts';
import { rruleOccurrences } from '../../../../helpers/rrule-listing.ts';
import { wallClockToInstant } from '../../../../../server/time/zoned.ts';

type Now = { zone: string; iso: string };
// Monday 2026-11-23 10:00 EST.
const NY: Now = { zone: 'America/New_York', iso: '2026-11-23T15:00:00Z' };
// Saturday 2026-03-28 21:00 CET; clocks go forward that night at 02:00 (02:00-03:00 does not exist).
const PARIS_SPRING: Now = { zone: 'Europe/Paris', iso: '2026-03-28T20:00:00Z' };
// Sunday 2026-10-25 02:10 CEST, the first pass: at 03:00 CEST clocks go back to 02:00 CET.
const PARIS_AUTUMN: Now = { zone: 'Europe/Paris', iso: '2026-10-25T00:10:00Z' };
// Wednesday 2026-11-25 12:00 CET.
const MADRID: Now = { zone: 'Europe/Madrid', iso: '2026-11-25T11:00:00Z' };
// Friday 2026-03-06 12:00 EST; EDT from Sunday 2026-03-08 02:00.
const NY_SPRING: Now = { zone: 'America/New_York', iso: '2026-03-06T17:00:00Z' };

const parse = (now: Now, locale: string, text: string) => parseSchedule(text, now.zone, locale, Date.parse(now.iso));

type Row = [Now, string, string, RecurrenceType | 'CUSTOM', string | null, string, string];

// [now, locale, phrase, recurrence, rrule, first occurrence date, time]
const TABLE: Row[] = [
  // NY
  [NY, 'en', "every monday at 9", 'WEEKLY', null, '2026-11-30', '09:00'],
  [NY, 'en', "every other day at 8am", 'CUSTOM', 'FREQ=DAILY;INTERVAL=2', '2026-11-24', '08:00'],
  [NY, 'en', "every weekday at 9", 'WORKDAYS', null, '2026-11-24', '09:00'],
  [NY, 'en', "every weekend at 10", 'WEEKEND', null, '2026-11-28', '10:00'],
  [NY, 'en', "every 2 hours", 'CUSTOM', 'FREQ=HOURLY;INTERVAL=2', '2026-11-23', '12:00'],
  [NY, 'en', "every 15 minutes", 'CUSTOM', 'FREQ=MINUTELY;INTERVAL=15', '2026-11-23', '10:15'],
  [NY, 'en', "first monday of the month at 10", 'CUSTOM', 'FREQ=MONTHLY;BYDAY=1MO', '2026-12-07', '10:00'],
  [NY, 'en', "last friday of every month at 17:00", 'CUSTOM', 'FREQ=MONTHLY;BYDAY=-1FR', '2026-11-27', '17:00'],
  [NY, 'en', "every day at 9 until friday", 'CUSTOM', 'FREQ=DAILY;UNTIL=20261127', '2026-11-24', '09:00'],
  [NY, 'en', "every day at 9 for 10 days", 'CUSTOM', 'FREQ=DAILY;COUNT=10', '2026-11-24', '09:00'],
  [NY, 'en', "every monday and wednesday at 9", 'CUSTOM', 'FREQ=WEEKLY;BYDAY=MO,WE', '2026-11-25', '09:00'],
  [NY, 'en', "every 2 weeks on tuesday", 'CUSTOM', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', '2026-11-24', '09:00'],
  [NY, 'en', "every month on the 15th", 'MONTHLY', null, '2026-12-15', '09:00'],
  [NY, 'en', "every last day of the month", 'CUSTOM', 'FREQ=MONTHLY;BYMONTHDAY=-1', '2026-11-30', '09:00'],
  [NY, 'en', "every year on 3 march", 'YEARLY', null, '2027-03-03', '09:00'],
  [NY, 'en', "every year on March 3", 'YEARLY', null, '2027-03-03', '09:00'],
  [NY, 'en', "every tuesday at 9 until december 24", 'CUSTOM', 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20261224', '2026-11-24', '09:00'],
  [NY, 'en', "every day at 9 10 times", 'CUSTOM', 'FREQ=DAILY;COUNT=10', '2026-11-24', '09:00'],
  [NY, 'en', "every hour", 'HOURLY', null, '2026-11-23', '11:00'],
  [NY, 'en', "every day at 9:15pm", 'DAILY', null, '2026-11-23', '21:15'],
  [NY, 'en', "every other monday", 'CUSTOM', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', '2026-11-30', '09:00'],
  [NY, 'en', "every mon, wed and fri at 7:30am", 'CUSTOM', 'FREQ=WEEKLY;BYDAY=MO,WE,FR', '2026-11-25', '07:30'],
  [NY, 'en', "monday to friday at 8", 'WORKDAYS', null, '2026-11-24', '08:00'],
  [NY, 'en', "mondays at 9", 'WEEKLY', null, '2026-11-30', '09:00'],
  [NY, 'en', "every 2 hours from 9am", 'CUSTOM', 'FREQ=HOURLY;INTERVAL=2', '2026-11-23', '11:00'],
  [NY, 'en', "every day at 9 starting monday", 'DAILY', null, '2026-11-30', '09:00'],
  [NY, 'en', "every thursday at 6pm for 4 weeks", 'CUSTOM', 'FREQ=WEEKLY;BYDAY=TH;COUNT=4', '2026-11-26', '18:00'],
  [NY, 'en', "every monday for 3 months", 'CUSTOM', 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270227', '2026-11-30', '09:00'],
  [NY, 'en', "on the 1st and 15th of every month", 'CUSTOM', 'FREQ=MONTHLY;BYMONTHDAY=1,15', '2026-12-01', '09:00'],
  [NY, 'en', "every month on the 31st", 'MONTHLY', null, '2026-12-31', '09:00'],
  [NY, 'en', "every year on the fourth thursday of november", 'CUSTOM', 'FREQ=YEARLY;BYMONTH=11;BYDAY=4TH', '2026-11-26', '09:00'],
  [NY, 'en', "last weekday of the month", 'CUSTOM', 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', '2026-11-30', '09:00'],
  [NY, 'en', "every 2 hours for 1 day", 'CUSTOM', 'FREQ=HOURLY;INTERVAL=2;UNTIL=20261124T165959Z', '2026-11-23', '12:00'],
  [NY, 'en', "every 2 hours on weekdays", 'CUSTOM', 'FREQ=HOURLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR', '2026-11-23', '12:00'],
  [NY, 'en', "every day at 9 until friday 5pm", 'CUSTOM', 'FREQ=DAILY;UNTIL=20261127T220000Z', '2026-11-24', '09:00'],
  [NY, 'en', "daily at 7pm", 'DAILY', null, '2026-11-23', '19:00'],
  [NY, 'en', "once a week", 'WEEKLY', null, '2026-11-24', '09:00'],
  [NY, 'en', "every 6 months", 'CUSTOM', 'FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=24', '2026-11-24', '09:00'],
  [NY, 'en', "every day at noon", 'DAILY', null, '2026-11-23', '12:00'],
  [NY, 'fr', "every monday at 9", 'WEEKLY', null, '2026-11-30', '09:00'],
  [NY, 'es', "every weekday at 9", 'WORKDAYS', null, '2026-11-24', '09:00'],
  // PARIS_SPRING
  [PARIS_SPRING, 'fr', "tous les lundis à 9h", 'WEEKLY', null, '2026-03-30', '09:00'],
  [PARIS_SPRING, 'fr', "un lundi sur deux à 9h", 'CUSTOM', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', '2026-03-30', '09:00'],
  [PARIS_SPRING, 'fr', "chaque premier lundi du mois", 'CUSTOM', 'FREQ=MONTHLY;BYDAY=1MO', '2026-04-06', '09:00'],
  [PARIS_SPRING, 'fr', "tous les jours à 8h", 'DAILY', null, '2026-03-29', '08:00'],
  [PARIS_SPRING, 'fr', "tous les jours à 2h30", 'DAILY', null, '2026-03-29', '02:30'],
  [PARIS_SPRING, 'fr', "tous les dimanches à 2h30", 'WEEKLY', null, '2026-03-29', '02:30'],
  [PARIS_SPRING, 'fr', "toutes les 2 heures", 'CUSTOM', 'FREQ=HOURLY;INTERVAL=2', '2026-03-28', '23:00'],
  [PARIS_SPRING, 'fr', "toutes les 15 minutes", 'CUSTOM', 'FREQ=MINUTELY;INTERVAL=15', '2026-03-28', '21:15'],
  [PARIS_SPRING, 'fr', "tous les 15 minutes", 'CUSTOM', 'FREQ=MINUTELY;INTERVAL=15', '2026-03-28', '21:15'],
  [PARIS_SPRING, 'fr', "le dernier vendredi du mois à 17h", 'CUSTOM', 'FREQ=MONTHLY;BYDAY=-1FR', '2026-04-24', '17:00'],
  [PARIS_SPRING, 'fr', "tous les jours de semaine", 'WORKDAYS', null, '2026-03-30', '09:00'],
  [PARIS_SPRING, 'fr', "chaque semaine le mardi", 'WEEKLY', null, '2026-03-31', '09:00'],
  [PARIS_SPRING, 'fr', "tous les jours à 9h jusqu'au 10 avril", 'CUSTOM', 'FREQ=DAILY;UNTIL=20260410', '2026-03-29', '09:00'],
  [PARIS_SPRING, 'fr', "tous les jours à 9h pendant 10 jours", 'CUSTOM', 'FREQ=DAILY;COUNT=10', '2026-03-29', '09:00'],
  [PARIS_SPRING, 'fr', "le 15 de chaque mois à 9h", 'MONTHLY', null, '2026-04-15', '09:00'],
  [PARIS_SPRING, 'fr', "tous les ans le 3 mars", 'YEARLY', null, '2027-03-03', '09:00'],
  [PARIS_SPRING, 'fr', "du lundi au vendredi à 8h", 'WORKDAYS', null, '2026-03-30', '08:00'],
  [PARIS_SPRING, 'fr', "le week-end à 10h", 'WEEKEND', null, '2026-03-29', '10:00'],
  [PARIS_SPRING, 'fr', "en semaine à 8h", 'WORKDAYS', null, '2026-03-30', '08:00'],
  [PARIS_SPRING, 'fr', "tous les lundis et mercredis à 9h", 'CUSTOM', 'FREQ=WEEKLY;BYDAY=MO,WE', '2026-03-30', '09:00'],
  [PARIS_SPRING, 'fr', "toutes les deux semaines le mardi", 'CUSTOM', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', '2026-03-31', '09:00'],
  [PARIS_SPRING, 'fr', "tous les deux jours à 7h", 'CUSTOM', 'FREQ=DAILY;INTERVAL=2', '2026-03-29', '07:00'],
  [PARIS_SPRING, 'fr', "chaque mois le 31", 'MONTHLY', null, '2026-03-31', '09:00'],
  [PARIS_SPRING, 'fr', "à partir du 1er avril tous les jours à 9h", 'DAILY', null, '2026-04-01', '09:00'],
  [PARIS_SPRING, 'fr', "tous les jours à 9h 10 fois", 'CUSTOM', 'FREQ=DAILY;COUNT=10', '2026-03-29', '09:00'],
  [PARIS_SPRING, 'fr', "le dernier jour du mois", 'MONTHLY', null, '2026-03-31', '09:00'],
  [PARIS_SPRING, 'fr', "toutes les heures", 'HOURLY', null, '2026-03-28', '22:00'],
  [PARIS_SPRING, 'fr', "une fois par mois", 'MONTHLY', null, '2026-03-29', '09:00'],
  [PARIS_SPRING, 'fr', "chaque année le dernier dimanche de mars à 10h", 'CUSTOM', 'FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', '2026-03-29', '10:00'],
  [PARIS_SPRING, 'en', "every hour", 'HOURLY', null, '2026-03-28', '22:00'],
  // PARIS_AUTUMN
  [PARIS_AUTUMN, 'en', "every hour", 'HOURLY', null, '2026-10-25', '03:10'],
  [PARIS_AUTUMN, 'en', "every 20 minutes", 'CUSTOM', 'FREQ=MINUTELY;INTERVAL=20', '2026-10-25', '02:30'],
  [PARIS_AUTUMN, 'fr', "tous les jours à 2h30", 'DAILY', null, '2026-10-25', '02:30'],
  // MADRID
  [MADRID, 'es', "cada lunes a las 9", 'WEEKLY', null, '2026-11-30', '09:00'],
  [MADRID, 'es', "cada 2 horas", 'CUSTOM', 'FREQ=HOURLY;INTERVAL=2', '2026-11-25', '14:00'],
  [MADRID, 'es', "el primer lunes de cada mes", 'CUSTOM', 'FREQ=MONTHLY;BYDAY=1MO', '2026-12-07', '09:00'],
  [MADRID, 'es', "todos los días a las 8", 'DAILY', null, '2026-11-26', '08:00'],
  [MADRID, 'es', "cada día", 'DAILY', null, '2026-11-26', '09:00'],
  [MADRID, 'es', "cada semana el martes", 'WEEKLY', null, '2026-12-01', '09:00'],
  [MADRID, 'es', "cada 15 minutos", 'CUSTOM', 'FREQ=MINUTELY;INTERVAL=15', '2026-11-25', '12:15'],
  [MADRID, 'es', "el último viernes de cada mes a las 17", 'CUSTOM', 'FREQ=MONTHLY;BYDAY=-1FR', '2026-11-27', '17:00'],
  [MADRID, 'es', "cada lunes y miércoles", 'CUSTOM', 'FREQ=WEEKLY;BYDAY=MO,WE', '2026-11-30', '09:00'],
  [MADRID, 'es', "todos los días a las 9 hasta el viernes", 'CUSTOM', 'FREQ=DAILY;UNTIL=20261127', '2026-11-26', '09:00'],
  [MADRID, 'es', "todos los días durante 10 días", 'CUSTOM', 'FREQ=DAILY;COUNT=10', '2026-11-26', '09:00'],
  [MADRID, 'es', "días laborables", 'WORKDAYS', null, '2026-11-26', '09:00'],
  [MADRID, 'es', "los fines de semana a las 10", 'WEEKEND', null, '2026-11-28', '10:00'],
  [MADRID, 'es', "cada dos semanas el martes", 'CUSTOM', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', '2026-12-01', '09:00'],
  [MADRID, 'es', "cada mes el 15", 'MONTHLY', null, '2026-12-15', '09:00'],
  [MADRID, 'es', "el último día del mes", 'CUSTOM', 'FREQ=MONTHLY;BYMONTHDAY=-1', '2026-11-30', '09:00'],
  [MADRID, 'es', "cada año el 3 de marzo", 'YEARLY', null, '2027-03-03', '09:00'],
  [MADRID, 'es', "un día sí y otro no a las 7", 'CUSTOM', 'FREQ=DAILY;INTERVAL=2', '2026-11-26', '07:00'],
  [MADRID, 'es', "de lunes a viernes a las 8", 'WORKDAYS', null, '2026-11-26', '08:00'],
  [MADRID, 'es', "cada hora", 'HOURLY', null, '2026-11-25', '13:00'],
  [MADRID, 'es', "todos los días a las 5 de la tarde", 'DAILY', null, '2026-11-25', '17:00'],
  [MADRID, 'es', "cada día a las 9 10 veces", 'CUSTOM', 'FREQ=DAILY;COUNT=10', '2026-11-26', '09:00'],
  [MADRID, 'es', "desde el lunes cada día a las 9", 'DAILY', null, '2026-11-30', '09:00'],
  [MADRID, 'es', "todos los días hasta el 24 de diciembre", 'CUSTOM', 'FREQ=DAILY;UNTIL=20261224', '2026-11-26', '09:00'],
  [MADRID, 'es', "entre semana a las 7", 'WORKDAYS', null, '2026-11-26', '07:00'],
  [MADRID, 'es', "cada día a las 9 durante 2 semanas", 'CUSTOM', 'FREQ=DAILY;UNTIL=20261209', '2026-11-26', '09:00'],
  [MADRID, 'es', "una vez al mes", 'MONTHLY', null, '2026-11-26', '09:00'],
  [MADRID, 'es', "todos los lunes a las 9", 'WEEKLY', null, '2026-11-30', '09:00'],
  [MADRID, 'en', "every day at 9", 'DAILY', null, '2026-11-26', '09:00'],
  // NY_SPRING
  [NY_SPRING, 'en', "every sunday at 2:30", 'WEEKLY', null, '2026-03-08', '02:30'],
  [NY_SPRING, 'en', "every day at 9", 'DAILY', null, '2026-03-07', '09:00'],
  [NY_SPRING, 'en', "every 2 hours", 'CUSTOM', 'FREQ=HOURLY;INTERVAL=2', '2026-03-06', '14:00'],
  [NY_SPRING, 'en', "every day at 9 for 3 days", 'CUSTOM', 'FREQ=DAILY;COUNT=3', '2026-03-07', '09:00'],
  [NY_SPRING, 'en', "every weekend at 10", 'WEEKEND', null, '2026-03-07', '10:00'],
];

/** The rule a result stands for: the preset's from the anchor, or its RRULE. */
function ruleOf(r: Extract<ParsedSchedule, { ok: true }>, anchor: RRuleAnchor): ParsedRRule {
  const repeat = r.repeat!;
  if (repeat.recurrence !== 'CUSTOM') return presetToRRule(repeat.recurrence, anchor);
  const parsed = parseRRule(repeat.rrule!);
  if (!parsed.ok) throw new Error(`${repeat.rrule}: ${parsed.message}`);
  return parsed.rule;
}

describe('parseSchedule: the table', () => {
  it('has at least 60 phrases in each of several zones', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
    for (const lang of ['en', 'fr', 'es']) expect(TABLE.filter((row) => row[1] === lang).length).toBeGreaterThanOrEqual(15);
  });

  it.each(TABLE)('%#: %s / %s "%s"', (now, locale, text, recurrence, rrule, date, time) => {
    const r = parse(now, locale, text);
    expect(r).toMatchObject({ ok: true, date, time, repeat: { recurrence, rrule } });
    if (!r.ok || !r.repeat) return;
    const nowMs = Date.parse(now.iso);
    const anchor = { date, time, timeZone: now.zone };
    // The first occurrence strictly after now, is the anchor's instant, and is the rule's first from it.
    expect(r.instantMs).toBeGreaterThan(nowMs);
    const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
    const [h, mi] = time.split(':').map(Number) as [number, number];
    expect(r.instantMs).toBe(wallClockToInstant({ year: y, month: mo, day: d, hour: h, minute: mi }, now.zone));
    expect(firstRRuleOccurrence(ruleOf(r, anchor), anchor)).toBe(r.instantMs);
  });
});

describe('parseSchedule: instants and series', () => {
  const occurrences = (r: ParsedSchedule, zone: string, n = 20) => {
    if (!r.ok || !r.repeat) throw new Error('not a repetition');
    const anchor = { date: r.date, time: r.time, timeZone: zone };
    const rule = ruleOf(r, anchor);
    return [r.instantMs, ...rruleOccurrences(rule, anchor, r.instantMs, n - 1)].map((ms) => new Date(ms).toISOString());
  };

  it('COUNT counts from the returned anchor ("for 10 days", "10 times")', () => {
    for (const text of ['every day at 9 for 10 days', 'every day at 9 10 times']) {
      const all = occurrences(parse(NY, 'en', text), NY.zone);
      expect(all).toHaveLength(10);
      expect(all[0]).toBe('2026-11-24T14:00:00.000Z');
      expect(all[9]).toBe('2026-12-03T14:00:00.000Z');
    }
  });

  it('a date UNTIL runs to the end of that local day', () => {
    const all = occurrences(parse(NY, 'en', 'every day at 9 until friday'), NY.zone);
    expect(all).toEqual(['2026-11-24T14:00:00.000Z', '2026-11-25T14:00:00.000Z', '2026-11-26T14:00:00.000Z', '2026-11-27T14:00:00.000Z']);
  });

  it('"until friday" said on a Friday: tonight when the series fires by then, else next Friday', () => {
    const friday = Date.parse('2026-11-27T15:00:00Z'); // Friday 10:00 EST
    expect(parseSchedule('every hour until friday', NY.zone, 'en', friday)).toMatchObject({ ok: true, repeat: { rrule: 'FREQ=HOURLY;UNTIL=20261127' } });
    expect(parseSchedule('every day at 9 until friday', NY.zone, 'en', friday)).toMatchObject({ ok: true, date: '2026-11-28', repeat: { rrule: 'FREQ=DAILY;UNTIL=20261204' } });
    expect(parseSchedule('todos los días hasta el viernes', NY.zone, 'es', friday)).toMatchObject({ ok: true, repeat: { rrule: 'FREQ=DAILY;UNTIL=20261204' } });
  });

  it('"un lundi sur deux" starts next Monday, then every other Monday', () => {
    expect(occurrences(parse(PARIS_SPRING, 'fr', 'un lundi sur deux à 9h'), PARIS_SPRING.zone, 3)).toEqual([
      '2026-03-30T07:00:00.000Z', // CEST already
      '2026-04-13T07:00:00.000Z',
      '2026-04-27T07:00:00.000Z',
    ]);
  });

  it('a time in the spring-forward gap fires at the end of the gap, later days at the time typed', () => {
    expect(occurrences(parse(PARIS_SPRING, 'fr', 'tous les jours à 2h30'), PARIS_SPRING.zone, 2)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(occurrences(parse(NY_SPRING, 'en', 'every sunday at 2:30'), NY_SPRING.zone, 2)).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-15T06:30:00.000Z']);
  });

  it('every 2 hours steps in elapsed time across the change', () => {
    expect(occurrences(parse(PARIS_SPRING, 'fr', 'toutes les 2 heures'), PARIS_SPRING.zone, 3)).toEqual(['2026-03-28T22:00:00.000Z', '2026-03-29T00:00:00.000Z', '2026-03-29T02:00:00.000Z']);
  });

  it('hourly from inside the repeated hour: the anchor is a wall clock that names its instant', () => {
    const r = parse(PARIS_AUTUMN, 'en', 'every hour');
    // 02:10 CET (second pass) reads like 02:10 CEST (the first): the first unambiguous step is 03:10 CET.
    expect(r).toMatchObject({ ok: true, date: '2026-10-25', time: '03:10', instantMs: Date.parse('2026-10-25T02:10:00Z') });
  });

  it('sub-daily rules without a time start now + the interval, truncated to the minute', () => {
    const now = Date.parse('2026-11-23T15:00:42Z'); // 10:00:42 EST
    expect(parseSchedule('every 15 minutes', NY.zone, 'en', now)).toMatchObject({ ok: true, date: '2026-11-23', time: '10:15', instantMs: Date.parse('2026-11-23T15:15:00Z') });
    expect(parseSchedule('cada 2 horas', NY.zone, 'es', now)).toMatchObject({ ok: true, time: '12:00' });
  });

  it('"every day at 9" before and after 9', () => {
    const before = Date.parse('2026-11-23T13:00:00Z'); // 08:00 EST
    expect(parseSchedule('every day at 9', NY.zone, 'en', before)).toMatchObject({ ok: true, date: '2026-11-23', time: '09:00', repeat: { recurrence: 'DAILY', rrule: null } });
    expect(parse(NY, 'en', 'every day at 9')).toMatchObject({ ok: true, date: '2026-11-24', time: '09:00' });
    // On Monday at 10:00, "every monday at 9" is next Monday.
    expect(parse(NY, 'en', 'every monday at 9')).toMatchObject({ ok: true, date: '2026-11-30' });
  });
});

describe('parseSchedule: repetition it cannot map is never a one-off', () => {
  it.each([
    ['en', 'every blurday'],
    ['fr', 'tous les machins'],
    ['es', 'cada nada'],
    ['en', 'every minute'],
    ['en', 'every 2 minutes'],
    ['fr', 'toutes les minutes'],
    ['en', 'every day until yesterday'],
    ['en', 'every monday at 9 and 5pm'],
    ['en', 'every day at 25:00'],
    ['en', 'until friday at 9'],
    ['en', 'at 9 for 10 days'],
    ['fr', 'tous les jours pendant 3 heures'],
    ['es', 'dos veces al día'],
    ['en', 'every day at 9 until blah'],
    ['en', 'every day every week'],
    ['fr', 'chaque'],
    ['es', 'cada día a las 9 hasta'],
    ['en', 'every 31st of february'],
  ])('%s "%s"', (locale, text) => {
    expect(parse(NY, locale, text)).toEqual({ ok: false, reason: 'repeat-unparseable' });
  });
});

describe('parseSchedule without repetition words is parseWhen', () => {
  it.each([
    [NY, 'en', 'in 10 minutes'],
    [NY, 'en', 'tomorrow at 9'],
    [NY, 'en', 'friday 18:30'],
    [NY, 'en', '2027-01-05 08:00'],
    [NY, 'en', 'monday at 9'],
    [PARIS_SPRING, 'fr', 'demain à 9h'],
    [PARIS_SPRING, 'fr', 'tomorrow at 2:30'],
    [PARIS_SPRING, 'fr', 'vendredi 18h30'],
    [MADRID, 'es', 'mañana a las 9'],
    [MADRID, 'es', 'el lunes a las 9'],
    [MADRID, 'es', 'en 10 minutos'],
    [NY, 'en', 'in a month'],
    [NY, 'en', 'this weekend at 10'],
    [PARIS_SPRING, 'fr', 'le 15 du mois prochain'],
    [PARIS_SPRING, 'fr', 'le week-end prochain à 10h'],
    [MADRID, 'es', 'el 15 del mes que viene'],
    [NY, 'en', 'blah'],
    [NY, 'en', ''],
  ])('%#: "%s"', (now, locale, text) => {
    const nowMs = Date.parse(now.iso);
    const once = parseWhen(text, now.zone, locale, nowMs);
    const r = parseSchedule(text, now.zone, locale, nowMs);
    expect(hasRepeatWords(text)).toBe(false);
    expect(r).toEqual(once.ok ? { ...once, repeat: null } : once);
  });
});

describe('parseSchedule on word salad', () => {
  it('never throws, and whatever it accepts is a rule whose first occurrence is the anchor, after now', () => {
    const pieces = ['every', 'each', 'other', '2', '15', 'monday', 'mondays', 'and', 'wednesday', 'day', 'days', 'week', 'month', 'year', 'hours', 'minutes', 'at', '9', '9am', '17:00', '9h', 'à', 'a las', 'tous les', 'toutes les', 'chaque', 'cada', 'todos los', 'días', 'jours', 'lundi', 'lunes', 'first', 'last', 'premier', 'último', 'of the month', 'du mois', 'de cada mes', 'until', 'friday', 'december 24', "jusqu'au", 'hasta el', 'for', '10', 'times', 'fois', 'weekday', 'weekend', 'on', 'the', 'le', 'el', 'sur', 'deux', 'from', 'starting', 'noon', '31st', '-', 'to', ','];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const zones = ['America/New_York', 'Europe/Paris', 'Europe/Madrid', 'Asia/Kathmandu'];
    let accepted = 0;
    for (let i = 0; i < 1500; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join(' ');
      const zone = zones[i % zones.length]!;
      const nowMs = Date.parse('2026-03-28T20:00:00Z') + i * 7_200_000;
      const r = parseSchedule(text, zone, ['en', 'fr', 'es'][i % 3], nowMs);
      if (!r.ok || !r.repeat) continue;
      accepted++;
      const anchor = { date: r.date, time: r.time, timeZone: zone };
      expect(r.instantMs, text).toBeGreaterThan(nowMs);
      expect(firstRRuleOccurrence(ruleOf(r, anchor), anchor), text).toBe(r.instantMs);
    }
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('the repeat messages', () => {
  it('exist in en, fr and es with their variables', () => {
    for (const lang of ['en', 'fr', 'es'] as const) {
      expect(has(lang, 'remind.repeatUnparseable')).toBe(true);
      expect(has(lang, 'remind.repeatConflict')).toBe(true);
      expect(t(lang, 'remind.repeatUnparseable', { when: 'every blurday' })).toContain('every blurday');
      const conflict = t(lang, 'remind.repeatConflict', { words: 'W1', option: 'O2' });
      expect(conflict).toContain('W1');
      expect(conflict).toContain('O2');
    }
  });

  it('the example phrases they give parse', () => {
    const examples: Record<string, string> = { en: 'en', fr: 'fr', es: 'es' };
    for (const [lang, locale] of Object.entries(examples)) {
      const message = t(lang, 'remind.repeatUnparseable', { when: '' });
      const phrases = [...message.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      expect(phrases.length).toBeGreaterThan(0);
      for (const phrase of phrases) expect(parse(NY, locale, phrase), `${lang}: ${phrase}`).toMatchObject({ ok: true, repeat: expect.anything() });
    }
  });
});
