import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card';
import type { Reminder } from '@/lib/api/reminders';
import { formatMonthYear } from '@/lib/format';
import { cn } from '@/lib/utils';
import { CalendarToolbar } from './calendar-toolbar';
import { capitalize } from './calendar-dates';
import { DayDialog } from './day-dialog';
import { MobileDayList } from './mobile-day-list';
import { MonthGrid } from './month-grid';
import { useMonthGrid } from './use-month-grid';

interface MonthCalendarProps {
  reminders: Reminder[];
  /** Account zone: days are bucketed and times shown in it. */
  zone: string;
  className?: string;
}

/** Month calendar (docs/dashboard.md "Dashboard and calendar"): a 7 x 6 grid on large screens, a list of busy days below lg. */
export function MonthCalendar({ reminders, zone, className }: MonthCalendarProps) {
  const { t, i18n } = useTranslation('calendar');
  const language = i18n.language;
  const month = useMonthGrid(reminders, zone, language);
  const { today, shown, entriesOn, isLoading } = month;
  const [openDate, setOpenDate] = useState<string | null>(null);
  const dialogOpener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const title = capitalize(formatMonthYear(shown.year, shown.month), language);

  function openDay(date: string, opener: HTMLElement) {
    dialogOpener.current = opener;
    setOpenDate(date);
  }

  return (
    <Card className={cn('gap-0 overflow-hidden py-0', className)} data-testid="calendar">
      <CalendarToolbar titleId={titleId} title={title} shown={shown} todayMonth={month.todayMonth} setShown={month.setShown} isLoading={isLoading} nextMonth={month.nextMonth} />

      {Boolean(month.error) && (
        <p className="border-b bg-destructive/8 px-4 py-2 text-xs text-destructive" role="alert">
          {t('loadFailed')}
        </p>
      )}

      {/* Large screens: the 42-day grid. */}
      <MonthGrid
        titleId={titleId}
        weekStart={month.weekStart}
        grid={month.grid}
        today={today}
        zone={zone}
        entriesOn={entriesOn}
        inShownMonth={month.inShownMonth}
        showMonth={month.setShown}
        onOpen={openDay}
      />

      {/* Below lg: the days of the shown month that hold reminders. */}
      <MobileDayList
        busyDays={month.busyDays}
        entriesOn={entriesOn}
        today={today}
        showsToday={month.inShownMonth(today)}
        shown={shown}
        title={title}
        zone={zone}
        isLoading={isLoading}
        onOpen={openDay}
      />

      <DayDialog
        date={openDate}
        entries={entriesOn(openDate)}
        reminders={reminders}
        zone={zone}
        onOpenChange={(open) => {
          if (!open) setOpenDate(null);
        }}
        returnFocusTo={() => dialogOpener.current}
      />
    </Card>
  );
}
