/**
 * Lists of a rule's occurrences, to look at the RRULE engine from the outside. Chime itself asks
 * for one occurrence at a time (server/time/rrule.ts) or goes through server/time/series.ts.
 */
import { DEFAULT_OCCURRENCES_IN_RANGE, LAST_USEFUL_AFTER_MS, MAX_NEXT_OCCURRENCES, MAX_OCCURRENCES_IN_RANGE } from '../../server/time/limits.ts';
import { applyCount, compile, walk, type RRuleAnchor } from '../../server/time/rrule/expand.ts';
import type { ParsedRRule } from '../../server/time/rrule/parse.ts';

const compiled = (rule: ParsedRRule, anchor: RRuleAnchor) => applyCount(compile(rule, anchor), rule, anchor);

/** Up to `count` occurrences strictly after afterMs (ascending). count is capped at 100. */
export function rruleOccurrences(rule: ParsedRRule, anchor: RRuleAnchor, afterMs: number, count: number): number[] {
  if (Number.isNaN(afterMs)) throw new RangeError('afterMs is NaN');
  const n = Math.min(MAX_NEXT_OCCURRENCES, Math.floor(count));
  const out: number[] = [];
  if (!(n > 0) || afterMs >= LAST_USEFUL_AFTER_MS) return out;
  walk(compiled(rule, anchor), afterMs, (t) => out.push(t) < n);
  return out;
}

/** All occurrences in [fromMs, toMs), capped at `limit` (default 1000, never more than 10,000). */
export function rruleOccurrencesBetween(rule: ParsedRRule, anchor: RRuleAnchor, fromMs: number, toMs: number, limit: number = DEFAULT_OCCURRENCES_IN_RANGE): number[] {
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) throw new RangeError('fromMs/toMs is NaN');
  const n = Math.min(MAX_OCCURRENCES_IN_RANGE, Math.floor(limit));
  const out: number[] = [];
  if (!(n > 0) || fromMs >= toMs || fromMs - 1 >= LAST_USEFUL_AFTER_MS) return out;
  walk(compiled(rule, anchor), fromMs - 1, (t) => t < toMs && out.push(t) < n);
  return out;
}
