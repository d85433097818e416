/**
 * RRULE values (RFC 5545 section 3.3.10), the subset Chime supports: parsing with an error that
 * names the offending part, and the canonical string form. See ../rrule.ts for the meaning.
 */
import { daysFromCivil, monthLength } from '../civil.ts';

export type RRuleFreq = 'MINUTELY' | 'HOURLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
export type RRuleWeekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';

export interface RRuleByDay {
  weekday: RRuleWeekday;
  /** null: every such weekday of the period; 1 = the first, 2 = the second, -1 = the last... (MONTHLY/YEARLY only). */
  n: number | null;
}

/** UNTIL, inclusive: an instant (`YYYYMMDDTHHMMSSZ`), or a date (`YYYYMMDD`) = up to the end of that local day. */
export type RRuleUntil = { kind: 'utc'; ms: number } | { kind: 'date'; date: string };

/**
 * A parsed rule. Lists are null when the part is absent, otherwise non-empty, without duplicates
 * and in canonical order (see formatRRule), so equal rules have equal string forms.
 */
export interface ParsedRRule {
  freq: RRuleFreq;
  /** 1 when absent; MINUTELY needs 5 or more. */
  interval: number;
  byDay: RRuleByDay[] | null;
  /** 1..31, or -1..-31 counted from the month end (-1 = the last day). */
  byMonthDay: number[] | null;
  /** 1..12 */
  byMonth: number[] | null;
  /** 1..366 or -366..-1: which of the period's occurrences to keep. */
  bySetPos: number[] | null;
  count: number | null;
  until: RRuleUntil | null;
  /** Week start, MO when absent. */
  wkst: RRuleWeekday;
}

export type RRuleParseResult = { ok: true; rule: ParsedRRule } | { ok: false; part: string; message: string };

export const FREQS: readonly RRuleFreq[] = ['MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
/** In canonical (ISO) order, Monday first. */
export const WEEKDAYS: readonly RRuleWeekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
/** 0 = Sunday ... 6 = Saturday, as civil.weekdayOf. */
export const WEEKDAY_NUMBER: Readonly<Record<RRuleWeekday, number>> = { SU: 0, MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6 };

export const MIN_MINUTELY_INTERVAL = 5;
export const MAX_INTERVAL = 100_000;
/** The largest COUNT a rule may give (how many times it fires at most). */
export const MAX_RRULE_COUNT = 100_000;
const MAX_LENGTH = 2000;

const SUPPORTED = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'COUNT', 'UNTIL', 'WKST']);
const REFUSED: Record<string, string> = {
  BYSECOND: 'BYSECOND is not supported: the time of day is the reminder\'s time',
  BYMINUTE: 'BYMINUTE is not supported: the time of day is the reminder\'s time',
  BYHOUR: 'BYHOUR is not supported: the time of day is the reminder\'s time',
  BYYEARDAY: 'BYYEARDAY is not supported',
  BYWEEKNO: 'BYWEEKNO is not supported',
  RSCALE: 'RSCALE is not supported: only the Gregorian calendar is',
  SKIP: 'SKIP is not supported (it goes with RSCALE)',
  DTSTART: 'DTSTART is not part of the rule: the series starts at the reminder\'s date and time',
  TZID: 'TZID is not part of the rule: the reminder\'s time zone is used',
};

class RuleError extends Error {
  constructor(
    readonly part: string,
    message: string,
  ) {
    super(message);
  }
}

function fail(part: string, message: string): never {
  throw new RuleError(part, message);
}

function integer(part: string, text: string, signed: boolean, what: string): number {
  if (!(signed ? /^[+-]?\d{1,9}$/ : /^\d{1,9}$/).test(text)) fail(part, `${part}: "${clip(text)}" is not ${what}`);
  return Number(text);
}

function list(part: string, value: string): string[] {
  const items = value.split(',');
  if (items.some((s) => s === '')) fail(part, `${part}: empty item in "${clip(value)}"`);
  return items;
}

function noDuplicates(part: string, keys: string[]): void {
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k)) fail(part, `${part}: ${k} appears twice`);
    seen.add(k);
  }
}

