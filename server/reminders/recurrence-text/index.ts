/**
 * A reminder's repetition as one sentence, in English, French or Spanish: "Every weekday (Monday
 * to Friday)", "Every 2 weeks on Monday and Wednesday, until March 1, 2027", "Chaque mois le
 * premier lundi, 10 fois", "Cada mes el penúltimo día laborable".
 *
 * The words and the sentence shapes are in locales/{en,fr,es}/recurrence.json; weekday and month
 * names, lists, numbers and long dates come from Intl. The meaning follows server/time/rrule.ts:
 * parts a rule leaves out take the anchor's (WEEKLY its weekday, MONTHLY its day of month, YEARLY
 * its month and day), and the sentence names them. Every valid rule gets a sentence; the rare
 * shapes get a plainer one ("Every month on day 1 and day 15, only the last of these days each
 * month"). WKST and the time of day are not described.
 */
import type { RecurrenceType } from '../../db/database.ts';
import type { Language } from '../../lib/language.ts';
import { daysFromCivil, monthLength, weekdayOf } from '../../time/civil.ts';
import type { ParsedRRule, RRuleByDay, RRuleFreq, RRuleUntil, RRuleWeekday } from '../../time/rrule.ts';
import { wordsFor, type Words } from './strings.ts';

export interface RecurrenceTextInput {
  recurrence: RecurrenceType | 'CUSTOM';
  /** The parsed rule when recurrence is CUSTOM (ignored otherwise). */
  rrule: ParsedRRule | null;
  anchor: { date: string; time: string; timeZone: string };
}

interface AnchorDate {
  year: number;
  month: number;
  day: number;
  weekday: RRuleWeekday;
}

const WEEKDAY_OF_NUMBER: readonly RRuleWeekday[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const ORDER: readonly RRuleWeekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

function anchorDate(date: string): AnchorDate | null {
  const m = typeof date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > monthLength(year, month)) return null;
  return { year, month, day, weekday: WEEKDAY_OF_NUMBER[weekdayOf(daysFromCivil(year, month, day))]! };
}

/** One sentence describing how the reminder repeats, in `language`. Never throws, never empty. */
export function describeRecurrence(input: RecurrenceTextInput, language: Language): string {
  const w = wordsFor(language);
  const anchor = anchorDate(input.anchor?.date);
  try {
    if (input.recurrence !== 'CUSTOM') return describePreset(w, input.recurrence, anchor);
    if (!input.rrule) return w.t('preset.once');
    return withEnd(w, describeRule(w, input.rrule, anchor), input.rrule.count, input.rrule.until, input.anchor?.timeZone);
  } catch {
    // Not expected for valid input: the plainest true sentence.
    return input.recurrence === 'CUSTOM' && input.rrule ? every(w, input.rrule.freq, input.rrule.interval) : w.t('preset.once');
  }
}

function describePreset(w: Words, preset: RecurrenceType, anchor: AnchorDate | null): string {
  switch (preset) {
    case 'HOURLY':
      return w.t('every.hour.one');
    case 'DAILY':
      return w.t('every.day.one');
    case 'WORKDAYS':
      return w.t('preset.workdays');
    case 'WEEKEND':
      return w.t('preset.weekend');
    case 'WEEKLY':
      return anchor ? `${w.t('every.week.one')} ${w.t('on', { what: w.t('weekday.on', { day: w.weekday(anchor.weekday) }) })}` : w.t('every.week.one');
    case 'MONTHLY': {
      if (!anchor) return w.t('every.month.one');
      const d = anchor.day;
      const what = d <= 28 ? w.t('monthDay.one', { day: w.monthDay(d) }) : d === 31 ? w.nth(-1, w.t('noun.day')) : w.t('monthDay.orLast', { day: d });
      return `${w.t('every.month.one')} ${w.t('on', { what })}`;
    }
    case 'YEARLY': {
      if (!anchor) return w.t('every.year.one');
      const what = anchor.month === 2 && anchor.day === 29 ? w.t('date.leapDay') : dayMonth(w, anchor.month, anchor.day);
      return `${w.t('every.year.one')} ${w.t('on', { what })}`;
    }
    default:
      return w.t('preset.once');
  }
}

const EVERY: Record<RRuleFreq, readonly [string, string, string]> = {
  MINUTELY: ['every.minute.many', 'every.minute.many', 'every.minute.many'],
  HOURLY: ['every.hour.one', 'every.hour.two', 'every.hour.many'],
  DAILY: ['every.day.one', 'every.day.two', 'every.day.many'],
  WEEKLY: ['every.week.one', 'every.week.two', 'every.week.many'],
  MONTHLY: ['every.month.one', 'every.month.two', 'every.month.many'],
  YEARLY: ['every.year.one', 'every.year.two', 'every.year.many'],
};
const SET_POS: Partial<Record<RRuleFreq, string>> = { WEEKLY: 'setPos.week', MONTHLY: 'setPos.month', YEARLY: 'setPos.year' };

