import { useTranslation } from 'react-i18next';
import type { YearMonth } from './calendar-dates';
import type { DayEntry } from './day-entries';
import { MobileDay } from './mobile-day';
import { useDayLabel } from './use-day-label';
import { useDayListScroll } from './use-day-list-scroll';

interface MobileDayListProps {
  /** The days of the shown month that hold reminders. */
  busyDays: string[];
  entriesOn: (date: string) => DayEntry[];
  today: string;
  /** Whether today falls in the shown month. */
  showsToday: boolean;
  shown: YearMonth;
  /** The shown month in words, for the list's name. */
  title: string;
  zone: string;
  isLoading: boolean;
  onOpen: (date: string, opener: HTMLElement) => void;
}

/** Below lg, in place of the grid: the busy days of the shown month, in a list that scrolls inside the card. */
export function MobileDayList({ busyDays, entriesOn, today, showsToday, shown, title, zone, isLoading, onOpen }: MobileDayListProps) {
  const { t } = useTranslation('calendar');
  const dayLabel = useDayLabel();
  const listRef = useDayListScroll({ busyDays, today, showsToday, shown, isLoading });
  return (
    <div className="lg:hidden" data-testid="calendar-day-list">
      {busyDays.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-muted-foreground" data-testid="calendar-day-list-empty">
          {isLoading ? t('loading') : t('mobile.empty')}
        </p>
      ) : (
        <ul ref={listRef} className="relative max-h-[28rem] divide-y overflow-y-auto overscroll-contain" aria-label={t('mobile.label', { month: title })} data-testid="calendar-day-list-scroller">
          {busyDays.map((date) => (
            <MobileDay
              key={date}
              date={date}
              entries={entriesOn(date)}
              zone={zone}
              isToday={date === today}
              label={(shownText) => dayLabel(date, entriesOn(date).length, shownText)}
              onOpen={(opener) => onOpen(date, opener)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
