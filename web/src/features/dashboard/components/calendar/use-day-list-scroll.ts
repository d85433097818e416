import { useLayoutEffect, useRef } from 'react';
import type { YearMonth } from './calendar-dates';

interface DayListScroll {
  /** The busy days of the shown month, in order. */
  busyDays: string[];
  today: string;
  /** Whether today falls in the shown month. */
  showsToday: boolean;
  shown: YearMonth;
  isLoading: boolean;
}

/**
 * Phones: the list of busy days scrolls inside its card; in the current month it opens on today
 * (or the next busy day), not on the 1st. Once per month shown and only once every occurrence
 * has loaded, so a refresh never moves what the user scrolled to.
 */
export function useDayListScroll({ busyDays, today, showsToday, shown, isLoading }: DayListScroll) {
  const listRef = useRef<HTMLUListElement>(null);
  const listScrolledFor = useRef<string | null>(null);
  const scrollTarget = showsToday ? (busyDays.find((d) => d >= today) ?? busyDays[busyDays.length - 1]) : busyDays[0];
  const shownKey = `${shown.year}-${shown.month}`;
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || isLoading || !scrollTarget || listScrolledFor.current === shownKey) return;
    if (list.offsetParent === null) return; // hidden (large screens): nothing to scroll
    listScrolledFor.current = shownKey;
    const row = list.querySelector<HTMLElement>(`[data-date="${scrollTarget}"]`);
    list.scrollTop = row ? row.offsetTop : 0;
  }, [shownKey, scrollTarget, isLoading]);
  return listRef;
}
