/**
 * `/remind when:` with repetition in plain words, in English, French and Spanish: "every monday at
 * 9", "un lundi sur deux à 9h", "el primer lunes de cada mes", "every day at 9 until friday".
 *
 * Without repetition words the answer is parseWhen's (a one-off). With them, the answer is a rule
 * or `repeat-unparseable`, never a one-off. The repetition words (words.ts REPEAT_WORDS) are
 * recognized in the three languages whatever the user's locale.
 *
 * How the text is read: it is folded (lower case, accents removed, same length as the original so
 * positions map back), then the parts are taken out one by one, each blanked once read:
 *   1. "once a week" / "une fois par semaine" / "una vez al mes";
 *   2. the end: "for 10 days" / "pendant 10 jours", "10 times" / "10 fois", "until friday" /
 *      "jusqu'au 24 décembre" / "hasta el viernes" (the date by chrono-node);
 *   3. the frequency, exactly one of: an ordinal weekday or day of the month ("last friday of the
 *      month", "le 15 de chaque mois"), work days / weekend, weekdays with an interval ("every
 *      other monday", "un lundi sur deux", "cada lunes y miércoles"), a unit with an interval
 *      ("every 2 hours", "tous les jours", "cada 15 minutos"), a date ("every march 3");
 *   4. the time of day ("at 9", "8am", "17:00", "9h30", "a las 17", "midi");
 *   5. a start ("starting monday", "à partir du 1er décembre", "desde el lunes");
 *   6. details the frequency allows: weekdays for a weekly rule ("every 2 weeks on tuesday"),
 *      days of the month or an ordinal weekday for a monthly one, a date for a yearly one.
 * What is left must be prepositions and articles; otherwise chrono-node gets one try at it (a
 * time, a date) and must account for every remaining word. Anything else: repeat-unparseable.
 *
 * The rule is checked with parseRRule (so "every minute", MINUTELY below 5, is refused). Presets
 * win when the rule is exactly a preset from the anchor (presetToRRule), with no end.
 *
 * The anchor (DTSTART, the date and time returned) is the first occurrence strictly after now:
 *  - day-or-coarser rules at the time given, 09:00 when none; the search ignores INTERVAL so
 *    "un lundi sur deux" starts next Monday, not in two weeks; a rule with no day in it ("every 2
 *    weeks", "every month") starts at the next such time of day, and its weekday / day of month
 *    is then the anchor's (written out in BYDAY / BYMONTHDAY, as presetToRRule would);
 *  - hourly and minutely rules without a time: now + the interval, the seconds dropped (truncated
 *    to the minute); with a time ("every 2 hours from 9am"): the first step after now of the
 *    series through that time today.
 *  - a start ("starting friday") moves the search to that date; a weekday that is today means
 *    next week's.
 *  - an hourly/minutely anchor is a wall clock, so it cannot be the second pass of a repeated
 *    (fall-back) hour: such steps are skipped to the first one its wall clock names.
 * The anchor matches the rule, so the engine's first occurrence is the anchor and COUNT counts
 * from it. Instants come from zoned.ts / the rule engine in the user's zone, never fixed offsets.
 *
 * Ends: "10 times" is COUNT=10. "for 10 days" is COUNT=10 when the rule fires once per day (once
 * per unit said, INTERVAL 1); otherwise UNTIL = the anchor's day + 10 days - 1 (a date UNTIL,
 * inclusive), or for hourly/minutely rules the instant just before anchor + the span. "until
 * friday" is a date UNTIL (to the end of that local day); "until friday 5pm" a UTC UNTIL.
 * A rule that never fires (UNTIL before the first occurrence, "february 31st") is
 * repeat-unparseable.
 */
import * as chrono from 'chrono-node';
import type { RecurrenceType } from '../../db/database.ts';
import {
  firstRRuleOccurrence,
  formatRRule,
  nextRRuleOccurrenceAfter,
  parseRRule,
  presetToRRule,
  type ParsedRRule,
  type RRuleAnchor,
  type RRuleByDay,
  type RRuleFreq,
  type RRuleUntil,
  type RRuleWeekday,
} from '../../time/rrule.ts';
import { daysInMonth, instantToDateTime, localTimeString, wallClockStrings, wallClockToInstant, zonedParts, type WallClock } from '../../time/zoned.ts';
import { languageOf, type Language } from '../../discord/i18n.ts';
import { parseWhen } from './parse-when.ts';
import {
  ADVERB,
  adverbOf,
  DAYNUM,
  dayNumberOf,
  EVERY,
  EVERY_NTH,
  FILLERS,
  FREQ_OF_UNIT,
  MONTH,
  MONTH_PERIOD,
  monthOf,
  NUM,
  numberOf,
  ORD,
  ordinalOf,
  REPEAT_WORDS,
  sortWeekdays,
  UNIT,
  UNIT_AFTER_DIGITS,
  UNIT_OF_FREQ,
  UNIT_RANK,
  unitOf,
  WD,
  WD_LIST,
  WD_RANGE,
  WD_PLURAL,
  WEEKEND,
  WEEKEND_WORD,
  weekdayList,
  weekdayOf,
  WORKDAY_WORD,
  WORKDAYS,
  LIST_SEP,
  type Unit,
} from './words.ts';

