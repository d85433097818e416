/**
 * The vocabulary of parse-schedule.ts, in English, French and Spanish, as regex sources over the
 * *folded* text (lower case, accents removed: "mercredi", "miercoles", "annee", "ano").
 */
import type { RRuleFreq, RRuleWeekday } from '../../time/rrule.ts';

/** Alternation of words, longest first so "mon" never wins over "monday". */
const alt = (words: Iterable<string>) =>
  `(?:${[...words]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
    .join('|')})`;

// ---------------------------------------------------------------------------------------------
// Weekdays

const WEEKDAY_NAMES: Record<string, RRuleWeekday> = {
  monday: 'MO', mon: 'MO', tuesday: 'TU', tues: 'TU', tue: 'TU', wednesday: 'WE', wed: 'WE',
  thursday: 'TH', thurs: 'TH', thur: 'TH', thu: 'TH', friday: 'FR', fri: 'FR', saturday: 'SA', sat: 'SA', sunday: 'SU', sun: 'SU',
  lundi: 'MO', mardi: 'TU', mercredi: 'WE', jeudi: 'TH', vendredi: 'FR', samedi: 'SA', dimanche: 'SU',
  lunes: 'MO', martes: 'TU', miercoles: 'WE', jueves: 'TH', viernes: 'FR', sabado: 'SA', domingo: 'SU',
};

/** One weekday name, singular or plural ("monday", "mondays", "lundis", "sabados"). */
export const WD = `${alt(Object.keys(WEEKDAY_NAMES))}s?`;
/** A weekday name in the plural, in English or French (Spanish plurals are the article's: "los lunes"). */
export const WD_PLURAL = `(?:${alt(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche', 'sabado', 'domingo'])}s)`;

export function weekdayOf(word: string): RRuleWeekday | null {
  const w = word.trim();
  return WEEKDAY_NAMES[w] ?? (w.endsWith('s') ? (WEEKDAY_NAMES[w.slice(0, -1)] ?? null) : null);
}

/** Between two items of a list: "monday, wednesday and friday", "lundi et mercredi", "lunes y miercoles". */
export const LIST_SEP = String.raw`(?:\s*,\s*(?:(?:and|et|y|e)\s+)?|\s+(?:and|et|y|e|&|plus)\s+|\s*[&/+]\s*)`;
/** Optional article or preposition before a list item: "monday and on wednesday", "le lundi et le mercredi". */
const ITEM_ARTICLE = String.raw`(?:(?:on|the|le|les|el|los|las)\s+)?`;
/** A range of weekdays: "monday to friday", "mon-fri", "du lundi au vendredi", "de lunes a viernes". */
export const WD_RANGE = String.raw`(?:(?:from|du|de)\s+)?${WD}\s*(?:-|\bto\b|\bthrough\b|\bthru\b|\bau\b|\ba\b)\s*${WD}`;
/** A list of weekdays, or a range. */
export const WD_LIST = `(?:${WD_RANGE}|${WD}(?:${LIST_SEP}${ITEM_ARTICLE}${WD})*)`;

const ISO_ORDER: readonly RRuleWeekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** The weekdays a WD_LIST match names, in ISO order without duplicates; null when a word is not a weekday. */
export function weekdayList(text: string): RRuleWeekday[] | null {
  const range = new RegExp(`^(?:(?:from|du|de)\\s+)?(${WD})\\s*(?:-|\\bto\\b|\\bthrough\\b|\\bthru\\b|\\bau\\b|\\ba\\b)\\s*(${WD})$`).exec(text.trim());
  if (range) {
    const a = weekdayOf(range[1]!);
    const b = weekdayOf(range[2]!);
    if (!a || !b) return null;
    const out: RRuleWeekday[] = [];
    for (let i = ISO_ORDER.indexOf(a); ; i = (i + 1) % 7) {
      out.push(ISO_ORDER[i]!);
      if (ISO_ORDER[i] === b) break;
    }
    return sortWeekdays(out);
  }
  const days: RRuleWeekday[] = [];
  for (const word of text.split(new RegExp(LIST_SEP))) {
    const w = word.trim().replace(/^(?:(?:on|the|le|les|el|los|las)\s+)+/, '');
    if (!w) continue;
    const d = weekdayOf(w);
    if (!d) return null;
    days.push(d);
  }
  return days.length > 0 ? sortWeekdays(days) : null;
}

