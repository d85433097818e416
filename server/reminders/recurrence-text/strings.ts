/**
 * The words of recurrence sentences: locales/{en,fr,es}/recurrence.json (through
 * lib/string-catalog.ts), and the names Intl knows (weekdays, months, lists, numbers, long dates).
 */
import type { Language } from '../../lib/language.ts';
import { loadStringCatalog, type Vars } from '../../lib/string-catalog.ts';
import type { RRuleWeekday } from '../../time/rrule.ts';

export type { Vars };

const catalog = loadStringCatalog('recurrence');

/** The words for one language. */
export class Words {
  private readonly list: Intl.ListFormat;
  private readonly orList: Intl.ListFormat;
  private readonly number: Intl.NumberFormat;
  private readonly ordinal: Intl.PluralRules;

  constructor(readonly lang: Language) {
    this.list = new Intl.ListFormat(lang, { type: 'conjunction' });
    this.orList = new Intl.ListFormat(lang, { type: 'disjunction' });
    this.number = new Intl.NumberFormat(lang);
    this.ordinal = new Intl.PluralRules(lang, { type: 'ordinal' });
  }

  t(key: string, vars: Vars = {}): string {
    return catalog.translate(this.lang, key, vars);
  }

  and(items: string[]): string {
    return this.list.format(items);
  }

  or(items: string[]): string {
    return this.orList.format(items);
  }

  num(n: number): string {
    return this.number.format(n);
  }

  weekday(w: RRuleWeekday): string {
    return WEEKDAY_NAMES[this.lang][w];
  }

  /** 1..12 */
  month(m: number): string {
    return MONTH_NAMES[this.lang][m - 1]!;
  }

  /** A day of the month as written in a date or "day 1" ("1er" in French). */
  monthDay(d: number): string {
    return d === 1 ? this.t('monthDay.first') : String(d);
  }

  /** "the first Monday", "the last day", "the 2nd-to-last weekday", "the 20th Monday". */
  nth(n: number, noun: string): string {
    return this.ordinalPhrase(NTH, n, noun);
  }

  /** The same without a noun: "the first", "the last". */
  pos(n: number): string {
    return this.ordinalPhrase(POS, n, '');
  }

  private ordinalPhrase(keys: OrdinalKeys, n: number, noun: string): string {
    if (n >= 1 && n <= 5) return this.t(keys.words[n - 1]!, { noun });
    if (n === -1) return this.t(keys.last, { noun });
    if (n === -2) return this.t(keys.secondLast, { noun });
    const nth = this.t(NUMERIC[this.ordinal.select(Math.abs(n)) as keyof typeof NUMERIC] ?? NUMERIC.other, { n: this.num(Math.abs(n)) });
    return this.t(n > 0 ? keys.n : keys.fromEnd, { nth, noun });
  }

  /** A local date, long style ("March 1, 2027", "1 mars 2027", "1 de marzo de 2027"). */
  longDate(year: number, month: number, day: number): string {
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, day);
    return new Intl.DateTimeFormat(this.lang, { dateStyle: 'long', timeZone: 'UTC' }).format(d);
  }
}

interface OrdinalKeys {
  words: readonly string[];
  n: string;
  last: string;
  secondLast: string;
  fromEnd: string;
}

const NTH: OrdinalKeys = {
  words: ['nth.1', 'nth.2', 'nth.3', 'nth.4', 'nth.5'],
  n: 'nth.n',
  last: 'nth.last',
  secondLast: 'nth.secondLast',
  fromEnd: 'nth.fromEnd',
};
const POS: OrdinalKeys = {
  words: ['pos.1', 'pos.2', 'pos.3', 'pos.4', 'pos.5'],
  n: 'pos.n',
  last: 'pos.last',
  secondLast: 'pos.secondLast',
  fromEnd: 'pos.fromEnd',
};
const NUMERIC = { one: 'numeric.one', two: 'numeric.two', few: 'numeric.few', other: 'numeric.other' } as const;

const WEEKDAY_ORDER: readonly RRuleWeekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

function names(lang: Language) {
  const weekday = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(lang, { month: 'long', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  const weekdays = Object.fromEntries(WEEKDAY_ORDER.map((w, i) => [w, weekday.format(Date.UTC(2024, 0, 1 + i))])) as Record<RRuleWeekday, string>;
  const months = Array.from({ length: 12 }, (_, i) => month.format(Date.UTC(2024, i, 1)));
  return { weekdays, months };
}

const NAMES = { en: names('en'), fr: names('fr'), es: names('es') };
const WEEKDAY_NAMES: Record<Language, Record<RRuleWeekday, string>> = { en: NAMES.en.weekdays, fr: NAMES.fr.weekdays, es: NAMES.es.weekdays };
const MONTH_NAMES: Record<Language, string[]> = { en: NAMES.en.months, fr: NAMES.fr.months, es: NAMES.es.months };

const WORDS: Record<Language, Words> = { en: new Words('en'), fr: new Words('fr'), es: new Words('es') };

export function wordsFor(language: Language): Words {
  return WORDS[language] ?? WORDS.en;
}