export type ParsedSchedule =
  | {
      ok: true;
      /** The anchor: local date `YYYY-MM-DD` in the zone. */
      date: string;
      /** The anchor's wall-clock time, `HH:MM` or `HH:MM:SS`. */
      time: string;
      /** The first occurrence (for a one-off, the reminder's instant). */
      instantMs: number;
      /** null: no repetition words (a one-off, as parseWhen). */
      repeat: null | { recurrence: RecurrenceType | 'CUSTOM'; rrule: string | null };
    }
  | { ok: false; reason: 'unparseable' }
  | { ok: false; reason: 'repeat-unparseable' };

const REPEAT_UNPARSEABLE = { ok: false, reason: 'repeat-unparseable' } as const;
const DEFAULT_TIME = { hour: 9, minute: 0, second: 0 };
const PRESETS: readonly RecurrenceType[] = ['HOURLY', 'DAILY', 'WEEKLY', 'WORKDAYS', 'WEEKEND', 'MONTHLY', 'YEARLY'];
const PARSERS = { en: chrono.en.casual, fr: chrono.fr.casual, es: chrono.es.casual };

/** Whether the text has words that mean it repeats (in any of the three languages). */
export function hasRepeatWords(text: string): boolean {
  return REPEAT_WORDS.test(fold(text.normalize('NFC')));
}

export function parseSchedule(text: string, timeZone: string, locale: string | null | undefined, nowMs = Date.now()): ParsedSchedule {
  const input = text.trim().slice(0, 200).normalize('NFC');
  if (!REPEAT_WORDS.test(fold(input))) {
    const once = parseWhen(text, timeZone, locale, nowMs);
    return once.ok ? { ok: true, date: once.date, time: once.time, instantMs: once.instantMs, repeat: null } : once;
  }
  const ctx: Ctx = { timeZone, nowMs, langs: languagesFor(locale) };
  const spec = readSpec(new Scanner(input), ctx);
  return (spec && resolve(spec, ctx)) ?? REPEAT_UNPARSEABLE;
}

// ---------------------------------------------------------------------------------------------
// Reading the text

interface Ctx {
  timeZone: string;
  nowMs: number;
  /** chrono's languages, the user's first. */
  langs: Language[];
}

type Time = { hour: number; minute: number; second: number };
type LocalDate = { year: number; month: number; day: number };

interface Spec {
  freq: RRuleFreq;
  interval: number;
  byDay: RRuleByDay[] | null;
  byMonthDay: number[] | null;
  byMonth: number[] | null;
  bySetPos: number[] | null;
  time: Time | null;
  start: LocalDate | null;
  count: number | null;
  /** "for 3 weeks" */
  span: { n: number; unit: Unit } | null;
  until: { kind: 'date'; date: LocalDate } | { kind: 'wall'; wall: WallClock } | null;
  /** The UNTIL is a weekday that is today: next week's if the series does not fire by then. */
  untilNextWeek?: boolean;
}

function languagesFor(locale: string | null | undefined): Language[] {
  const first = languageOf(locale);
  return [first, ...(['en', 'fr', 'es'] as const).filter((l) => l !== first)];
}