export const sortWeekdays = (days: RRuleWeekday[]) => ISO_ORDER.filter((d) => days.includes(d));
export const WORKDAYS: RRuleWeekday[] = ['MO', 'TU', 'WE', 'TH', 'FR'];
export const WEEKEND: RRuleWeekday[] = ['SA', 'SU'];

// ---------------------------------------------------------------------------------------------
// Months

const MONTH_NAMES: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6, july: 7, jul: 7,
  august: 8, aug: 8, september: 9, sept: 9, sep: 9, october: 10, oct: 10, november: 11, nov: 11, december: 12, dec: 12,
  janvier: 1, fevrier: 2, mars: 3, avril: 4, mai: 5, juin: 6, juillet: 7, aout: 8, septembre: 9, octobre: 10, novembre: 11, decembre: 12,
  enero: 1, febrero: 2, marzo: 3, abril: 4, mayo: 5, junio: 6, julio: 7, agosto: 8, septiembre: 9, setiembre: 9, octubre: 10, noviembre: 11, diciembre: 12,
};
export const MONTH = `${alt(Object.keys(MONTH_NAMES))}\\.?`;
export const monthOf = (word: string): number | null => MONTH_NAMES[word.trim().replace(/\.$/, '')] ?? null;

// ---------------------------------------------------------------------------------------------
// Numbers and ordinals

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, 'forty-five': 45, 'forty five': 45, 'a couple of': 2, 'couple of': 2,
  un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11, douze: 12,
  quinze: 15, vingt: 20, trente: 30, 'quarante-cinq': 45, 'quarante cinq': 45,
  uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11, doce: 12,
  quince: 15, veinte: 20, treinta: 30, 'cuarenta y cinco': 45,
};
// "once" is Spanish 11 but English "once": it is only read as a number after "cada"/"every" or before a unit.
/** A whole number in digits or words. */
export const NUM = String.raw`(?:\d{1,6}|${alt(Object.keys(NUMBER_WORDS))})`;
export function numberOf(text: string): number | null {
  const t = text.trim().replace(/\s+/g, ' ');
  if (/^\d+$/.test(t)) return Number(t);
  return NUMBER_WORDS[t] ?? null;
}

const ORDINAL_WORDS: Record<string, number> = {
  first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, fifth: 5, '5th': 5, last: -1,
  'second to last': -2, 'second-to-last': -2, 'next to last': -2, 'next-to-last': -2, penultimate: -2,
  premier: 1, premiere: 1, premiers: 1, premieres: 1, '1er': 1, '1ere': 1, '1re': 1, deuxieme: 2, deuxiemes: 2, seconde: 2, '2e': 2, '2eme': 2, '2nde': 2,
  troisieme: 3, troisiemes: 3, '3e': 3, '3eme': 3, quatrieme: 4, quatriemes: 4, '4e': 4, '4eme': 4, cinquieme: 5, '5e': 5, '5eme': 5,
  dernier: -1, derniere: -1, derniers: -1, dernieres: -1, 'avant-dernier': -2, 'avant-derniere': -2, 'avant dernier': -2, 'avant derniere': -2,
  primer: 1, primero: 1, primera: 1, primeros: 1, primeras: 1, '1o': 1, '1a': 1, '1º': 1, '1ª': 1, segundo: 2, segunda: 2, '2o': 2, '2a': 2, '2º': 2, '2ª': 2,
  tercer: 3, tercero: 3, tercera: 3, '3er': 3, '3o': 3, '3a': 3, '3º': 3, '3ª': 3, cuarto: 4, cuarta: 4, '4o': 4, '4º': 4, quinto: 5, quinta: 5, '5o': 5, '5º': 5,
  ultimo: -1, ultima: -1, ultimos: -1, ultimas: -1, penultimo: -2, penultima: -2,
};
export const ORD = alt(Object.keys(ORDINAL_WORDS));
export const ordinalOf = (word: string): number | null => ORDINAL_WORDS[word.trim().replace(/\s+/g, ' ')] ?? null;

