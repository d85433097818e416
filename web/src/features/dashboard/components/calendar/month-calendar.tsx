import { CalendarSearch, ChevronDown, ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import type { Reminder } from '@/lib/api/reminders';
import { formatMonthYear, formatTime } from '@/lib/format';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { useNow } from '../../lib/use-now';
import {
  addDays,
  addMonths,
  capitalize,
  monthGrid,
  monthOf,
  parsePlainDate,
  plainDateMs,
  weekdayHeaders,
  weekStartOf,
  type YearMonth,
  zonedDate,
} from './calendar-dates';
import { DayDialog } from './day-dialog';
import { MonthPicker } from './month-picker';
import { type CalendarEvent, useGridEvents, useNextReminderMonth } from './use-calendar-events';

interface MonthCalendarProps {
  reminders: Reminder[];
  /** Account zone: days are bucketed and times shown in it. */
  zone: string;
  className?: string;
}

const NO_EVENTS: CalendarEvent[] = [];
const MAX_CHIPS = 2;

/** Month calendar (SPEC "Calendar"): a 7 x 6 grid on large screens, a list of busy days below lg. */
export function MonthCalendar({ reminders, zone, className }: MonthCalendarProps) {
  const { t, i18n } = useTranslation('calendar');
  const language = i18n.language;
  const now = useNow();
  const today = zonedDate(now, zone);
  const todayMonth = monthOf(today);
  const [shown, setShown] = useState<YearMonth>(todayMonth);
  const [openDate, setOpenDate] = useState<string | null>(null);
  const [focusDate, setFocusDate] = useState<string | null>(null);
  const focusRequest = useRef(false);
  const dialogOpener = useRef<HTMLElement | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const titleId = useId();

  const weekStart = weekStartOf(language);
  const grid = useMemo(() => monthGrid(shown, weekStart), [shown, weekStart]);
  const { byDate, error, isLoading } = useGridEvents(reminders, grid, zone);
  const next = useNextReminderMonth(reminders, shown, zone);

  const shortHeaders = weekdayHeaders(language, weekStart, 'short').map((name) => name.replace(/\.$/, ''));
  const longHeaders = weekdayHeaders(language, weekStart, 'long');
  const title = capitalize(formatMonthYear(shown.year, shown.month), language);
  const inShownMonth = (date: string) => {
    const { year, month } = parsePlainDate(date);
    return year === shown.year && month === shown.month;
  };
  const busyDays = grid.filter((date) => inShownMonth(date) && (byDate.get(date)?.length ?? 0) > 0);

  // Roving tab stop: one focusable day; arrows move it and page months at the edges.
  const activeDate = focusDate && grid.includes(focusDate) ? focusDate : inShownMonth(today) ? today : grid.find(inShownMonth)!;
  useEffect(() => {
    if (!focusRequest.current) return;
    focusRequest.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-date="${activeDate}"]`)?.focus();
  }, [activeDate]);

  function moveFocus(date: string) {
    if (!grid.includes(date) || !inShownMonth(date)) setShown(monthOf(date));
    focusRequest.current = true;
    setFocusDate(date);
  }

  function onDayKey(event: KeyboardEvent<HTMLButtonElement>, date: string) {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    moveFocus(addDays(date, step));
  }

  const dayLabel = (date: string, count: number) => {
    const long = new Intl.DateTimeFormat(language, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(plainDateMs(date));
    return count > 0 ? t('day.withReminders', { date: long, count }) : long;
  };

  return (
    <Card className={cn('gap-0 overflow-hidden py-0', className)} data-testid="calendar">
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
          {next.target && (
            <Button variant="outline" size="sm" onClick={() => setShown(next.target!)} data-testid="calendar-next-reminder" className="text-primary">
              <CalendarSearch />
              {t('nextReminder')}
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={() => setShown(todayMonth)} data-testid="calendar-today">
            {t('today')}
          </Button>
        </div>
      </div>

      {Boolean(error) && (
        <p className="border-b bg-destructive/8 px-4 py-2 text-xs text-destructive" role="alert">
          {t('loadFailed')}
        </p>
      )}

      {/* Large screens: the 42-day grid. */}
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
              const events = byDate.get(date) ?? NO_EVENTS;
              const outside = !inShownMonth(date);
              const isToday = date === today;
              return (
                <div key={date} role="gridcell" className="border-r last:border-r-0">
                  <button
                    type="button"
                    tabIndex={date === activeDate ? 0 : -1}
                    data-date={date}
                    data-testid="calendar-day"
                    data-today={isToday || undefined}
                    data-outside={outside || undefined}
                    aria-current={isToday ? 'date' : undefined}
                    aria-label={dayLabel(date, events.length)}
                    onClick={(e) => {
                      dialogOpener.current = e.currentTarget;
                      setFocusDate(date);
                      setOpenDate(date);
                    }}
                    onKeyDown={(e) => onDayKey(e, date)}
                    className={cn(
                      'group flex h-[6.75rem] w-full flex-col gap-1 p-1.5 text-left transition-colors outline-none',
                      'hover:bg-accent/60 focus-visible:relative focus-visible:z-10 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset',
                      outside && 'bg-muted/30 text-muted-foreground',
                      isToday && 'bg-primary/[0.06] dark:bg-primary/10',
                    )}
                  >
                    <span className="flex items-center justify-between gap-1">
                      <span
                        className={cn(
                          'flex size-7 items-center justify-center rounded-full text-sm tabular-nums',
                          isToday && 'bg-primary font-semibold text-primary-foreground shadow-sm shadow-primary/30',
                        )}
                      >
                        {parsePlainDate(date).day}
                      </span>
                      {events.length > 0 && (
                        <span
                          className={cn(
                            'min-w-5 rounded-full px-1.5 py-px text-center text-[11px] font-semibold tabular-nums',
                            outside ? 'bg-muted text-muted-foreground' : 'bg-primary/12 text-primary dark:bg-primary/25',
                          )}
                          data-testid="calendar-day-count"
                          aria-hidden
                        >
                          {events.length}
                        </span>
                      )}
                    </span>
                    <span className="flex min-w-0 flex-col gap-0.5" aria-hidden>
                      {events.slice(0, MAX_CHIPS).map((event) => (
                        <EventChip key={`${event.reminder.id}-${event.at}`} event={event} zone={zone} muted={outside} />
                      ))}
                      {events.length > MAX_CHIPS && (
                        <span className="px-1 text-[11px] font-medium text-muted-foreground">{t('day.more', { count: events.length - MAX_CHIPS })}</span>
                      )}
                    </span>
                  </button>
                </div>
              );
            })}
          </div>
        ))}
      </div>

      {/* Below lg: the days of the shown month that hold reminders. */}
      <div className="lg:hidden" data-testid="calendar-day-list">
        {busyDays.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-muted-foreground" data-testid="calendar-day-list-empty">
            {isLoading ? t('loading') : t('mobile.empty')}
          </p>
        ) : (
          <ul className="divide-y" aria-label={t('mobile.label', { month: title })}>
            {busyDays.map((date) => (
              <MobileDay
                key={date}
                date={date}
                events={byDate.get(date) ?? NO_EVENTS}
                zone={zone}
                isToday={date === today}
                label={dayLabel(date, byDate.get(date)?.length ?? 0)}
                onOpen={(opener) => {
                  dialogOpener.current = opener;
                  setOpenDate(date);
                }}
              />
            ))}
          </ul>
        )}
      </div>

      <DayDialog
        date={openDate}
        events={openDate ? (byDate.get(openDate) ?? NO_EVENTS) : NO_EVENTS}
        zone={zone}
        onOpenChange={(open) => {
          if (!open) setOpenDate(null);
        }}
        returnFocusTo={() => dialogOpener.current}
      />
    </Card>
  );
}

function EventChip({ event, zone, muted }: { event: CalendarEvent; zone: string; muted: boolean }) {
  const status = reminderStatus(event.reminder);
  const dim = muted || status !== 'active';
  return (
    <span
      className={cn(
        'flex min-w-0 items-center gap-1 truncate rounded border-l-2 px-1 py-px text-[11px] leading-4',
        dim ? 'border-muted-foreground/40 bg-muted/70 text-muted-foreground' : 'border-primary bg-primary/8 text-foreground dark:bg-primary/15',
      )}
    >
      <span className="shrink-0 font-medium tabular-nums">{formatTime(event.at, zone)}</span>
      <span className="truncate">{event.reminder.message}</span>
    </span>
  );
}

function MobileDay({
  date,
  events,
  zone,
  isToday,
  label,
  onOpen,
}: {
  date: string;
  events: CalendarEvent[];
  zone: string;
  isToday: boolean;
  label: string;
  onOpen: (opener: HTMLElement) => void;
}) {
  const { t, i18n } = useTranslation('calendar');
  const at = plainDateMs(date);
  const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }).format(at).replace(/\.$/, '');
  const first = events[0]!;
  return (
    <li>
      <button
        type="button"
        onClick={(e) => onOpen(e.currentTarget)}
        aria-label={label}
        aria-current={isToday ? 'date' : undefined}
        data-testid="calendar-list-day"
        data-date={date}
        className="flex w-full items-center gap-3 px-4 py-3 text-left transition-colors outline-none hover:bg-accent/60 focus-visible:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
      >
        <span
          className={cn(
            'flex w-12 shrink-0 flex-col items-center rounded-lg border py-1 leading-tight',
            isToday ? 'border-primary bg-primary text-primary-foreground' : 'bg-muted/40',
          )}
          aria-hidden
        >
          <span className="text-[10px] font-medium uppercase opacity-80">{weekday}</span>
          <span className="text-lg font-semibold tabular-nums">{parsePlainDate(date).day}</span>
        </span>
        <span className="min-w-0 flex-1" aria-hidden>
          <span className="block truncate text-sm font-medium">{first.reminder.message}</span>
          <span className="block truncate text-xs text-muted-foreground tabular-nums">
            {formatTime(first.at, zone)}
            {events.length > 1 && ` · ${t('day.more', { count: events.length - 1 })}`}
          </span>
        </span>
        <Badge variant="default" className="tabular-nums" data-testid="calendar-day-count" aria-hidden>
          {events.length}
        </Badge>
        <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      </button>
    </li>
  );
}