function every(w: Words, freq: RRuleFreq, interval: number): string {
  const keys = EVERY[freq];
  return w.t(keys[Math.min(interval, 3) - 1] ?? keys[2], { n: w.num(interval) });
}

const dayMonth = (w: Words, month: number, day: number) => w.t('date.dayMonth', { month: w.month(month), day: w.monthDay(day) });

/** 1, 2, ... then -1, -2, ... (the canonical order of parse.ts). */
const signedOrder = (a: number, b: number) => (a > 0 !== b > 0 ? (a > 0 ? -1 : 1) : a > 0 ? a - b : b - a);
const sameSet = (days: RRuleWeekday[], wanted: string) => days.length === wanted.length / 2 && days.every((d) => wanted.includes(d));
const WORKDAYS = 'MOTUWETHFR';
const WEEKEND = 'SASU';

/** The rule without COUNT/UNTIL: "Every 2 weeks on Monday and Wednesday". */
function describeRule(w: Words, rule: ParsedRRule, anchor: AnchorDate | null): string {
  const { interval } = rule;
  let freq = rule.freq;
  let fine = freq === 'DAILY' || freq === 'HOURLY' || freq === 'MINUTELY';
  let byDay: RRuleByDay[] | null = rule.byDay?.length ? [...rule.byDay].sort((a, b) => ORDER.indexOf(a.weekday) - ORDER.indexOf(b.weekday)) : null;
  let byMonthDay = rule.byMonthDay?.length ? [...rule.byMonthDay].sort(signedOrder) : null;
  let byMonth = rule.byMonth?.length ? [...rule.byMonth].sort((a, b) => a - b) : null;
  let setPos = rule.bySetPos?.length ? [...rule.bySetPos].sort(signedOrder) : null;

  // On DAILY and finer a period holds one occurrence: BYSETPOS 1 or -1 keeps it, anything else nothing.
  if (fine && setPos) {
    if (!setPos.includes(1) && !setPos.includes(-1)) return w.t('never');
    setPos = null;
  }
  // Every day on some days of the month or weekdays: the same as every month or every week on those.
  if (freq === 'DAILY' && interval === 1 && (byMonthDay || byDay)) {
    freq = byMonthDay ? 'MONTHLY' : 'WEEKLY';
    fine = false;
  }
  // The anchor's parts, as the expansion takes them.
  if (!byDay && !byMonthDay && anchor) {
    if (freq === 'YEARLY') {
      byMonth ??= [anchor.month];
      byMonthDay = [anchor.day];
    } else if (freq === 'MONTHLY') byMonthDay = [anchor.day];
    else if (freq === 'WEEKLY') byDay = [{ weekday: anchor.weekday, n: null }];
  }
  // A period with at most one candidate day: BYSETPOS 1 or -1 keeps it, anything else nothing.
  if (setPos && atMostOneDay(freq, byDay, byMonthDay, byMonth)) {
    if (!setPos.includes(1) && !setPos.includes(-1)) return w.t('never');
    setPos = null;
  }
  const plain = byDay !== null && byDay.every((d) => d.n === null);
  const weekdays = plain ? byDay!.map((d) => d.weekday) : [];
  // Every month (or year) on every Monday: every week on Monday.
  if ((freq === 'MONTHLY' || freq === 'YEARLY') && interval === 1 && plain && !byMonthDay && !setPos) freq = 'WEEKLY';
  if (freq === 'WEEKLY' && interval === 1 && plain && !byMonth && !setPos) {
    if (sameSet(weekdays, WORKDAYS)) return w.t('preset.workdays');
    if (sameSet(weekdays, WEEKEND)) return w.t('preset.weekend');
    if (weekdays.length === 7) return w.t('every.day.one');
  }

  let days: string | null = null;
  let monthsSaid = false;
  let setPosSaid = false;
  const dayNoun = w.t('noun.day');
  const lastOf = byMonthDay && byMonthDay.length >= 2 && byMonthDay.every((d, i) => d === 28 + i) ? byMonthDay[byMonthDay.length - 1]! : 0;

  if (freq === 'MONTHLY' && !byDay && lastOf >= 29 && lastOf <= 30 && setPos?.length === 1 && setPos[0] === -1) {
    // The MONTHLY preset on the 29th/30th as a rule: BYMONTHDAY=28,29(,30);BYSETPOS=-1.
    days = w.t('monthDay.orLast', { day: lastOf });
    setPosSaid = true;
  } else if (freq === 'YEARLY' && !byDay && byMonth?.length === 1 && byMonth[0] === 2 && lastOf === 29 && setPos?.length === 1 && setPos[0] === -1) {
    days = w.t('date.leapDay');
    monthsSaid = setPosSaid = true;
  } else if (freq === 'YEARLY' && byMonth?.length === 1 && byMonthDay?.length === 1 && byMonthDay[0]! > 0 && !setPos) {
    days = dayMonth(w, byMonth[0]!, byMonthDay[0]!);
    monthsSaid = true;
  } else if (byMonthDay) {
    days = monthDays(w, byMonthDay, dayNoun);
    if (fine || (freq === 'YEARLY' && !byMonth)) days = w.t('monthDay.ofEachMonth', { what: days });
  } else if (byDay && plain && setPos && (freq !== 'YEARLY' || (byMonth?.length ?? 0) <= 1)) {
    // "the last weekday", "the first Monday or Wednesday" (the first day that is one of them).
    const noun = weekdays.length === 7 ? dayNoun : sameSet(weekdays, WORKDAYS) ? w.t('noun.workday') : sameSet(weekdays, WEEKEND) ? w.t('noun.weekendDay') : w.or(weekdays.map((d) => w.weekday(d)));
    days = w.and(setPos.map((p) => w.nth(p, noun)));
    if (freq === 'WEEKLY') days = w.t('ofWeek', { what: days });
    else if (freq === 'YEARLY' && !byMonth) days = w.t('ofYear', { what: days });
    setPosSaid = true;
  } else if (byDay && plain && (freq === 'WEEKLY' || fine)) {
    days = sameSet(weekdays, WORKDAYS) ? w.t('weekday.workdays') : w.and(weekdays.map((d) => w.t('weekday.on', { day: w.weekday(d) })));
  } else if (byDay) {
    days = w.and(byDay.map((d) => (d.n === null ? w.t('weekday.every', { day: w.weekday(d.weekday) }) : w.nth(d.n, w.weekday(d.weekday)))));
    if (freq === 'YEARLY' && !byMonth && !plain) days = w.t('ofYear', { what: days });
  }

  const head = every(w, freq, interval);
  const months = byMonth && !monthsSaid ? w.t('in', { months: w.and(byMonth.map((m) => w.month(m))) }) : null;
  const on = days ? w.t('on', { what: days }) : null;
  let text = [head, ...(freq === 'YEARLY' ? [months, on] : [on, months])].filter((s) => s).join(' ');

  if (byDay && byMonthDay) {
    // Days that are both: "on day 13, if it is a Friday".
    let which = w.or(byDay.map((d) => (d.n === null ? w.t('weekday.a', { day: w.weekday(d.weekday) }) : w.nth(d.n, w.weekday(d.weekday)))));
    if (freq === 'YEARLY' && !byMonth && !plain) which = w.t('ofYear', { what: which });
    text = w.t('ifItIs', { what: text, days: which });
  }
  if (setPos && !setPosSaid) {
    text = w.t(SET_POS[freq] ?? 'setPos.month', { what: text, positions: w.and(setPos.map((p) => w.pos(p))) });
  }
  return text;
}

