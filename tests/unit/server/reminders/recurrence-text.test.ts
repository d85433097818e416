/**
 * describeRecurrence (server/reminders/recurrence-text/index.ts): exact sentences for presets and custom
 * rules in en, fr and es, then 2,000 random valid rules that must each get a non-empty sentence.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RecurrenceType } from '../../../../server/db/database.ts';
import { recurrenceSummary } from '../../../../server/reminders/recurrence-summary.ts';
import { describeRecurrence } from '../../../../server/reminders/recurrence-text/index.ts';
import { firstOccurrenceOf } from '../../../../server/reminders/schedule.ts';
import { firesAtLeastOnce, parseRRule, type ParsedRRule } from '../../../../server/time/rrule.ts';
import { rruleOccurrences } from '../../../helpers/rrule-listing.ts';

const LANGS = ['en', 'fr', 'es'] as const;
/** A Tuesday. */
const DATE = '2026-03-03';
const ZONE = 'America/New_York';

function rule(text: string): ParsedRRule {
  const parsed = parseRRule(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.message}`);
  return parsed.rule;
}

type Row = [what: string, en: string, fr: string, es: string, anchor?: { date?: string; timeZone?: string }];

const PRESETS: Row[] = [
  ['ONCE', 'Once', 'Une seule fois', 'Una sola vez'],
  ['HOURLY', 'Every hour', 'Toutes les heures', 'Cada hora'],
  ['DAILY', 'Every day', 'Tous les jours', 'Todos los días'],
  ['WEEKLY', 'Every week on Tuesday', 'Chaque semaine le mardi', 'Cada semana el martes'],
  ['WORKDAYS', 'Every weekday (Monday to Friday)', 'Tous les jours ouvrables (du lundi au vendredi)', 'Todos los días laborables (de lunes a viernes)'],
  ['WEEKEND', 'Every weekend', 'Tous les week-ends', 'Todos los fines de semana'],
  ['MONTHLY', 'Every month on day 3', 'Chaque mois le 3', 'Cada mes el día 3'],
  ['MONTHLY', 'Every month on day 15', 'Chaque mois le 15', 'Cada mes el día 15', { date: '2026-03-15' }],
  ['MONTHLY', 'Every month on day 1', 'Chaque mois le 1er', 'Cada mes el día 1', { date: '2026-03-01' }],
  ['MONTHLY', 'Every month on the last day', 'Chaque mois le dernier jour', 'Cada mes el último día', { date: '2026-01-31' }],
  [
    'MONTHLY',
    'Every month on day 30 (or the last day of shorter months)',
    'Chaque mois le 30 (ou le dernier jour des mois plus courts)',
    'Cada mes el día 30 (o el último día de los meses más cortos)',
    { date: '2026-01-30' },
  ],
  ['YEARLY', 'Every year on March 3', 'Chaque année le 3 mars', 'Cada año el 3 de marzo'],
  ['YEARLY', 'Every year on March 1', 'Chaque année le 1er mars', 'Cada año el 1 de marzo', { date: '2026-03-01' }],
  [
    'YEARLY',
    'Every year on February 29 (February 28 in other years)',
    'Chaque année le 29 février (le 28 février les autres années)',
    'Cada año el 29 de febrero (el 28 de febrero los demás años)',
    { date: '2028-02-29' },
  ],
];

const CUSTOM: Row[] = [
  // FREQ and INTERVAL
  ['FREQ=MINUTELY;INTERVAL=15', 'Every 15 minutes', 'Toutes les 15 minutes', 'Cada 15 minutos'],
  ['FREQ=HOURLY', 'Every hour', 'Toutes les heures', 'Cada hora'],
  ['FREQ=HOURLY;INTERVAL=2', 'Every 2 hours', 'Toutes les 2 heures', 'Cada 2 horas'],
  ['FREQ=HOURLY;INTERVAL=3', 'Every 3 hours', 'Toutes les 3 heures', 'Cada 3 horas'],
  ['FREQ=DAILY', 'Every day', 'Tous les jours', 'Todos los días'],
  ['FREQ=DAILY;INTERVAL=2', 'Every other day', 'Tous les deux jours', 'Cada dos días'],
  ['FREQ=DAILY;INTERVAL=3', 'Every 3 days', 'Tous les 3 jours', 'Cada 3 días'],
  ['FREQ=WEEKLY', 'Every week on Tuesday', 'Chaque semaine le mardi', 'Cada semana el martes'],
  ['FREQ=WEEKLY;INTERVAL=2', 'Every 2 weeks on Tuesday', 'Toutes les 2 semaines le mardi', 'Cada 2 semanas el martes'],
  ['FREQ=MONTHLY', 'Every month on day 3', 'Chaque mois le 3', 'Cada mes el día 3'],
  ['FREQ=MONTHLY;INTERVAL=4', 'Every 4 months on day 3', 'Tous les 4 mois le 3', 'Cada 4 meses el día 3'],
  ['FREQ=YEARLY', 'Every year on March 3', 'Chaque année le 3 mars', 'Cada año el 3 de marzo'],
  ['FREQ=YEARLY;INTERVAL=2', 'Every 2 years on March 3', 'Tous les 2 ans le 3 mars', 'Cada 2 años el 3 de marzo'],
  // BYDAY, plain
  ['FREQ=DAILY;BYDAY=MO,WE', 'Every week on Monday and Wednesday', 'Chaque semaine le lundi et le mercredi', 'Cada semana el lunes y el miércoles'],
  ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'Every weekday (Monday to Friday)', 'Tous les jours ouvrables (du lundi au vendredi)', 'Todos los días laborables (de lunes a viernes)'],
  ['FREQ=DAILY;BYDAY=SA,SU', 'Every weekend', 'Tous les week-ends', 'Todos los fines de semana'],
  ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU', 'Every day', 'Tous les jours', 'Todos los días'],
  ['FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,TU,WE,TH,FR', 'Every 3 weeks on weekdays', 'Toutes les 3 semaines du lundi au vendredi', 'Cada 3 semanas de lunes a viernes'],
  ['FREQ=MINUTELY;INTERVAL=45;BYDAY=SA', 'Every 45 minutes on Saturday', 'Toutes les 45 minutes le samedi', 'Cada 45 minutos el sábado'],
  ['FREQ=MONTHLY;BYDAY=MO', 'Every week on Monday', 'Chaque semaine le lundi', 'Cada semana el lunes'],
  ['FREQ=YEARLY;BYMONTH=12;BYDAY=MO,TU,WE,TH,FR', 'Every week on weekdays in December', 'Chaque semaine du lundi au vendredi en décembre', 'Cada semana de lunes a viernes en diciembre'],
  ['FREQ=MONTHLY;INTERVAL=2;BYDAY=MO', 'Every 2 months on every Monday', 'Tous les 2 mois tous les lundis', 'Cada 2 meses cada lunes'],
  ['FREQ=MONTHLY;INTERVAL=3;BYDAY=MO,1FR', 'Every 3 months on every Monday and the first Friday', 'Tous les 3 mois tous les lundis et le premier vendredi', 'Cada 3 meses cada lunes y el primer viernes'],
  // BYDAY with ordinals
  ['FREQ=MONTHLY;BYDAY=1MO', 'Every month on the first Monday', 'Chaque mois le premier lundi', 'Cada mes el primer lunes'],
  ['FREQ=MONTHLY;BYDAY=-1FR', 'Every month on the last Friday', 'Chaque mois le dernier vendredi', 'Cada mes el último viernes'],
  ['FREQ=MONTHLY;BYDAY=2TU', 'Every month on the second Tuesday', 'Chaque mois le deuxième mardi', 'Cada mes el segundo martes'],
  ['FREQ=MONTHLY;BYDAY=1MO,-1FR', 'Every month on the first Monday and the last Friday', 'Chaque mois le premier lundi et le dernier vendredi', 'Cada mes el primer lunes y el último viernes'],
  ['FREQ=YEARLY;BYMONTH=11;BYDAY=4TH', 'Every year in November on the fourth Thursday', 'Chaque année en novembre le quatrième jeudi', 'Cada año en noviembre el cuarto jueves'],
  ['FREQ=YEARLY;BYDAY=20MO', 'Every year on the 20th Monday of the year', "Chaque année le 20e lundi de l'année", 'Cada año el 20.º lunes del año'],
  [
    'FREQ=YEARLY;BYDAY=-3SU',
    'Every year on the 3rd-to-last Sunday of the year',
    "Chaque année le 3e dimanche en partant de la fin de l'année",
    'Cada año el 3.º domingo contando desde el final del año',
  ],
  // BYMONTHDAY
  ['FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1,15', 'Every 2 months on days 1 and 15', 'Tous les 2 mois le 1er et le 15', 'Cada 2 meses los días 1 y 15'],
  ['FREQ=MONTHLY;BYMONTHDAY=-1', 'Every month on the last day', 'Chaque mois le dernier jour', 'Cada mes el último día'],
  ['FREQ=MONTHLY;BYMONTHDAY=-2', 'Every month on the 2nd-to-last day', "Chaque mois l'avant-dernier jour", 'Cada mes el penúltimo día'],
  ['FREQ=MONTHLY;BYMONTHDAY=1,-1', 'Every month on day 1 and the last day', 'Chaque mois le 1er et le dernier jour', 'Cada mes el día 1 y el último día'],
  ['FREQ=DAILY;BYMONTHDAY=1', 'Every month on day 1', 'Chaque mois le 1er', 'Cada mes el día 1'],
  ['FREQ=HOURLY;INTERVAL=6;BYMONTHDAY=1', 'Every 6 hours on day 1 of each month', 'Toutes les 6 heures le 1er de chaque mois', 'Cada 6 horas el día 1 de cada mes'],
  ['FREQ=YEARLY;BYMONTHDAY=15', 'Every year on day 15 of each month', 'Chaque année le 15 de chaque mois', 'Cada año el día 15 de cada mes'],
  ['FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13', 'Every month on day 13, if it is a Friday', "Chaque mois le 13, si c'est un vendredi", 'Cada mes el día 13, si es viernes'],
  // BYMONTH
  ['FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=1', 'Every year in January and July on day 1', 'Chaque année en janvier et juillet le 1er', 'Cada año en enero y julio el día 1'],
  ['FREQ=YEARLY;BYMONTH=1,7', 'Every year in January and July on day 3', 'Chaque année en janvier et juillet le 3', 'Cada año en enero y julio el día 3'],
  ['FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=-1', 'Every year in March on the last day', 'Chaque année en mars le dernier jour', 'Cada año en marzo el último día'],
  ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=13;BYDAY=FR', 'Every year on February 13, if it is a Friday', "Chaque année le 13 février, si c'est un vendredi", 'Cada año el 13 de febrero, si es viernes'],
  ['FREQ=DAILY;BYMONTH=12', 'Every day in December', 'Tous les jours en décembre', 'Todos los días en diciembre'],
  [
    'FREQ=HOURLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR;BYMONTH=12',
    'Every 2 hours on weekdays in December',
    'Toutes les 2 heures du lundi au vendredi en décembre',
    'Cada 2 horas de lunes a viernes en diciembre',
  ],
  ['FREQ=WEEKLY;INTERVAL=2;BYMONTH=6,7,8', 'Every 2 weeks on Tuesday in June, July, and August', 'Toutes les 2 semaines le mardi en juin, juillet et août', 'Cada 2 semanas el martes en junio, julio y agosto'],
  // BYSETPOS
  ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2', 'Every month on the 2nd-to-last weekday', "Chaque mois l'avant-dernier jour ouvrable", 'Cada mes el penúltimo día laborable'],
  ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', 'Every month on the last weekday', 'Chaque mois le dernier jour ouvrable', 'Cada mes el último día laborable'],
  ['FREQ=MONTHLY;BYDAY=MO,WE;BYSETPOS=1', 'Every month on the first Monday or Wednesday', 'Chaque mois le premier lundi ou mercredi', 'Cada mes el primer lunes o miércoles'],
  ['FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=1', 'Every month on the first weekend day', 'Chaque mois le premier jour du week-end', 'Cada mes el primer día del fin de semana'],
  ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYSETPOS=10', 'Every month on the 10th day', 'Chaque mois le 10e jour', 'Cada mes el 10.º día'],
  [
    'FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=-1',
    'Every week on the last Monday, Wednesday, or Friday of the week',
    'Chaque semaine le dernier lundi, mercredi ou vendredi de la semaine',
    'Cada semana el último lunes, miércoles o viernes de la semana',
  ],
  ['FREQ=YEARLY;BYDAY=MO;BYSETPOS=1,-1', 'Every year on the first Monday and the last Monday of the year', "Chaque année le premier lundi et le dernier lundi de l'année", 'Cada año el primer lunes y el último lunes del año'],
  [
    'FREQ=MONTHLY;BYMONTHDAY=1,15,-1;BYSETPOS=-1',
    'Every month on day 1, day 15, and the last day, only the last of these days each month',
    'Chaque mois le 1er, le 15 et le dernier jour, seulement le dernier de ces jours chaque mois',
    'Cada mes el día 1, el día 15 y el último día, solo el último de esos días cada mes',
  ],
  [
    'FREQ=YEARLY;BYMONTH=1,6;BYDAY=MO;BYSETPOS=1',
    'Every year in January and June on every Monday, only the first of these days each year',
    'Chaque année en janvier et juin tous les lundis, seulement le premier de ces jours chaque année',
    'Cada año en enero y junio cada lunes, solo el primero de esos días cada año',
  ],
  ['FREQ=DAILY;BYDAY=MO;BYSETPOS=-1', 'Every week on Monday', 'Chaque semaine le lundi', 'Cada semana el lunes'],
  ['FREQ=DAILY;BYDAY=MO;BYSETPOS=2', 'Never', 'Jamais', 'Nunca'],
  ['FREQ=MONTHLY;BYMONTHDAY=9;BYSETPOS=1', 'Every month on day 9', 'Chaque mois le 9', 'Cada mes el día 9'],
  ['FREQ=WEEKLY;BYDAY=WE;BYSETPOS=2', 'Never', 'Jamais', 'Nunca'],
  // The MONTHLY and YEARLY presets' own rules (rrule.ts presetToRRule)
  [
    'FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1',
    'Every month on day 30 (or the last day of shorter months)',
    'Chaque mois le 30 (ou le dernier jour des mois plus courts)',
    'Cada mes el día 30 (o el último día de los meses más cortos)',
  ],
  [
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1',
    'Every year on February 29 (February 28 in other years)',
    'Chaque année le 29 février (le 28 février les autres années)',
    'Cada año el 29 de febrero (el 28 de febrero los demás años)',
  ],
  // COUNT
  ['FREQ=MONTHLY;BYDAY=1MO;COUNT=10', 'Every month on the first Monday, 10 times', 'Chaque mois le premier lundi, 10 fois', 'Cada mes el primer lunes, 10 veces'],
  ['FREQ=MONTHLY;BYDAY=2TU;COUNT=1', 'Every month on the second Tuesday, 1 time', 'Chaque mois le deuxième mardi, 1 fois', 'Cada mes el segundo martes, 1 vez'],
  ['FREQ=MONTHLY;INTERVAL=6;COUNT=1000', 'Every 6 months on day 3, 1,000 times', 'Tous les 6 mois le 3, 1\u202f000 fois', 'Cada 6 meses el día 3, 1000 veces'],
  // UNTIL: a date, and instants whose UTC date is not the local one
  [
    'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20270301',
    'Every 2 weeks on Monday and Wednesday, until March 1, 2027',
    "Toutes les 2 semaines le lundi et le mercredi, jusqu'au 1 mars 2027",
    'Cada 2 semanas el lunes y el miércoles, hasta el 1 de marzo de 2027',
  ],
  ['FREQ=WEEKLY;UNTIL=20270301T030000Z', 'Every week on Tuesday, until February 28, 2027', "Chaque semaine le mardi, jusqu'au 28 février 2027", 'Cada semana el martes, hasta el 28 de febrero de 2027'],
  ['FREQ=DAILY;UNTIL=20270228T200000Z', 'Every day, until March 1, 2027', "Tous les jours, jusqu'au 1 mars 2027", 'Todos los días, hasta el 1 de marzo de 2027', { timeZone: 'Asia/Tokyo' }],
  ['FREQ=DAILY;UNTIL=20270228T200000Z', 'Every day, until February 28, 2027', "Tous les jours, jusqu'au 28 février 2027", 'Todos los días, hasta el 28 de febrero de 2027', { timeZone: 'UTC' }],
];

describe('describeRecurrence: presets', () => {
  for (const [preset, en, fr, es, anchor] of PRESETS) {
    const input = { recurrence: preset as RecurrenceType, rrule: null, anchor: { date: anchor?.date ?? DATE, time: '09:00', timeZone: anchor?.timeZone ?? ZONE } };
    it(`${preset} from ${input.anchor.date}`, () => {
      expect(LANGS.map((l) => describeRecurrence(input, l))).toEqual([en, fr, es]);
    });
  }

  it('every preset is covered', () => {
    expect(new Set(PRESETS.map((r) => r[0]))).toEqual(new Set(['ONCE', 'HOURLY', 'DAILY', 'WEEKLY', 'WORKDAYS', 'WEEKEND', 'MONTHLY', 'YEARLY']));
  });
});

describe('describeRecurrence: custom rules', () => {
  for (const [text, en, fr, es, anchor] of CUSTOM) {
    const input = { recurrence: 'CUSTOM' as const, rrule: rule(text), anchor: { date: anchor?.date ?? DATE, time: '09:00', timeZone: anchor?.timeZone ?? ZONE } };
    it(`${text}${anchor?.timeZone ? ` in ${anchor.timeZone}` : ''}`, () => {
      expect(LANGS.map((l) => describeRecurrence(input, l))).toEqual([en, fr, es]);
      if (en === 'Never') expect(firesAtLeastOnce(input.rrule, input.anchor)).toBe(false);
    });
  }

  it('has at least 30 rules covering every FREQ', () => {
    expect(CUSTOM.length).toBeGreaterThanOrEqual(30);
    for (const freq of ['MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']) expect(CUSTOM.some((r) => r[0].startsWith(`FREQ=${freq}`))).toBe(true);
  });

  it('falls back without throwing on an unreadable anchor or a missing rule', () => {
    const bad = { date: 'not a date', time: '09:00', timeZone: 'Nowhere/Nothing' };
    expect(describeRecurrence({ recurrence: 'WEEKLY', rrule: null, anchor: bad }, 'en')).toBe('Every week');
    expect(describeRecurrence({ recurrence: 'CUSTOM', rrule: rule('FREQ=MONTHLY'), anchor: bad }, 'fr')).toBe('Chaque mois');
    expect(describeRecurrence({ recurrence: 'CUSTOM', rrule: rule('FREQ=DAILY;UNTIL=20270301T120000Z'), anchor: bad }, 'es')).toBe('Todos los días, hasta el 1 de marzo de 2027');
    expect(describeRecurrence({ recurrence: 'CUSTOM', rrule: null, anchor: bad }, 'en')).toBe('Once');
  });
});

describe('describeRecurrence: the rewrites it relies on are equivalences', () => {
  // The sentence of the first rule is the one of the second: they must fire at the same instants.
  const PAIRS = [
    ['FREQ=DAILY;BYMONTHDAY=1,-1;BYDAY=MO;COUNT=30', 'FREQ=MONTHLY;BYMONTHDAY=1,-1;BYDAY=MO;COUNT=30'],
    ['FREQ=DAILY;BYDAY=MO,FR;BYMONTH=1,7', 'FREQ=WEEKLY;BYDAY=MO,FR;BYMONTH=1,7'],
    ['FREQ=MONTHLY;BYDAY=SU', 'FREQ=WEEKLY;BYDAY=SU'],
    ['FREQ=YEARLY;BYMONTH=12;BYDAY=MO,TU', 'FREQ=WEEKLY;BYMONTH=12;BYDAY=MO,TU'],
    ['FREQ=MONTHLY;BYMONTHDAY=9;BYSETPOS=-1', 'FREQ=MONTHLY;BYMONTHDAY=9'],
    ['FREQ=YEARLY;BYMONTH=3;BYDAY=2WE;BYSETPOS=1', 'FREQ=YEARLY;BYMONTH=3;BYDAY=2WE'],
  ];
  for (const [a, b] of PAIRS) {
    it(`${a} = ${b}`, () => {
      const anchor = { date: '2026-03-03', time: '09:00', timeZone: 'Europe/Paris' };
      expect(rruleOccurrences(rule(a!), anchor, 0, 100)).toEqual(rruleOccurrences(rule(b!), anchor, 0, 100));
      for (const l of LANGS) expect(describeRecurrence({ recurrence: 'CUSTOM', rrule: rule(a!), anchor }, l)).toBe(describeRecurrence({ recurrence: 'CUSTOM', rrule: rule(b!), anchor }, l));
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Random valid rules (the shapes of tests/unit/server/time/rrule.property.test.ts): always a sentence.

const WD = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const FREQS = ['MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'Pacific/Auckland', 'Australia/Lord_Howe'];
const maybe = <T>(arb: fc.Arbitrary<T>, percent: number) => fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(null) }, { weight: percent, arbitrary: arb });
const unique = <T>(arb: fc.Arbitrary<T>, max: number) => fc.uniqueArray(arb, { minLength: 1, maxLength: max });
const signed = (max: number) => fc.integer({ min: -max, max }).filter((n) => n !== 0);

const ruleText = fc.constantFrom(...FREQS).chain((freq) => {
  const fine = freq === 'MINUTELY' || freq === 'HOURLY' || freq === 'DAILY';
  return fc
    .record({
      interval: freq === 'MINUTELY' ? fc.integer({ min: 5, max: 2000 }) : fc.oneof(fc.constant(1), fc.constant(2), fc.integer({ min: 1, max: 100_000 })),
      byMonth: maybe(unique(fc.integer({ min: 1, max: 12 }), 5), 30),
      byMonthDay: freq === 'WEEKLY' ? fc.constant(null) : maybe(unique(signed(31), 4), 35),
      plainDays: maybe(unique(fc.constantFrom(...WD), 7), 40),
      ordinals: fine || freq === 'WEEKLY' ? fc.constant(null) : maybe(unique(fc.record({ n: signed(5), wd: fc.constantFrom(...WD) }), 3), 40),
      yearOrdinal: freq === 'YEARLY' ? maybe(signed(53), 20) : fc.constant(null),
      bySetPos: maybe(unique(signed(366), 3), 30),
      end: fc.oneof(
        fc.constant(''),
        fc.integer({ min: 1, max: 100_000 }).map((n) => `COUNT=${n}`),
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).chain((d) => {
          const iso = d.toISOString();
          const date = iso.slice(0, 10).replaceAll('-', '');
          return fc.constantFrom(`UNTIL=${date}`, `UNTIL=${date}T${iso.slice(11, 19).replaceAll(':', '')}Z`);
        }),
      ),
      wkst: maybe(fc.constantFrom(...WD), 20),
    })
    .map((p) => {
      const parts = [`FREQ=${freq}`];
      if (p.interval !== 1 || freq === 'MINUTELY') parts.push(`INTERVAL=${p.interval}`);
      if (p.byMonth) parts.push(`BYMONTH=${p.byMonth.join(',')}`);
      if (p.byMonthDay) parts.push(`BYMONTHDAY=${p.byMonthDay.join(',')}`);
      const byDay = new Map<string, string>();
      for (const d of p.plainDays ?? []) byDay.set(d, d);
      // An ordinal beyond 5 only for YEARLY without BYMONTH (the 20th Monday of the year).
      const ordinals = [...(p.ordinals ?? []), ...(p.yearOrdinal !== null && !p.byMonth ? [{ n: p.yearOrdinal, wd: 'MO' as const }] : [])];
      for (const o of ordinals) byDay.set(`${o.n}${o.wd}`, `${o.n}${o.wd}`);
      if (byDay.size > 0) parts.push(`BYDAY=${[...byDay.values()].join(',')}`);
      if (p.bySetPos && (p.byMonth || p.byMonthDay || byDay.size > 0)) parts.push(`BYSETPOS=${p.bySetPos.join(',')}`);
      if (p.wkst) parts.push(`WKST=${p.wkst}`);
      if (p.end) parts.push(p.end);
      return parts.join(';');
    });
});

const anchorArb = fc.record({
  date: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  time: fc.constantFrom('00:00', '09:30', '23:59:59'),
  timeZone: fc.constantFrom(...ZONES),
});

describe('describeRecurrence: random valid rules', () => {
  it('gives a sentence for 2,000 random rules in every language, never throwing', () => {
    fc.assert(
      fc.property(ruleText, anchorArb, (text, anchor) => {
        const parsed = parseRRule(text);
        expect(parsed.ok, `${text}: ${parsed.ok ? '' : parsed.message}`).toBe(true);
        if (!parsed.ok) return;
        for (const lang of LANGS) {
          const s = describeRecurrence({ recurrence: 'CUSTOM', rrule: parsed.rule, anchor }, lang);
          expect(typeof s).toBe('string');
          expect(s.trim().length, text).toBeGreaterThan(0);
          expect(s, text).not.toMatch(/\{\{|undefined|NaN|null|\s\s|^\s|\s$|,,|\bnth\.|\bevery\.|Invalid/);
          expect(s[0], text).toBe(s[0]!.toUpperCase());
        }
        // "Never" is said only of rules that indeed never fire.
        if (describeRecurrence({ recurrence: 'CUSTOM', rrule: parsed.rule, anchor }, 'en') === 'Never') {
          expect(firesAtLeastOnce(parsed.rule, anchor), text).toBe(false);
        }
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });

  it('gives a sentence for every preset from random anchors', () => {
    fc.assert(
      fc.property(fc.constantFrom('ONCE', 'HOURLY', 'DAILY', 'WEEKLY', 'WORKDAYS', 'WEEKEND', 'MONTHLY', 'YEARLY' as const), anchorArb, (preset, anchor) => {
        for (const lang of LANGS) {
          const s = describeRecurrence({ recurrence: preset as RecurrenceType, rrule: null, anchor }, lang);
          expect(s.length).toBeGreaterThan(0);
          expect(s).not.toMatch(/\{\{|undefined|NaN/);
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('stored reminders: answers remembered per schedule', () => {
  // recurrenceSummary and firstOccurrenceOf keep answers by the stored fields: each field must count.
  const base = { local_date: '2026-03-29', local_time: '02:30', timezone: 'Europe/Paris', recurrence_type: 'DAILY' as RecurrenceType, rrule: null, exceptions: '[]' };

  it('the words follow the language and the rule, asked again and again', () => {
    for (let i = 0; i < 2; i++) {
      expect(recurrenceSummary(base, 'en')).toBe(describeRecurrence({ recurrence: 'DAILY', rrule: null, anchor: { date: base.local_date, time: base.local_time, timeZone: base.timezone } }, 'en'));
      expect(recurrenceSummary(base, 'fr')).not.toBe(recurrenceSummary(base, 'en'));
      expect(recurrenceSummary({ ...base, recurrence_type: 'CUSTOM', rrule: 'FREQ=WEEKLY;BYDAY=MO,WE' }, 'en')).toMatch(/Monday/);
    }
  });

  it('the first occurrence follows the zone, the time and the skipped occurrences', () => {
    // 02:30 does not exist in Paris on 2026-03-29 (the clocks go from 02:00 to 03:00): it fires at 03:00.
    const paris = firstOccurrenceOf(base)!;
    expect(new Date(paris).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(firstOccurrenceOf({ ...base, timezone: 'UTC' })!).toISOString()).toBe('2026-03-29T02:30:00.000Z');
    expect(new Date(firstOccurrenceOf({ ...base, local_time: '04:00' })!).toISOString()).toBe('2026-03-29T02:00:00.000Z');
    const skipped = firstOccurrenceOf({ ...base, exceptions: JSON.stringify([new Date(paris).toISOString()]) })!;
    expect(new Date(skipped).toISOString()).toBe('2026-03-30T00:30:00.000Z');
    expect(firstOccurrenceOf(base)).toBe(paris);
  });
});
