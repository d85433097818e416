import { useMemo } from 'react';
import useSWR from 'swr';
import { type Reminder, reminderOccurrences } from '@/lib/api/reminders';
import { displayInstant, isRecurring } from '../../lib/reminder-display';
import {
  addDays,
  coveringRange,
  monthIndex,
  monthOf,
  NEXT_REMINDER_SEARCH_MONTHS,
  toPlainDate,
  type YearMonth,
  zonedDate,
} from './calendar-dates';

/** One reminder occurrence placed on an account-zone day. */
export interface CalendarEvent {
  reminder: Reminder;
  /** ISO instant of the occurrence. */
  at: string;
  /** Account-zone plain date. */
  date: string;
}

/*
 * Occurrences of recurring reminders (presets and custom rules alike) come from the server
 * (GET /api/reminders/:id/occurrences?from&to), which computes them in each reminder's own zone
 * (DST included) and leaves skipped ones out. Each (reminder, schedule, range) answer is memoised
 * here and the combined answer is cached by SWR under the range, so paging back and forth through
 * months, or deleting one reminder, does not refetch the others. The schedule fields (rule and
 * skipped occurrences included) are part of the key, so an edit or a skip refetches that reminder
 * only, and an undone skip finds its earlier answer in the memo.
 */
const occurrenceMemo = new Map<string, Promise<string[]>>();
const MEMO_LIMIT = 500;
/**
 * The server answers at most 2,000 occurrences per range (an every-5-minutes rule has ~12,700 in a
 * 44-day grid): an answer this long may have been cut, so the rest is asked from after its last one.
 */
const PAGE_HINT = 1000;
const MAX_PAGES = 20;

function scheduleSignature(r: Reminder): string {
  return [r.id, r.remind_at_utc, String(r.recurrence_type).toUpperCase(), r.rrule ?? '', r.timezone, (r.exceptions ?? []).join(';')].join('|');
}

async function fetchRange(id: string, range: { from: string; to: string }): Promise<string[]> {
  const all: string[] = [];
  let from = range.from;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = (await reminderOccurrences(id, { from, to: range.to })).occurrences ?? [];
    all.push(...answer);
    if (answer.length < PAGE_HINT) break;
    const next = new Date(Date.parse(answer[answer.length - 1]!) + 1).toISOString();
    if (next >= range.to) break;
    from = next;
  }
  return all;
}

function occurrencesOf(reminder: Reminder, range: { from: string; to: string }): Promise<string[]> {
  const key = `${scheduleSignature(reminder)}|${range.from}|${range.to}`;
  let pending = occurrenceMemo.get(key);
  if (!pending) {
    if (occurrenceMemo.size >= MEMO_LIMIT) occurrenceMemo.clear();
    pending = fetchRange(reminder.id, range);
    pending.catch(() => occurrenceMemo.delete(key));
    occurrenceMemo.set(key, pending);
  }
  return pending;
}

/** Occurrences per reminder id; a reminder whose call failed is left out (and logged). */
async function loadOccurrences(reminders: Reminder[], range: { from: string; to: string }): Promise<Map<string, string[]>> {
  const results = await Promise.allSettled(reminders.map((r) => occurrencesOf(r, range)));
  const out = new Map<string, string[]>();
  let failures = 0;
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') out.set(reminders[i]!.id, result.value);
    else {
      failures += 1;
      console.error('Calendar: could not load occurrences', reminders[i]!.id, result.reason);
    }
  });
  if (failures > 0 && failures === reminders.length) throw new Error('occurrences unavailable');
  return out;
}