/** Whether each WEEKLY/MONTHLY/YEARLY period holds at most one day (anchor defaults applied). */
function atMostOneDay(freq: RRuleFreq, byDay: RRuleByDay[] | null, byMonthDay: number[] | null, byMonth: number[] | null): boolean {
  const oneNth = !byMonthDay && byDay?.length === 1 && byDay[0]!.n !== null;
  if (freq === 'WEEKLY') return byDay?.length === 1;
  if (freq === 'MONTHLY') return byMonthDay?.length === 1 || oneNth;
  if (freq === 'YEARLY') return byMonth ? byMonth.length === 1 && (byMonthDay?.length === 1 || oneNth) : oneNth;
  return false;
}

/** "day 15", "days 1 and 15", "the last day", "day 1 and the 2nd-to-last day". */
function monthDays(w: Words, list: number[], dayNoun: string): string {
  const positive = list.filter((d) => d > 0);
  const negative = list.filter((d) => d < 0);
  if (negative.length === 0 && positive.length > 1) {
    return w.t('monthDay.many', { days: w.and(positive.map((d) => w.t('monthDay.item', { day: w.monthDay(d) }))) });
  }
  return w.and([...positive.map((d) => w.t('monthDay.one', { day: w.monthDay(d) })), ...negative.map((d) => w.nth(d, dayNoun))]);
}

function withEnd(w: Words, text: string, count: number | null, until: RRuleUntil | null, timeZone: string): string {
  if (count !== null && count !== undefined) {
    return count === 1 ? w.t('end.countOne', { what: text }) : w.t('end.count', { what: text, count: w.num(count) });
  }
  if (until) return w.t('end.until', { what: text, date: untilDate(w, until, timeZone) });
  return text;
}

/** UNTIL as the local date in the reminder's zone. */
function untilDate(w: Words, until: RRuleUntil, timeZone: string): string {
  if (until.kind === 'date') {
    const [y, m, d] = until.date.split('-').map(Number) as [number, number, number];
    return w.longDate(y, m, d);
  }
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(until.ms);
  } catch {
    // An unknown zone (not expected: the anchor's is validated): the UTC date.
    parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(until.ms);
  }
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const [y, m, d] = [part('year'), part('month'), part('day')];
  return w.longDate(y, m, d);
}