/** A day of the month, digits with an optional suffix: "15", "15th", "1er", "1o". */
export const DAYNUM = String.raw`(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th|er|re|eme|e|o|º)?`;
export const dayNumberOf = (text: string): number => Number(/\d+/.exec(text)![0]);

// ---------------------------------------------------------------------------------------------
// Units and frequencies

export type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

const UNIT_WORDS: Record<string, Unit> = {
  minute: 'minute', minutes: 'minute', min: 'minute', mins: 'minute', mn: 'minute', minuto: 'minute', minutos: 'minute',
  hour: 'hour', hours: 'hour', hr: 'hour', hrs: 'hour', h: 'hour', heure: 'hour', heures: 'hour', hora: 'hour', horas: 'hour',
  day: 'day', days: 'day', jour: 'day', jours: 'day', journee: 'day', dia: 'day', dias: 'day',
  week: 'week', weeks: 'week', semaine: 'week', semaines: 'week', semana: 'week', semanas: 'week',
  month: 'month', months: 'month', mois: 'month', mes: 'month', meses: 'month',
  year: 'year', years: 'year', an: 'year', ans: 'year', annee: 'year', annees: 'year', ano: 'year', anos: 'year',
};
/** A unit word; `h` and `min` only right after digits ("every 2h"), see UNIT_AFTER_DIGITS. */
export const UNIT = alt(Object.keys(UNIT_WORDS).filter((w) => w !== 'h' && w !== 'mn' && w !== 'min'));
export const UNIT_AFTER_DIGITS = alt(Object.keys(UNIT_WORDS));
export const unitOf = (word: string): Unit | null => UNIT_WORDS[word.trim()] ?? null;

