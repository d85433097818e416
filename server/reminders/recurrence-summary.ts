/**
 * A stored reminder's repetition in words ("Every 2 weeks on Monday and Wednesday"), for the API's
 * recurrence_text and the bot's replies alike.
 */
import type { Language } from '../lib/language.ts';
import { formatRRule } from '../time/rrule.ts';
import { storedRule, type ScheduleFields } from './schedule.ts';

export function recurrenceSummary(r: ScheduleFields, language: Language): string {
  try {
    // Interim until the sentence builder lands: the rule itself.
    void language;
    return r.recurrence_type === 'CUSTOM' && r.rrule ? formatRRule(storedRule(r.rrule)) : r.recurrence_type;
  } catch {
    // A row the recurrence code refuses: its rule as stored is the most honest summary.
    return r.rrule ?? r.recurrence_type;
  }
}