/** Every occurrence of every reminder on the 42 grid days, bucketed by account-zone date. */
export function useGridEvents(reminders: Reminder[], grid: string[], zone: string) {
  const range = coveringRange(grid[0]!, grid[grid.length - 1]!);
  const recurring = useMemo(() => reminders.filter(isRecurring), [reminders]);
  const signature = recurring.map(scheduleSignature).join(',');
  const { data, error, isLoading } = useSWR(
    recurring.length > 0 ? ['calendar:occurrences', range.from, range.to, signature] : null,
    () => loadOccurrences(recurring, range),
    // Occurrences are real either way: keep the previous answer while the next range loads.
    { keepPreviousData: true, revalidateOnFocus: false },
  );

  const byDate = useMemo(() => {
    const days = new Set(grid);
    const map = new Map<string, CalendarEvent[]>();
    const place = (reminder: Reminder, at: string) => {
      const date = zonedDate(at, zone);
      if (!days.has(date)) return;
      const list = map.get(date) ?? [];
      list.push({ reminder, at, date });
      map.set(date, list);
    };
    for (const reminder of reminders) {
      // Current reminders only: a deleted one disappears at once, before any refetch.
      if (!isRecurring(reminder)) {
        place(reminder, displayInstant(reminder));
        continue;
      }
      // A skipped occurrence leaves as soon as the reminder says so, before its refetch answers.
      const skipped = reminder.exceptions?.length ? new Set(reminder.exceptions.map((at) => Date.parse(at))) : null;
      for (const at of data?.get(reminder.id) ?? []) if (!skipped?.has(Date.parse(at))) place(reminder, at);
    }
    for (const list of map.values()) list.sort((a, b) => a.at.localeCompare(b.at) || a.reminder.message.localeCompare(b.reminder.message));
    return map;
  }, [reminders, data, grid, zone]);

  return { byDate, error: error as unknown, isLoading: isLoading && recurring.length > 0 };
}

/** Window sizes (days) for the forward search: small first (dense schedules), then <= 400-day calls. */
const FIRST_WINDOW_DAYS = 10;
const WINDOW_DAYS = 397;

/**
 * The month of the next reminder, counted from now (not from the month shown: on 27 November with
 * a reminder due that evening, the next reminder is in November, issue 27 #14), up to 24 months
 * ahead; null when there is none or when it is the month shown (the button has nowhere to go).
 * One-time reminders are placed from their own instant; recurring ones ask the server window by
 * window, from today, and stop at their first occurrence still to come.
 */
export function useNextReminderMonth(reminders: Reminder[], shown: YearMonth, zone: string, now: number = Date.now()) {
  const shownIndex = monthIndex(shown);
  const today = zonedDate(now, zone);
  const todayMonth = monthOf(today);
  const lastIndex = monthIndex(todayMonth) + NEXT_REMINDER_SEARCH_MONTHS;
  const start = today;
  const end = toPlainDate(todayMonth.year, todayMonth.month + 1 + NEXT_REMINDER_SEARCH_MONTHS, 0);
  // Minute precision: the searches run again when the minute changes, not on every render.
  const nowMinute = Math.floor(now / 60_000) * 60_000;

  const oneTime = useMemo(() => {
    let best: number | null = null;
    for (const reminder of reminders) {
      if (isRecurring(reminder)) continue;
      const at = displayInstant(reminder);
      if (Date.parse(at) < nowMinute) continue;
      const index = monthIndex(monthOf(zonedDate(at, zone)));
      if (index <= lastIndex && (best === null || index < best)) best = index;
    }
    return best;
  }, [reminders, zone, nowMinute, lastIndex]);

  const recurring = useMemo(() => reminders.filter(isRecurring), [reminders]);
  const signature = recurring.map(scheduleSignature).join(',');
  const { data, isLoading } = useSWR(
    recurring.length > 0 ? ['calendar:next-month', start, nowMinute, zone, signature] : null,
    async () => {
      const firsts = await Promise.all(
        recurring.map(async (reminder) => {
          let from = start;
          let span = FIRST_WINDOW_DAYS;
          while (from <= end) {
            const to = addDays(from, span - 1) < end ? addDays(from, span - 1) : end;
            let occurrences: string[];
            try {
              occurrences = await occurrencesOf(reminder, coveringRange(from, to));
            } catch (err) {
              console.error('Calendar: next-reminder search failed', reminder.id, err);
              return null;
            }
            for (const at of occurrences) {
              if (Date.parse(at) < nowMinute) continue;
              const index = monthIndex(monthOf(zonedDate(at, zone)));
              if (index <= lastIndex) return index;
            }
            from = addDays(to, 1);
            span = WINDOW_DAYS;
          }
          return null;
        }),
      );
      const hits = firsts.filter((i): i is number => i !== null);
      return hits.length > 0 ? Math.min(...hits) : null;
    },
    { revalidateOnFocus: false, keepPreviousData: true },
  );

  const candidates = [oneTime, data ?? null].filter((i): i is number => i !== null);
  const best = candidates.length > 0 ? Math.min(...candidates) : null;
  // Hidden until every search answered: an earlier recurring hit may still come in.
  const pending = recurring.length > 0 && isLoading;
  return {
    target: pending || best === null || best === shownIndex ? null : { year: Math.floor(best / 12), month: best % 12 },
    isLoading: pending,
  };
}