export const FREQ_OF_UNIT: Record<Unit, RRuleFreq> = { minute: 'MINUTELY', hour: 'HOURLY', day: 'DAILY', week: 'WEEKLY', month: 'MONTHLY', year: 'YEARLY' };
export const UNIT_OF_FREQ: Record<RRuleFreq, Unit> = { MINUTELY: 'minute', HOURLY: 'hour', DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' };
export const UNIT_RANK: Record<Unit, number> = { minute: 0, hour: 1, day: 2, week: 3, month: 4, year: 5 };

/** Adverbs that are a frequency on their own: "daily", "hebdomadaire", "mensualmente". */
const ADVERBS: Record<string, [Unit, number]> = {
  daily: ['day', 1], everyday: ['day', 1], hourly: ['hour', 1], weekly: ['week', 1], monthly: ['month', 1], yearly: ['year', 1], annually: ['year', 1],
  fortnightly: ['week', 2], biweekly: ['week', 2],
  quotidien: ['day', 1], quotidienne: ['day', 1], quotidiennement: ['day', 1], 'chaque jour': ['day', 1],
  hebdomadaire: ['week', 1], hebdomadairement: ['week', 1], mensuel: ['month', 1], mensuelle: ['month', 1], mensuellement: ['month', 1],
  annuel: ['year', 1], annuelle: ['year', 1], annuellement: ['year', 1],
  diario: ['day', 1], diaria: ['day', 1], diariamente: ['day', 1], 'a diario': ['day', 1], semanal: ['week', 1], semanalmente: ['week', 1],
  mensual: ['month', 1], mensualmente: ['month', 1], anual: ['year', 1], anualmente: ['year', 1],
};
export const ADVERB = alt(Object.keys(ADVERBS));
export const adverbOf = (word: string): [Unit, number] | null => ADVERBS[word.trim().replace(/\s+/g, ' ')] ?? null;

/** "every", "each", "tous les", "toutes les", "chaque", "cada", "todos los", "todas las". */
export const EVERY = String.raw`(?:every|each|tous\s+les|toutes\s+les|tous|toutes|chaque|cada|todos\s+los|todas\s+las|todos|todas)`;

/** Ordinals read as an interval after "every": "every other day", "every third week". */
export const EVERY_NTH: Record<string, number> = { other: 2, second: 2, third: 3, fourth: 4, fifth: 5, '2nd': 2, '3rd': 3, '4th': 4, '5th': 5 };

/** "of the month", "of every month", "monthly", "du mois", "de chaque mois", "del mes", "de cada mes". */
export const MONTH_PERIOD = String.raw`(?:of\s+(?:the\s+|every\s+|each\s+)?month(?!\s+of)|in\s+(?:every|each)\s+month|every\s+month|each\s+month|monthly|per\s+month|du\s+mois(?!\s+(?:prochain|dernier|suivant|en\s+cours))|de\s+(?:chaque|tous\s+les)\s+mois|chaque\s+mois|tous\s+les\s+mois|par\s+mois|del\s+mes(?!\s+(?:que\s+viene|proximo|siguiente|pasado))|de\s+(?:cada|todos\s+los)\s+mes(?:es)?|cada\s+mes|todos\s+los\s+meses|al\s+mes|por\s+mes)`;

/** A weekday word that stands for "any of Monday to Friday": "weekday", "jour ouvré", "día laborable". */
export const WORKDAY_WORD = String.raw`(?:week\s?-?days?|work\s?-?days?|business\s+days?|working\s+days?|jours?\s+ouvr(?:e|a)(?:bl)?e?s?|jours?\s+de\s+(?:la\s+)?semaine|dias?\s+(?:laborables?|laborales?|habiles?|de\s+(?:la\s+)?semana|entre\s+semana))`;
/** "weekend", "week-ends", "fin de semana", "fines de semana". */
export const WEEKEND_WORD = String.raw`(?:week\s?-?ends?|fin(?:es)?\s+de\s+semana)`;

/**
 * Words that mean the text repeats. When any of them is present, parseSchedule never answers a
 * one-off: it understands the repetition or says it could not.
 */
export const REPEAT_WORDS = new RegExp(
  [
    String.raw`\b(?:every|each|everyday|daily|hourly|weekly|monthly|yearly|annually|fortnightly|biweekly|alternate|once\s+(?:a|an|per|every)|weekdays|weekends|workdays|business\s+days|working\s+days|(?:mon|tues|wednes|thurs|fri|satur|sun)days|until|till|til|times)\b`,
    String.raw`\b(?:tous|toutes|chaque|quotidien\w*|hebdomadaire\w*|mensuel\w*|annuel\w*|(?:lun|mar|mercre|jeu|vendre|same)dis|dimanches|jusqu|sur\s+(?:deux|trois|quatre|\d+)|ouvres|ouvrables|en\s+semaine|week-?ends|le\s+week-?end(?!\s+(?:prochain|dernier|suivant|d'apres|passe))|par\s+(?:jour|semaine|mois|an|annee|heure)|fois)\b`,
    String.raw`\b(?:cada|todos|todas|diari\w*|a\s+diario|semanal\w*|mensual\w*|anual\w*|hasta|laborables|habiles|entre\s+semana|fines\s+de\s+semana|los\s+(?:lunes|martes|miercoles|jueves|viernes|sabados|domingos)|si\s+y\s+otr[oa]\s+no|por\s+medio|una\s+vez|veces)\b`,
    String.raw`\b(?:for|during|pendant|durant|durante)\s+${NUM}\s+${UNIT}\b`,
    MONTH_PERIOD,
    WD_RANGE,
  ].join('|'),
);

/** Words that may be left over between the parts: prepositions and articles. */
export const FILLERS = new Set(['at', 'on', 'the', 'of', 'in', 'and', 'le', 'la', 'les', 'l', 'a', 'au', 'aux', 'de', 'du', 'd', 'el', 'los', 'las', 'en', 'et', 'y', 'starting', 'from']);
