/**
 * The `when` text and `repeat` option of /remind and /reminder edit -> the schedule fields the
 * reminders service takes, or the localized reason they cannot be read. Repetition in the words
 * and a repeat option must agree; a repetition is never dropped silently.
 */
import type { RecurrenceType } from '../server/db/database.ts';
import { recurrenceLabel } from './replies/format.ts';
import { truncate } from '../server/discord/message-text.ts';
import { t } from '../server/discord/i18n.ts';
import { parseSchedule } from '../server/reminders/schedule-text/parse-schedule.ts';

export type ScheduleInput =
  | { ok: true; date: string; time: string; instantMs: number; recurrence: RecurrenceType | 'CUSTOM'; rrule: string | null }
  | { ok: false; text: string };

export function readScheduleInput(when: string, repeatOption: string | null, timeZone: string, locale: string | null | undefined, nowMs: number): ScheduleInput {
  const examples = t(locale, 'remind.examples');
  const parsed = parseSchedule(when, timeZone, locale, nowMs);
  if (!parsed.ok) {
    const key = parsed.reason === 'repeat-unparseable' ? 'remind.repeatUnparseable' : 'remind.unparseable';
    return { ok: false, text: t(locale, key, { when: truncate(when, 100), examples }) };
  }
  if (parsed.repeat && repeatOption !== null && !(parsed.repeat.recurrence === repeatOption && parsed.repeat.rrule === null)) {
    const label = (recurrence: RecurrenceType | 'CUSTOM', rrule: string | null) =>
      recurrenceLabel(locale, { local_date: parsed.date, local_time: parsed.time, timezone: timeZone, recurrence_type: recurrence, rrule });
    return {
      ok: false,
      text: t(locale, 'remind.repeatConflict', { words: label(parsed.repeat.recurrence, parsed.repeat.rrule), option: label(repeatOption as RecurrenceType, null) }),
    };
  }
  const repeat = parsed.repeat ?? { recurrence: (repeatOption ?? 'ONCE') as RecurrenceType, rrule: null };
  return { ok: true, date: parsed.date, time: parsed.time, instantMs: parsed.instantMs, recurrence: repeat.recurrence, rrule: repeat.rrule };
}
