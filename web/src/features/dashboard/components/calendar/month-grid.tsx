import { useTranslation } from 'react-i18next';
import { weekdayHeaders, type YearMonth } from './calendar-dates';
import type { DayEntry } from './day-entries';
import { GridDay } from './grid-day';
import { useDayLabel } from './use-day-label';
import { useRovingDayFocus } from './use-roving-day-focus';

interface MonthGridProps {
  /** Id of the element naming the grid (the month title). */
  titleId: string;
  weekStart: number;
  /** The 42 plain dates of the grid, week by week. */
  grid: string[];
  today: string;
  zone: string;
  entriesOn: (date: string) => DayEntry[];
  inShownMonth: (date: string) => boolean;
  /** Pages to another month (arrow keys past the shown month). */
  showMonth: (month: YearMonth) => void;
  onOpen: (date: string, opener: HTMLElement) => void;
}

/** The 7 x 6 ARIA grid of days with its weekday headers, navigated with the arrow keys. */
export function MonthGrid({ titleId, weekStart, grid, today, zone, entriesOn, inShownMonth, showMonth, onOpen }: MonthGridProps) {
  const { i18n } = useTranslation('calendar');
  const language = i18n.language;
  const { gridRef, activeDate, setFocusDate, onDayKey } = useRovingDayFocus(grid, today, inShownMonth, showMonth);
  const dayLabel = useDayLabel();
  const shortHeaders = weekdayHeaders(language, weekStart, 'short').map((name) => name.replace(/\.$/, ''));
  const longHeaders = weekdayHeaders(language, weekStart, 'long');

  return (
    <div ref={gridRef} role="grid" aria-labelledby={titleId} className="hidden lg:block" data-testid="calendar-grid">
      <div role="row" className="grid grid-cols-7 border-b bg-muted/40">
        {shortHeaders.map((name, i) => (
          <div key={name + i} role="columnheader" aria-label={longHeaders[i]} className="py-2 text-center text-xs font-medium tracking-wide text-muted-foreground uppercase" data-testid="calendar-weekday">
            {name}
          </div>
        ))}
      </div>
      {Array.from({ length: 6 }, (_, week) => (
        <div key={week} role="row" className="grid grid-cols-7 border-b last:border-b-0">
          {grid.slice(week * 7, week * 7 + 7).map((date) => {
            const entries = entriesOn(date);
            return (
              <GridDay
                key={date}
                date={date}
                entries={entries}
                zone={zone}
                outside={!inShownMonth(date)}
                isToday={date === today}
                tabbable={date === activeDate}
                label={(shown) => dayLabel(date, entries.length, shown)}
                onOpen={(opener) => {
                  setFocusDate(date);
                  onOpen(date, opener);
                }}
                onKeyDown={(e) => onDayKey(e, date)}
              />
            );
          })}
        </div>
      ))}
    </div>
  );
}
