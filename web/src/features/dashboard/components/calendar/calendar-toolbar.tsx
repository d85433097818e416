import { CalendarSearch, ChevronDown, ChevronLeft, ChevronRight } from 'lucide-react';
import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { addMonths, type YearMonth } from './calendar-dates';
import { MonthPicker } from './month-picker';

interface CalendarToolbarProps {
  /** Id of the title button: the grid is labelled by it. */
  titleId: string;
  title: string;
  shown: YearMonth;
  todayMonth: YearMonth;
  setShown: Dispatch<SetStateAction<YearMonth>>;
  isLoading: boolean;
  /** The next month holding a reminder, or null (no Next reminder button). */
  nextMonth: YearMonth | null;
}

/** The calendar's header: month title (opens the month picker), loading status, month arrows, Next reminder and Today. */
export function CalendarToolbar({ titleId, title, shown, todayMonth, setShown, isLoading, nextMonth }: CalendarToolbarProps) {
  const { t } = useTranslation('calendar');
  return (
    <div className="flex flex-wrap items-center gap-2 border-b px-3 py-3 sm:px-4">
      <MonthPicker shown={shown} today={todayMonth} onPick={setShown}>
        <button
          type="button"
          id={titleId}
          className="-ml-1 inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-lg font-semibold tracking-tight transition-colors outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-label={t('monthTitleLabel', { month: title })}
          data-testid="calendar-title"
        >
          {title}
          <ChevronDown className="size-4 text-muted-foreground" aria-hidden />
        </button>
      </MonthPicker>
      <span role="status" aria-live="polite" className="flex items-center">
        {isLoading && <span className="size-3.5 animate-spin rounded-full border-2 border-primary/25 border-t-primary" title={t('loading')} />}
        <span className="sr-only">{isLoading ? t('loading') : ''}</span>
      </span>

      {/* Narrow screens: arrows stay beside the title, Next reminder and Today go below. */}
      <div className="ml-auto flex items-center sm:order-last sm:ml-0">
        <Button variant="ghost" size="icon-sm" onClick={() => setShown((m) => addMonths(m, -1))} aria-label={t('previousMonth')} data-testid="calendar-prev">
          <ChevronLeft />
        </Button>
        <Button variant="ghost" size="icon-sm" onClick={() => setShown((m) => addMonths(m, 1))} aria-label={t('nextMonth')} data-testid="calendar-next">
          <ChevronRight />
        </Button>
      </div>
      <div className="flex w-full flex-wrap items-center gap-1.5 sm:ml-auto sm:w-auto">
        {nextMonth && (
          <Button variant="outline" size="sm" onClick={() => setShown(nextMonth)} data-testid="calendar-next-reminder" className="text-primary">
            <CalendarSearch />
            {t('nextReminder')}
          </Button>
        )}
        <Button variant="outline" size="sm" onClick={() => setShown(todayMonth)} data-testid="calendar-today">
          {t('today')}
        </Button>
      </div>
    </div>
  );
}
