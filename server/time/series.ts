/**
 * A reminder's series: its repetition (one of the eight presets, or a custom RFC 5545 rule) from
 * its wall-clock anchor, minus the occurrences the user skipped.
 *
 * A preset is the rule rrule.ts presetToRRule gives for it, so presets and custom rules are
 * expanded by one engine (rrule/expand.ts) with the same limits (limits.ts); docs/time.md says what
 * each preset means, and presetToRRule how.
 *
 * The rest of the server asks this module, never rrule.ts's expansion directly, so presets,
 * custom rules and skipped occurrences behave the same everywhere: the scheduler's planner, the
 * occurrences and calendar calls, the previews.
 *
 * Skipped occurrences are RFC 5545 EXDATEs: they are removed from the series after it is expanded,
 * so a COUNT still counts them (a "10 times" series with one skipped fires 9 times).
 */
import type { RecurrenceType } from '../db/database.ts';
import { compileAnchor, type WallClockAnchor } from './anchor.ts';
import { DEFAULT_OCCURRENCES_IN_RANGE, MAX_NEXT_OCCURRENCES, MAX_OCCURRENCES_IN_RANGE } from './limits.ts';
import { firstRRuleOccurrence, nextRRuleOccurrenceAfter, type ParsedRRule, type RuleOrPreset } from './rrule.ts';

export type Repetition = RecurrenceType | 'CUSTOM';

export interface Series extends WallClockAnchor {
  recurrence: Repetition;
  /** The custom rule (recurrence CUSTOM only). */
  rrule?: ParsedRRule | null;
  /** Instants (ms) of skipped occurrences. */
  skipped?: ReadonlySet<number>;
}

/** A series that repeats by a preset, nothing skipped. */
export interface RecurrenceRule extends WallClockAnchor {
  recurrence: RecurrenceType;
}

/** The rule the series repeats by: the custom one, or the preset (which stands for its presetToRRule rule). */
function ruleOf(s: Series): RuleOrPreset {
  if (s.recurrence !== 'CUSTOM') return s.recurrence;
  if (!s.rrule) throw new RangeError('a CUSTOM series needs its rule');
  return s.rrule;
}

/** The next occurrence of the repetition itself, skipped ones included. */
function rawNext(s: Series, afterMs: number): number | null {
  return nextRRuleOccurrenceAfter(ruleOf(s), s, afterMs);
}

/** The instant of the anchor's wall clock in its zone (gap -> gap end, overlap -> earlier). */
export function anchorInstant(s: Series): number {
  return compileAnchor(s).anchorMs;
}

/** Whether `ms` is an occurrence of the repetition (skipped or not). */
export function isOccurrence(s: Series, ms: number): boolean {
  return Number.isFinite(ms) && rawNext(s, ms - 1) === ms;
}

/** First occurrence strictly after `afterMs` that is not skipped; null when none is left. */
export function nextOccurrenceAfter(s: Series, afterMs: number): number | null {
  let t = rawNext(s, afterMs);
  // Each skipped instant can be stepped over at most once.
  while (t !== null && s.skipped?.has(t)) t = rawNext(s, t);
  return t;
}

/** The first occurrence of the series that is not skipped; null when there is none. */
export function firstOccurrence(s: Series): number | null {
  const first = firstRRuleOccurrence(ruleOf(s), s);
  if (first === null || !s.skipped?.has(first)) return first;
  return nextOccurrenceAfter(s, first);
}

/** Up to `count` occurrences strictly after afterMs (ascending). count is capped at 100. */
export function nextOccurrences(s: Series, afterMs: number, count: number): number[] {
  const n = Math.min(MAX_NEXT_OCCURRENCES, Math.floor(count));
  const out: number[] = [];
  let after = afterMs;
  while (out.length < n) {
    const t = nextOccurrenceAfter(s, after);
    if (t === null) break;
    out.push(t);
    after = t;
  }
  return out;
}

/** All occurrences in [fromMs, toMs) that are not skipped, capped at `limit` (default 1000, never more than 10,000). */
export function occurrencesBetween(s: Series, fromMs: number, toMs: number, limit: number = DEFAULT_OCCURRENCES_IN_RANGE): number[] {
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) throw new RangeError('fromMs/toMs is NaN');
  const n = Math.min(MAX_OCCURRENCES_IN_RANGE, Math.floor(limit));
  const out: number[] = [];
  let after = fromMs - 1;
  while (out.length < n) {
    const t = nextOccurrenceAfter(s, after);
    if (t === null || t >= toMs) break;
    out.push(t);
    after = t;
  }
  return out;
}