const clip = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}...` : s);

/** Canonical order of signed day/position numbers: 1, 2, ... then -1, -2, ... */
const signedOrder = (a: number, b: number) => (a > 0 !== b > 0 ? (a > 0 ? -1 : 1) : a > 0 ? a - b : b - a);

function parseWeekday(part: string, text: string): RRuleWeekday {
  const w = text as RRuleWeekday;
  if (!WEEKDAYS.includes(w)) fail(part, `${part}: "${clip(text)}" is not a weekday (MO, TU, WE, TH, FR, SA, SU)`);
  return w;
}

function parseUntil(value: string): RRuleUntil {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(T)(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(value);
  if (!m) fail('UNTIL', `UNTIL: "${clip(value)}" is neither a UTC date-time YYYYMMDDTHHMMSSZ nor a date YYYYMMDD`);
  const [year, month, day] = [Number(m![1]), Number(m![2]), Number(m![3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > monthLength(year, month)) fail('UNTIL', `UNTIL: ${value} is not a real date`);
  const date = `${m![1]}-${m![2]}-${m![3]}`;
  if (!m![4]) return { kind: 'date', date };
  if (m![8] !== 'Z') fail('UNTIL', 'UNTIL: a date-time must be in UTC, ending in Z (YYYYMMDDTHHMMSSZ), or give a date YYYYMMDD');
  const [hour, minute, second] = [Number(m![5]), Number(m![6]), Number(m![7])];
  if (hour > 23 || minute > 59 || second > 59) fail('UNTIL', `UNTIL: ${value} is not a real time`);
  return { kind: 'utc', ms: daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 };
}

function parseByDay(value: string): RRuleByDay[] {
  const out: RRuleByDay[] = [];
  for (const item of list('BYDAY', value)) {
    const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(item);
    if (!m) fail('BYDAY', `BYDAY: "${clip(item)}" is not a weekday with an optional ordinal (MO, 1MO, -1FR)`);
    const weekday = parseWeekday('BYDAY', m![2]!);
    let n: number | null = null;
    if (m![1] !== undefined) {
      n = Number(m![1]);
      if (n === 0) fail('BYDAY', `BYDAY: "${item}": the ordinal cannot be 0`);
    }
    out.push({ weekday, n });
  }
  noDuplicates('BYDAY', out.map(formatByDay));
  return out.sort((a, b) => WEEKDAYS.indexOf(a.weekday) - WEEKDAYS.indexOf(b.weekday) || (a.n === null ? -1 : b.n === null ? 1 : signedOrder(a.n, b.n)));
}

function parseSigned(part: string, value: string, max: number, what: string): number[] {
  const out = list(part, value).map((s) => {
    const v = integer(part, s, true, what);
    if (v === 0 || Math.abs(v) > max) fail(part, `${part}: ${s} is out of range (1 to ${max} or -${max} to -1)`);
    return v;
  });
  noDuplicates(part, out.map(String));
  return out.sort(signedOrder);
}

/**
 * Parses an RRULE value without the `RRULE:` prefix, e.g. `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE`.
 * Names and values are case-insensitive (RFC 5545); the result is normalized.
 */
export function parseRRule(value: string): RRuleParseResult {
  try {
    return { ok: true, rule: parse(value) };
  } catch (e) {
    if (e instanceof RuleError) return { ok: false, part: e.part, message: e.message };
    throw e;
  }
}

function parse(input: string): ParsedRRule {
  if (typeof input !== 'string') fail('RRULE', 'the rule must be a string');
  if (input.length > MAX_LENGTH) fail('RRULE', `the rule is longer than ${MAX_LENGTH} characters`);
  let value = input.trim().toUpperCase();
  if (value === '') fail('RRULE', 'the rule is empty');
  if (value.startsWith('RRULE:')) fail('RRULE', 'give the rule without the "RRULE:" prefix');
  if (value.endsWith(';')) value = value.slice(0, -1);
  const parts = new Map<string, string>();
  const order: string[] = [];
  for (const segment of value.split(';')) {
    const eq = segment.indexOf('=');
    const name = eq < 0 ? segment : segment.slice(0, eq);
    if (segment === '') fail('RRULE', 'empty part (";;" or ";" at the start)');
    if (name === '') fail('RRULE', `"${clip(segment)}" has no part name (expected NAME=VALUE)`);
    if (!/^[A-Z][A-Z0-9-]*$/.test(name)) fail(clip(name), `"${clip(name)}" is not a rule part name`);
    if (REFUSED[name]) fail(name, REFUSED[name]!);
    if (!SUPPORTED.has(name)) fail(name, `${name} is not a known rule part`);
    if (eq < 0 || segment.length === eq + 1) fail(name, `${name} has no value (expected ${name}=...)`);
    if (parts.has(name)) fail(name, `${name} appears twice`);
    parts.set(name, segment.slice(eq + 1));
    order.push(name);
  }

  const freqText = parts.get('FREQ');
  if (freqText === undefined) fail('FREQ', 'FREQ is required (MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)');
  if (freqText === 'SECONDLY') fail('FREQ', 'FREQ=SECONDLY is not supported: the finest is MINUTELY with INTERVAL=5');
  if (!FREQS.includes(freqText as RRuleFreq)) fail('FREQ', `FREQ: "${clip(freqText!)}" is not one of MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY`);
  const freq = freqText as RRuleFreq;

  let interval = 1;
  const intervalText = parts.get('INTERVAL');
  if (intervalText !== undefined) {
    interval = integer('INTERVAL', intervalText, false, 'a positive whole number');
    if (interval < 1 || interval > MAX_INTERVAL) fail('INTERVAL', `INTERVAL must be between 1 and ${MAX_INTERVAL}`);
  }
  if (freq === 'MINUTELY' && interval < MIN_MINUTELY_INTERVAL) {
    fail('INTERVAL', `FREQ=MINUTELY needs INTERVAL=${MIN_MINUTELY_INTERVAL} or more (a reminder at most every ${MIN_MINUTELY_INTERVAL} minutes)`);
  }

  const byMonthText = parts.get('BYMONTH');
  let byMonth: number[] | null = null;
  if (byMonthText !== undefined) {
    byMonth = list('BYMONTH', byMonthText).map((s) => {
      const v = integer('BYMONTH', s, false, 'a month number');
      if (v < 1 || v > 12) fail('BYMONTH', `BYMONTH: ${s} is not a month (1 to 12)`);
      return v;
    });
    noDuplicates('BYMONTH', byMonth.map(String));
    byMonth.sort((a, b) => a - b);
  }

  const byMonthDayText = parts.get('BYMONTHDAY');
  let byMonthDay: number[] | null = null;
  if (byMonthDayText !== undefined) {
    if (freq === 'WEEKLY') fail('BYMONTHDAY', 'BYMONTHDAY cannot be used with FREQ=WEEKLY (RFC 5545)');
    byMonthDay = parseSigned('BYMONTHDAY', byMonthDayText, 31, 'a day of the month');
  }

  const byDayText = parts.get('BYDAY');
  let byDay: RRuleByDay[] | null = null;
  if (byDayText !== undefined) {
    byDay = parseByDay(byDayText);
    const max = freq === 'MONTHLY' || (freq === 'YEARLY' && byMonth) ? 5 : freq === 'YEARLY' ? 53 : 0;
    for (const d of byDay) {
      if (d.n === null) continue;
      if (max === 0) fail('BYDAY', `BYDAY: an ordinal like ${formatByDay(d)} needs FREQ=MONTHLY or FREQ=YEARLY`);
      if (Math.abs(d.n) > max) {
        fail('BYDAY', `BYDAY: ${formatByDay(d)}: the ordinal must be between 1 and ${max} or -${max} and -1${max === 5 ? ' (a month has at most 5 of each weekday)' : ''}`);
      }
    }
  }

  const bySetPosText = parts.get('BYSETPOS');
  let bySetPos: number[] | null = null;
  if (bySetPosText !== undefined) {
    bySetPos = parseSigned('BYSETPOS', bySetPosText, 366, 'a position');
    if (!byDay && !byMonthDay && !byMonth) fail('BYSETPOS', 'BYSETPOS needs another BYxxx part (BYDAY, BYMONTHDAY or BYMONTH) to choose from');
  }

  const countText = parts.get('COUNT');
  const untilText = parts.get('UNTIL');
  if (countText !== undefined && untilText !== undefined) {
    const later = order.indexOf('COUNT') > order.indexOf('UNTIL') ? 'COUNT' : 'UNTIL';
    fail(later, 'COUNT and UNTIL cannot be used together');
  }
  let count: number | null = null;
  if (countText !== undefined) {
    count = integer('COUNT', countText, false, 'a positive whole number');
    if (count < 1 || count > MAX_RRULE_COUNT) fail('COUNT', `COUNT must be between 1 and ${MAX_RRULE_COUNT}`);
  }
  const until = untilText === undefined ? null : parseUntil(untilText);

  const wkst = parts.has('WKST') ? parseWeekday('WKST', parts.get('WKST')!) : 'MO';

  return { freq, interval, byDay, byMonthDay, byMonth, bySetPos, count, until, wkst };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export const formatByDay = (d: RRuleByDay) => `${d.n ?? ''}${d.weekday}`;

function formatUntil(u: RRuleUntil): string {
  if (u.kind === 'date') return u.date.replaceAll('-', '');
  const d = new Date(u.ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/**
 * The canonical string form: FREQ;INTERVAL;BYMONTH;BYMONTHDAY;BYDAY;BYSETPOS;WKST;COUNT|UNTIL,
 * INTERVAL only when not 1 and WKST only when not MO; lists in the order parseRRule gives them.
 * parseRRule(formatRRule(r)) gives r back.
 */
export function formatRRule(rule: ParsedRRule): string {
  const out = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) out.push(`INTERVAL=${rule.interval}`);
  if (rule.byMonth) out.push(`BYMONTH=${rule.byMonth.join(',')}`);
  if (rule.byMonthDay) out.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`);
  if (rule.byDay) out.push(`BYDAY=${rule.byDay.map(formatByDay).join(',')}`);
  if (rule.bySetPos) out.push(`BYSETPOS=${rule.bySetPos.join(',')}`);
  if (rule.wkst !== 'MO') out.push(`WKST=${rule.wkst}`);
  if (rule.count !== null) out.push(`COUNT=${rule.count}`);
  if (rule.until) out.push(`UNTIL=${formatUntil(rule.until)}`);
  return out.join(';');
}
