import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { addDays, monthOf, type YearMonth } from './calendar-dates';

/** Roving tab stop: one focusable day; arrows move it and page months at the edges. */
export function useRovingDayFocus(grid: string[], today: string, inShownMonth: (date: string) => boolean, showMonth: (month: YearMonth) => void) {
  const [focusDate, setFocusDate] = useState<string | null>(null);
  const focusRequest = useRef(false);
  const gridRef = useRef<HTMLDivElement>(null);

  const activeDate = focusDate && grid.includes(focusDate) ? focusDate : inShownMonth(today) ? today : grid.find(inShownMonth)!;
  useEffect(() => {
    if (!focusRequest.current) return;
    focusRequest.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`button[data-date="${activeDate}"]`)?.focus();
  }, [activeDate]);

  function moveFocus(date: string) {
    if (!grid.includes(date) || !inShownMonth(date)) showMonth(monthOf(date));
    focusRequest.current = true;
    setFocusDate(date);
  }

  function onDayKey(event: KeyboardEvent<HTMLButtonElement>, date: string) {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    moveFocus(addDays(date, step));
  }

  return { gridRef, activeDate, setFocusDate, onDayKey };
}
