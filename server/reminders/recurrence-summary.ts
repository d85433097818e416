/**
 * A stored reminder's repetition in words ("Every 2 weeks on Monday and Wednesday"), for the API's
 * recurrence_text and the bot's replies alike.
 */
import type { Language } from '../lib/language.ts';
import { describeRecurrence } from './recurrence-text/index.ts';
import { storedRule, type ScheduleFields } from './schedule.ts';
import { BoundedMemo } from '../lib/bounded-memo.ts';

// Lists show this for every reminder; it is a function of a few stored fields and the language.
const summaries = new BoundedMemo<string>(5000);

export function recurrenceSummary(r: ScheduleFields, language: Language): string {
  const key = `${language}|${r.recurrence_type}|${r.rrule ?? ''}|${r.local_date}|${r.local_time}|${r.timezone}`;
  return summaries.get(key, () => summarize(r, language));
}

function summarize(r: ScheduleFields, language: Language): string {
  let rrule = null;
  try {
    rrule = r.recurrence_type === 'CUSTOM' && r.rrule ? storedRule(r.rrule) : null;
  } catch {
    // A stored rule the parser now refuses: say it as stored rather than guess.
    return r.rrule ?? r.recurrence_type;
  }
  return describeRecurrence({ recurrence: r.recurrence_type, rrule, anchor: { date: r.local_date, time: r.local_time, timeZone: r.timezone } }, language);
}