/** Lower case without accents, one UTF-16 unit for one, so positions in it are positions in the original. */
function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    let c = ch.toLowerCase();
    if (c.length !== ch.length) c = ch;
    const base = c.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += base.length === c.length ? base : c;
  }
  return out.replace(/[\u2018\u2019\u02bc`´]/g, "'");
}

/** The folded text and the original side by side; what is read is blanked in both. */
class Scanner {
  s: string;
  o: string;
  constructor(original: string) {
    this.o = original.replace(/[\u2018\u2019\u02bc`´]/g, "'");
    this.s = fold(this.o);
  }

  /** The first match of `source` (word-bounded), blanked; null when none. */
  take(source: string): RegExpExecArray | null {
    const m = new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, 'u').exec(this.s);
    if (!m) return null;
    this.blank(m.index, m.index + m[0].length);
    return m;
  }

  blank(from: number, to: number): void {
    const spaces = ' '.repeat(to - from);
    this.s = this.s.slice(0, from) + spaces + this.s.slice(to);
    this.o = this.o.slice(0, from) + spaces + this.o.slice(to);
  }

  /** The words still unread (folded), fillers and punctuation left out. */
  words(): string[] {
    return this.s.split(/[^\p{L}\p{N}'º]+/u).flatMap((w) => w.split("'")).filter((w) => w && !FILLERS.has(w));
  }
}

function readSpec(sc: Scanner, ctx: Ctx): Spec | null {
  const spec: Spec = { freq: 'DAILY', interval: 1, byDay: null, byMonthDay: null, byMonth: null, bySetPos: null, time: null, start: null, count: null, span: null, until: null };
  const oncePer = sc.take(String.raw`(?:once\s+(?:a|an|per|every)|(?:une\s+fois\s+)?par|una\s+vez\s+(?:al|a\s+la|por|cada))\s+(${UNIT})`);

  if (!readEnd(sc, spec, ctx)) return null;

  let core: boolean;
  if (oncePer) {
    const unit = unitOf(oncePer[1]!);
    if (!unit) return null;
    spec.freq = FREQ_OF_UNIT[unit];
    core = true;
  } else {
    core = readFrequency(sc, spec);
  }
  if (!core) return null;

  const time = readTime(sc);
  if (time === 'bad') return null;
  spec.time = time;

  const startWord = sc.take(String.raw`(?:starting(?:\s+(?:on|from))?|beginning(?:\s+on)?|commencing|from|a\s+partir\s+(?:du|de\s+la|de|d')|a\s+compter\s+(?:du|de)|des\s+(?:le|la)|desde(?:\s+el)?|a\s+partir\s+(?:del|de)|empezando(?:\s+el)?|comenzando(?:\s+el)?)`);
  if (startWord) {
    const fragment = fragmentAfter(sc, startWord.index + startWord[0].length);
    // Nothing after it: "every 2 hours from 9am" (the time is already read).
    if (fragment) {
      const ownTime = readTime(new Scanner(fragment.text));
    if (ownTime && ownTime !== 'bad' && onlyTime(fragment.text)) {
      if (spec.time) return null;
      spec.time = ownTime;
    } else {
      const found = chronoWhole(fragment.original, ctx);
      if (!found) return null;
      spec.start = found.weekday && sameDate(found.date, localDateOf(ctx.nowMs, ctx.timeZone)) ? addToDate(found.date, 1, 'week') : found.date;
      if (found.time) {
        if (spec.time) return null;
        spec.time = found.time;
      }
    }
    sc.blank(fragment.from, fragment.to);
    }
  }

  if (!readDetails(sc, spec)) return null;

  if (sc.words().length > 0) {
    // One try for chrono at what is left: a time, a date ("every year on 3 march" it would read too).
    const found = chronoWhole(sc.o, ctx, false);
    if (!found) return null;
    if (found.time) {
      if (spec.time) return null;
      spec.time = found.time;
    }
    if (found.dateCertain) {
      if (spec.freq === 'YEARLY' && !spec.byMonth && !spec.byMonthDay && !spec.byDay) {
        spec.byMonth = [found.date.month];
        spec.byMonthDay = [found.date.day];
      } else if (!spec.start) {
        spec.start = found.date;
      } else return null;
    } else if (found.weekday) {
      if (!weekdaysAllowed(spec)) return null;
      spec.byDay = [{ weekday: found.weekday, n: null }];
    } else if (!found.time) return null;
  }
  return spec;
}

/** "for 10 days", "10 times", "until friday": at most one. */
function readEnd(sc: Scanner, spec: Spec, ctx: Ctx): boolean {
  const span = sc.take(String.raw`(?:for|during|pendant|durant|durante|por)\s+(?:(?:the\s+)?next\s+|les\s+|los\s+|las\s+)?(${NUM})\s*(${UNIT_AFTER_DIGITS})`);
  if (span) {
    const n = numberOf(span[1]!);
    const unit = unitOf(span[2]!);
    if (!n || !unit) return false;
    spec.span = { n, unit };
  }
  const count = sc.take(String.raw`(${NUM})\s*(?:times|x|fois|veces)`);
  if (count) {
    const n = numberOf(count[1]!);
    if (!n || spec.span) return false;
    spec.count = n;
  }
  const until = sc.take(String.raw`(?:until|till|til|up\s+to|jusqu'?\s*(?:au|aux|a\s+la|a\s+l'|a|en)?|hasta(?:\s+el|\s+la)?)`);
  if (until) {
    if (spec.span || spec.count) return false;
    const fragment = fragmentAfter(sc, until.index + until[0].length);
    if (!fragment) return false;
    const found = chronoWhole(fragment.original, ctx);
    if (!found) return false;
    spec.until = found.time ? { kind: 'wall', wall: { ...found.date, ...found.time } } : { kind: 'date', date: found.date };
    // "until friday" said on a Friday: today, or next Friday when the series would not fire by tonight.
    if (found.weekday && sameDate(found.date, localDateOf(ctx.nowMs, ctx.timeZone))) spec.untilNextWeek = true;
    sc.blank(fragment.from, fragment.to);
  }
  return true;
}

/** The words after `from` up to the next part ("at 9", "for 10 days", a comma...). */
function fragmentAfter(sc: Scanner, from: number): { from: number; to: number; text: string; original: string } | null {
  const rest = sc.s.slice(from);
  const stop = /(?<![\p{L}\p{N}])(?:at|@|a\s+las?|a|vers|for|pendant|durant|durante|during|starting|beginning|from|desde|every|each|tous|toutes|chaque|cada|todos|todas)(?![\p{L}\p{N}])|[,;]|\s{3,}/u.exec(rest);
  const to = from + (stop ? stop.index : rest.length);
  const text = sc.s.slice(from, to);
  if (!text.trim()) return null;
  return { from, to, text, original: sc.o.slice(from, to) };
}

const setWeekly = (spec: Spec, days: RRuleWeekday[], interval = 1) => {
  spec.freq = 'WEEKLY';
  spec.interval = interval;
  spec.byDay = days.map((weekday) => ({ weekday, n: null }));
};

/** The interval after "every": a number, "other", "second"... (1 when absent). */
function intervalOf(text: string | undefined): number | null {
  if (text === undefined) return 1;
  const t = text.trim();
  return EVERY_NTH[t] ?? numberOf(t);
}

const EVERY_N = String.raw`(?:(?:the\s+)?(other|second|third|fourth|fifth|2nd|3rd|4th|5th|${NUM})\s+)?`;

/** The frequency: exactly one of the shapes below. */
function readFrequency(sc: Scanner, spec: Spec): boolean {
  let m: RegExpExecArray | null;
  const ARTICLE = String.raw`(?:(?:on\s+)?(?:the|le|la|les|el|los|las)\s+)?`;

  // "first monday of the month", "chaque premier lundi du mois", "el último viernes de cada mes",
  // "the last day of the month", "last weekday of every month".
  m = sc.take(String.raw`(?:${EVERY}\s+)?${ARTICLE}(${ORD})\s+(?:(${WD})|(days?|jours?|dias?|journee)|(${WORKDAY_WORD}))\s+${MONTH_PERIOD}`);
  if (m) {
    spec.freq = 'MONTHLY';
    return ordinalDetail(spec, m[1]!, m[2], m[3], m[4]);
  }
  // "the fourth thursday of november", "le dernier dimanche de mars": once a year.
  m = sc.take(String.raw`(?:${EVERY}\s+(?:(?:year|an|annee|ano)\s+)?)?${ARTICLE}(${ORD})\s+(${WD})\s+(?:of|in|de|d'|du\s+mois\s+de|en)\s*(${MONTH})`);
  if (m) {
    const n = ordinalOf(m[1]!);
    const weekday = weekdayOf(m[2]!);
    const month = monthOf(m[3]!);
    if (!n || !weekday || !month) return false;
    spec.freq = 'YEARLY';
    spec.byMonth = [month];
    spec.byDay = [{ weekday, n }];
    return true;
  }
  // "the 15th of every month", "le 15 de chaque mois", "el día 15 de cada mes", "every 15th".
  m = sc.take(String.raw`(?:${EVERY}\s+)?${ARTICLE}(?:(?:day|jour|dia|dias)\s+)?(${DAYNUM}(?:${LIST_SEP}(?:the\s+|le\s+|el\s+)?${DAYNUM})*)(?:\s+day)?\s+${MONTH_PERIOD}`);
  m ??= sc.take(String.raw`(?:every|each)\s+(?:the\s+)?(\d{1,2}(?:st|nd|rd|th))(?!\s*(?:${UNIT_AFTER_DIGITS}|${WD})(?![\p{L}\p{N}]))`);
  m ??= sc.take(String.raw`(?:cada|todos\s+los)\s+dias?\s+(${DAYNUM})(?!\s*(?:de\s+)?${MONTH})`);
  if (m) {
    spec.freq = 'MONTHLY';
    return monthDays(spec, m[1]!);
  }
  // "every march 3", "tous les 3 mars", "cada 3 de marzo", "todos los 25 de diciembre".
  m = sc.take(String.raw`${EVERY}\s+(?:the\s+|le\s+|el\s+)?(?:(${DAYNUM})\s+(?:of\s+|de\s+)?(${MONTH})|(${MONTH})\s+(?:the\s+)?(${DAYNUM}))`);
  if (m) {
    spec.freq = 'YEARLY';
    return yearDate(spec, m[2] ?? m[3]!, m[1] ?? m[4]!);
  }

  // Work days and the weekend, after "every": "every weekday", "tous les jours de semaine".
  if (sc.take(String.raw`${EVERY}\s+${WORKDAY_WORD}`)) {
    setWeekly(spec, WORKDAYS);
    return true;
  }
  if (sc.take(String.raw`${EVERY}\s+(?:the\s+)?${WEEKEND_WORD}`)) {
    setWeekly(spec, WEEKEND);
    return true;
  }

  // "un lundi sur deux", "une semaine sur trois", "un lunes sí y otro no", "día por medio", "alternate mondays".
  m = sc.take(String.raw`(?:un|une|1)\s+(${WD}|${UNIT})\s+sur\s+(${NUM})|(?:un|una)\s+(${WD}|${UNIT})\s+si\s*,?\s+(?:y\s+)?otr[oa]\s+no|(${WD}|${UNIT})\s+(?:de\s+)?por\s+medio|alternate\s+(${WD}|${UNIT})`);
  if (m) {
    const interval = m[2] === undefined ? 2 : numberOf(m[2]);
    const word = (m[1] ?? m[3] ?? m[4] ?? m[5])!;
    if (!interval) return false;
    return unitOrWeekday(spec, word, interval);
  }
  // "every monday and wednesday", "every other monday", "tous les lundis", "cada lunes y miércoles".
  m = sc.take(String.raw`${EVERY}\s+${EVERY_N}(${WD_LIST})`);
  if (m) {
    const interval = intervalOf(m[1]);
    const days = weekdayList(m[2]!);
    if (!interval || !days) return false;
    setWeekly(spec, days, interval);
    return true;
  }
  // "every 2 hours", "every other day", "tous les jours", "toutes les 2 heures", "cada 15 minutos".
  m = sc.take(String.raw`${EVERY}\s+(?:(\d{1,6})\s*(${UNIT_AFTER_DIGITS})|${EVERY_N}(${UNIT}))`);
  if (m) {
    const interval = m[1] !== undefined ? Number(m[1]) : intervalOf(m[3]);
    const unit = unitOf((m[2] ?? m[4])!);
    if (!interval || !unit) return false;
    spec.freq = FREQ_OF_UNIT[unit];
    spec.interval = interval;
    return true;
  }
  m = sc.take(ADVERB);
  if (m) {
    const [unit, interval] = adverbOf(m[0])!;
    spec.freq = FREQ_OF_UNIT[unit];
    spec.interval = interval;
    return true;
  }
  // Work days and the weekend without "every" (after "every 2 hours", which they can narrow).
  if (sc.take(String.raw`(?:(?:on\s+)?(?:the\s+)?|les\s+|los\s+|en\s+)?(?:week\s?-?days|work\s?-?days|business\s+days|working\s+days)|(?:les\s+|en\s+)?jours?\s+ouvr(?:e|a)(?:bl)?e?s|jours\s+de\s+(?:la\s+)?semaine|en\s+semaine|(?:los\s+)?dias\s+(?:laborables|laborales|habiles|de\s+(?:la\s+)?semana|entre\s+semana)|entre\s+semana`)) {
    setWeekly(spec, WORKDAYS);
    return true;
  }
  if (sc.take(String.raw`(?:on\s+)?(?:the\s+)?week\s?-?ends|(?:les|los)\s+${WEEKEND_WORD}|le\s+week\s?-?end(?!\s+(?:prochain|dernier|suivant|d'apres|passe))`)) {
    setWeekly(spec, WEEKEND);
    return true;
  }
  // Plurals without "every": "mondays and thursdays", "les lundis", "los lunes y miércoles"; a
  // range: "monday to friday", "du lundi au vendredi", "de lunes a viernes".
  m = sc.take(String.raw`(?:on\s+)?(${WD_RANGE}|${WD_PLURAL}(?:${LIST_SEP}(?:on\s+)?${WD_PLURAL})*)|(?:les|los)\s+(${WD_LIST})`);
  if (m) {
    const days = weekdayList((m[1] ?? m[2])!);
    if (!days) return false;
    setWeekly(spec, days);
    return true;
  }
  return false;
}

function unitOrWeekday(spec: Spec, word: string, interval: number): boolean {
  const weekday = weekdayOf(word);
  if (weekday) {
    setWeekly(spec, [weekday], interval);
    return true;
  }
  const unit = unitOf(word);
  if (!unit) return false;
  spec.freq = FREQ_OF_UNIT[unit];
  spec.interval = interval;
  return true;
}

/** ORD + weekday / day / work day, in a monthly (or yearly) rule. */
function ordinalDetail(spec: Spec, ordinal: string, weekdayWord: string | undefined, dayWord: string | undefined, workdayWord: string | undefined): boolean {
  const n = ordinalOf(ordinal);
  if (!n) return false;
  if (weekdayWord) {
    const weekday = weekdayOf(weekdayWord);
    if (!weekday) return false;
    spec.byDay = [{ weekday, n }];
  } else if (dayWord) {
    spec.byMonthDay = [n];
  } else if (workdayWord) {
    spec.byDay = WORKDAYS.map((weekday) => ({ weekday, n: null }));
    spec.bySetPos = [n];
  } else return false;
  return true;
}

function monthDays(spec: Spec, list: string): boolean {
  const days = [...new Set(list.match(/\d+(?:st|nd|rd|th|er|re|eme|e|o|º)?/g)!.map(dayNumberOf))].sort((a, b) => a - b);
  if (days.some((d) => d < 1 || d > 31)) return false;
  spec.byMonthDay = days;
  return true;
}

function yearDate(spec: Spec, monthWord: string, dayText: string): boolean {
  const month = monthOf(monthWord);
  const day = dayNumberOf(dayText);
  if (!month || day > daysInMonth(2000, month)) return false;
  spec.byMonth = [month];
  spec.byMonthDay = [day];
  return true;
}

const weekdaysAllowed = (spec: Spec) => !spec.byDay && (spec.freq === 'WEEKLY' || spec.freq === 'HOURLY' || spec.freq === 'MINUTELY');

/** What the frequency leaves open: weekdays of a weekly rule, days of a monthly one, the date of a yearly one. */
function readDetails(sc: Scanner, spec: Spec): boolean {
  let m: RegExpExecArray | null;
  const ARTICLE = String.raw`(?:(?:on|every|each|le|les|el|los|chaque|cada)\s+)?(?:the\s+)?`;
  if (weekdaysAllowed(spec)) {
    if (sc.take(String.raw`${ARTICLE}(?:${WORKDAY_WORD})`)) {
      spec.byDay = WORKDAYS.map((weekday) => ({ weekday, n: null }));
      return true;
    }
    if (sc.take(String.raw`${ARTICLE}(?:${WEEKEND_WORD})`)) {
      spec.byDay = WEEKEND.map((weekday) => ({ weekday, n: null }));
      return true;
    }
    m = sc.take(`${ARTICLE}(${WD_LIST})`);
    if (m) {
      const days = weekdayList(m[1]!);
      if (!days) return false;
      spec.byDay = sortWeekdays(days).map((weekday) => ({ weekday, n: null }));
      return true;
    }
  }
  if ((spec.freq === 'MONTHLY' || spec.freq === 'YEARLY') && !spec.byDay && !spec.byMonthDay) {
    m = sc.take(String.raw`(?:on\s+)?(?:(?:the|le|la|el)\s+)?(${ORD})\s+(?:(${WD})|(days?|jours?|dias?|journee)|(${WORKDAY_WORD}))(?:\s+(?:of|in|de|d'|du\s+mois\s+de|en)\s*(${MONTH}))?`);
    if (m) {
      if (m[5]) {
        // "every year on the fourth thursday of november"
        if (spec.freq !== 'YEARLY' || !m[2]) return false;
        spec.byMonth = [monthOf(m[5])!];
      }
      return ordinalDetail(spec, m[1]!, m[2], m[3], m[4]);
    }
  }
  if (spec.freq === 'YEARLY' && !spec.byDay && !spec.byMonthDay && !spec.byMonth) {
    m = sc.take(String.raw`(?:on\s+)?(?:the\s+|le\s+|el\s+)?(?:(${DAYNUM})\s+(?:of\s+|de\s+)?(${MONTH})|(${MONTH})\s+(?:the\s+)?(${DAYNUM}))`);
    if (m) return yearDate(spec, m[2] ?? m[3]!, m[1] ?? m[4]!);
  }
  if (spec.freq === 'MONTHLY' && !spec.byDay && !spec.byMonthDay) {
    m = sc.take(String.raw`(?:on\s+)?(?:(?:the|le|les|el|los)\s+)?(?:(?:day|jour|dia|dias)\s+)?(${DAYNUM}(?:${LIST_SEP}(?:the\s+|le\s+|el\s+)?${DAYNUM})*)(?!\s*(?:de\s+|of\s+)?${MONTH})`);
    if (m) return monthDays(spec, m[1]!);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Times of day

const AMPM = String.raw`(a\.?\s?m\.?|p\.?\s?m\.?)`;
const DAYPART = String.raw`(?:\s+(?:(?:in\s+the\s+)?(morning|afternoon|evening)|(?:at\s+)?(night)|du\s+(matin|soir)|de\s+l'\s*(apres-?\s?midi)|de\s+la\s+(manana|tarde|noche|madrugada)))?`;
const PREP = String.raw`(?:at|@|around|a\s+las|a\s+la|a|vers|sur\s+les|hacia\s+las|sobre\s+las)`;

/**
 * One time of day, taken out: "at 9", "8am", "17:00", "9h30", "à 17h", "a las 9", "noon", "midi".
 * null when there is none; 'bad' when it is not a time (25:00).
 */
function readTime(sc: Scanner): Time | null | 'bad' {
  const patterns = [
    String.raw`(?:${PREP}\s*)?(\d{1,2})\s*[:h.]\s*(\d{2})(?::(\d{2}))?\s*${AMPM}?${DAYPART}`,
    String.raw`(?:${PREP}\s*)?(\d{1,2})()()\s*${AMPM}${DAYPART}`,
    String.raw`(?:${PREP}\s*)?(\d{1,2})()()\s*(?:h|heures?|hrs|horas|o'?\s?clock)()${DAYPART}`,
    String.raw`${PREP}\s+(\d{1,2})()()()${DAYPART}`,
  ];
  for (const source of patterns) {
    const m = sc.take(source);
    if (!m) continue;
    let hour = Number(m[1]);
    const minute = m[2] ? Number(m[2]) : 0;
    const second = m[3] ? Number(m[3]) : 0;
    const meridiem = m[4]?.[0];
    const part = m[5] ?? m[6] ?? m[7] ?? m[8] ?? m[9];
    if (hour > 23 || minute > 59 || second > 59) return 'bad';
    if (meridiem) {
      if (hour < 1 || hour > 12) return 'bad';
      hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
    } else if (part && hour < 12 && !['morning', 'matin', 'manana', 'madrugada'].includes(part) && !(part === 'night' && hour < 5) && !(part === 'noche' && hour < 5)) {
      hour += 12;
    }
    return { hour, minute, second };
  }
  if (sc.take(String.raw`(?:at\s+|a\s+|al\s+|vers\s+)?(?:noon|midday|midi|mediodia)`)) return { hour: 12, minute: 0, second: 0 };
  if (sc.take(String.raw`(?:at\s+|a\s+|vers\s+)?(?:midnight|minuit|medianoche)`)) return { hour: 0, minute: 0, second: 0 };
  return null;
}

/** Whether `text` is one time of day and fillers. */
function onlyTime(text: string): boolean {
  const sc = new Scanner(text);
  readTime(sc);
  return sc.words().length === 0;
}

// ---------------------------------------------------------------------------------------------
// chrono-node for dates ("friday", "december 24", "24 de diciembre")

function wallAsUtc(instantMs: number, timeZone: string): number {
  const p = zonedParts(instantMs, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

interface ChronoFound {
  date: LocalDate;
  /** Day and month said (not implied). */
  dateCertain: boolean;
  /** Only a weekday said ("on tuesday"). */
  weekday: RRuleWeekday | null;
  time: Time | null;
}

const CHRONO_WEEKDAYS: readonly RRuleWeekday[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * chrono's reading of `text` when one result accounts for every word but fillers, else null.
 * Relative dates ("tomorrow", "next week") only where a date is expected (a start, an end).
 */
function chronoWhole(text: string, ctx: Ctx, relativeOk = true): ChronoFound | null {
  const reference = { instant: new Date(wallAsUtc(ctx.nowMs, ctx.timeZone)), timezone: 0 };
  for (const lang of ctx.langs) {
    const results = PARSERS[lang].parse(text, reference, { forwardDate: true });
    if (results.length !== 1) continue;
    const r = results[0]!;
    const sc = new Scanner(text);
    sc.blank(r.index, r.index + r.text.length);
    if (sc.words().length > 0 || r.end) continue;
    const s = r.start;
    const get = (c: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second') => s.get(c) ?? 0;
    const relative = s.tags().has('result/relativeDate') || s.tags().has('result/relativeDateAndTime');
    const dateCertain = s.isCertain('day') && s.isCertain('month');
    const weekdayOnly = s.isCertain('weekday') && !s.isCertain('day');
    const time = s.isCertain('hour') ? { hour: get('hour'), minute: get('minute'), second: get('second') } : null;
    if (relative && time && !s.isCertain('day')) continue; // "in 2 hours" is not a time of day
    if (relative && !relativeOk) continue;
    return {
      date: { year: get('year'), month: get('month'), day: get('day') },
      dateCertain: dateCertain || (relative && !time),
      weekday: weekdayOnly ? CHRONO_WEEKDAYS[s.get('weekday') ?? 0]! : null,
      time,
    };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The rule and its anchor

const isSubDaily = (freq: RRuleFreq) => freq === 'HOURLY' || freq === 'MINUTELY';
const UNIT_MS: Partial<Record<Unit, number>> = { minute: 60_000, hour: 3_600_000 };

function toRule(parts: Omit<ParsedRRule, 'wkst'>): ParsedRRule | null {
  const parsed = parseRRule(formatRRule({ ...parts, wkst: 'MO' }));
  return parsed.ok ? parsed.rule : null;
}

function localDateOf(instantMs: number, timeZone: string): LocalDate {
  const p = zonedParts(instantMs, timeZone);
  return { year: p.year, month: p.month, day: p.day };
}

const sameDate = (a: LocalDate, b: LocalDate) => a.year === b.year && a.month === b.month && a.day === b.day;
const dateString = (d: LocalDate) => wallClockStrings({ ...d, hour: 0, minute: 0 }).date;

/** A local date moved by whole days, weeks, months (the day kept, or the month's last) or years. */
function addToDate(d: LocalDate, n: number, unit: Unit): LocalDate {
  if (unit === 'day' || unit === 'week') {
    const ms = Date.UTC(d.year, d.month - 1, d.day + n * (unit === 'week' ? 7 : 1));
    const x = new Date(ms);
    return { year: x.getUTCFullYear(), month: x.getUTCMonth() + 1, day: x.getUTCDate() };
  }
  const months = d.month - 1 + n * (unit === 'year' ? 12 : 1);
  const year = d.year + Math.floor(months / 12);
  const month = (((months % 12) + 12) % 12) + 1;
  return { year, month, day: Math.min(d.day, daysInMonth(year, month)) };
}

function resolve(spec: Spec, ctx: Ctx): ParsedSchedule | null {
  const { timeZone, nowMs } = ctx;
  const base = toRule({ freq: spec.freq, interval: spec.interval, byDay: spec.byDay, byMonthDay: spec.byMonthDay, byMonth: spec.byMonth, bySetPos: spec.bySetPos, count: null, until: null });
  if (!base) return null;
  const today = localDateOf(nowMs, timeZone);

  let occ: number | null;
  let anchor: RRuleAnchor;
  if (isSubDaily(base.freq)) {
    let candidate: RRuleAnchor;
    if (spec.time || spec.start) {
      candidate = { date: dateString(spec.start ?? today), time: timeString(spec.time ?? DEFAULT_TIME), timeZone };
    } else {
      const stepMs = base.interval * (base.freq === 'HOURLY' ? 3_600_000 : 60_000);
      candidate = { ...instantToDateTime(Math.floor((nowMs + stepMs) / 60_000) * 60_000, timeZone), timeZone };
    }
    // The anchor is the occurrence's wall clock: skip any that clock does not name (the second
    // pass of a repeated hour).
    occ = nextRRuleOccurrenceAfter(base, candidate, nowMs);
    for (let i = 0; occ !== null && i < 200; i++) {
      const wall = instantToDateTime(occ, timeZone);
      if (wallClockToInstant(wallOf(wall.date, wall.time), timeZone) === occ) break;
      occ = nextRRuleOccurrenceAfter(base, candidate, occ);
    }
    if (occ === null) return null;
    anchor = { ...instantToDateTime(occ, timeZone), timeZone };
  } else {
    const time = timeString(spec.time ?? DEFAULT_TIME);
    // The first matching day, INTERVAL aside; with no day in the rule, the next such time of day.
    const noDays = !base.byDay && !base.byMonthDay && !base.byMonth;
    const search: ParsedRRule = { ...base, interval: 1, freq: noDays ? 'DAILY' : base.freq };
    occ = nextRRuleOccurrenceAfter(search, { date: dateString(spec.start ?? today), time, timeZone }, nowMs);
    if (occ === null) return null;
    anchor = { date: dateString(localDateOf(occ, timeZone)), time, timeZone };
  }

  // What the rule left to the anchor, written out as the presets have it.
  let rule: ParsedRRule = base;
  if (rule.freq === 'WEEKLY' && !rule.byDay) {
    rule = { ...rule, byDay: presetToRRule('WEEKLY', anchor).byDay };
  } else if ((rule.freq === 'MONTHLY' || rule.freq === 'YEARLY') && !rule.byDay && (!rule.byMonthDay || isShortMonthDay(rule))) {
    const preset = presetToRRule(rule.freq, anchor);
    rule = { ...rule, byMonth: preset.byMonth, byMonthDay: preset.byMonthDay, bySetPos: preset.bySetPos };
  }

  let ends = endOf(spec, rule, anchor, occ, ctx);
  if (ends === null) return null;
  let full = toRule({ ...rule, ...ends });
  if (!full) return null;
  let first = firstRRuleOccurrence(full, anchor);
  if (first === null && spec.untilNextWeek && spec.until) {
    const u = spec.until;
    const later: Spec['until'] = u.kind === 'date' ? { kind: 'date', date: addToDate(u.date, 1, 'week') } : { kind: 'wall', wall: { ...u.wall, ...addToDate(u.wall, 1, 'week') } };
    ends = endOf({ ...spec, until: later }, rule, anchor, occ, ctx);
    full = ends && toRule({ ...rule, ...ends });
    if (!full) return null;
    first = firstRRuleOccurrence(full, anchor);
  }
  if (first !== occ) return null; // never fires (UNTIL before the first occurrence), or not from its anchor

  let recurrence: RecurrenceType | 'CUSTOM' = 'CUSTOM';
  if (!full.count && !full.until) {
    const text = formatRRule(full);
    recurrence = PRESETS.find((p) => formatRRule(presetToRRule(p, anchor)) === text) ?? 'CUSTOM';
  }
  return {
    ok: true,
    date: anchor.date,
    time: anchor.time,
    instantMs: occ,
    repeat: { recurrence, rrule: recurrence === 'CUSTOM' ? formatRRule(full) : null },
  };
}

/** A monthly 29th-31st or a yearly February 29th: the presets' "or the month's last day" reading. */
function isShortMonthDay(rule: ParsedRRule): boolean {
  const days = rule.byMonthDay;
  if (!days || days.length !== 1 || rule.bySetPos) return false;
  if (rule.freq === 'MONTHLY') return !rule.byMonth && days[0]! > 28;
  return rule.byMonth?.length === 1 && rule.byMonth[0] === 2 && days[0] === 29;
}

function wallOf(date: string, time: string): WallClock {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute, second] = time.split(':').map(Number) as [number, number, number | undefined];
  return { year, month, day, hour, minute, second: second ?? 0 };
}

const timeString = (t: Time) => localTimeString(t.hour, t.minute, t.second);

/** COUNT or UNTIL from "10 times", "for 10 days", "until friday". */
function endOf(spec: Spec, rule: ParsedRRule, anchor: RRuleAnchor, firstMs: number, ctx: Ctx): { count: number | null; until: RRuleUntil | null } | null {
  if (spec.count) return { count: spec.count, until: null };
  if (spec.until) {
    if (spec.until.kind === 'date') return { count: null, until: { kind: 'date', date: dateString(spec.until.date) } };
    return { count: null, until: { kind: 'utc', ms: wallClockToInstant(spec.until.wall, ctx.timeZone) } };
  }
  if (!spec.span) return { count: null, until: null };
  const { n, unit } = spec.span;
  const perPeriod = rule.bySetPos ? rule.bySetPos.length : (rule.byDay?.length ?? 1) * (rule.byMonthDay?.length ?? 1) * (rule.byMonth?.length ?? 1);
  const ruleUnit = UNIT_OF_FREQ[rule.freq];
  if (unit === ruleUnit && rule.interval === 1 && perPeriod === 1 && !(isSubDaily(rule.freq) && rule.byDay)) return { count: n, until: null };
  if (isSubDaily(rule.freq)) {
    // Up to (not including) the same reading n units later.
    const unitMs = UNIT_MS[unit];
    const endMs = unitMs ? firstMs + n * unitMs : wallClockToInstant({ ...wallOf(anchor.date, anchor.time), ...addToDate(localDateOf(firstMs, ctx.timeZone), n, unit) }, ctx.timeZone);
    return { count: null, until: { kind: 'utc', ms: endMs - 1000 } };
  }
  if (UNIT_RANK[unit] < UNIT_RANK.day) return null; // "every day for 3 hours"
  const start = wallOf(anchor.date, anchor.time);
  return { count: null, until: { kind: 'date', date: dateString(addToDate(addToDate(start, n, unit), -1, 'day')) } };
}
