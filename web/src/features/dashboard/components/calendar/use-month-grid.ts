import { useMemo, useState } from 'react';
import type { Reminder } from '@/lib/api/reminders';
import { useNow } from '../../lib/use-now';
import { monthGrid, monthOf, parsePlainDate, weekStartOf, type YearMonth, zonedDate } from './calendar-dates';
import { type DayEntry, entriesByDate } from './day-entries';
import { useGridEvents, useNextReminderMonth } from './use-calendar-events';

const NO_ENTRIES: DayEntry[] = [];

/** The month shown (today's at first), its 42-day grid, and each day's entries loaded for it. */
export function useMonthGrid(reminders: Reminder[], zone: string, language: string) {
  const now = useNow();
  const today = zonedDate(now, zone);
  const todayMonth = monthOf(today);
  const [shown, setShown] = useState<YearMonth>(todayMonth);

  const weekStart = weekStartOf(language);
  const grid = useMemo(() => monthGrid(shown, weekStart), [shown, weekStart]);
  const { byDate, error, isLoading } = useGridEvents(reminders, grid, zone);
  // Dense series (more than 3 a day) collapse into one entry per day.
  const entries = useMemo(() => entriesByDate(byDate), [byDate]);
  const next = useNextReminderMonth(reminders, shown, zone, now);

  const inShownMonth = (date: string) => {
    const { year, month } = parsePlainDate(date);
    return year === shown.year && month === shown.month;
  };
  /** The entries of a day (none for a day without reminders, or no day at all). */
  const entriesOn = (date: string | null) => (date === null ? NO_ENTRIES : (entries.get(date) ?? NO_ENTRIES));
  const busyDays = grid.filter((date) => inShownMonth(date) && entriesOn(date).length > 0);

  return { today, todayMonth, shown, setShown, weekStart, grid, entriesOn, inShownMonth, busyDays, error, isLoading, nextMonth: next.target };
}
