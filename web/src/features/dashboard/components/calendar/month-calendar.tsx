import { CalendarSearch, ChevronDown, ChevronLeft, ChevronRight, Repeat } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import type { Reminder } from '@/lib/api/reminders';
import { formatMonthYear, formatTime } from '@/lib/format';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { recurrenceLabel } from '../../lib/reminder-display';
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
import { type DayEntry, entriesByDate } from './day-entries';
import { MonthPicker } from './month-picker';
import { useGridEvents, useNextReminderMonth } from './use-calendar-events';

interface MonthCalendarProps {
  reminders: Reminder[];
  /** Account zone: days are bucketed and times shown in it. */
  zone: string;
  className?: string;
}

const NO_ENTRIES: DayEntry[] = [];
/**
 * A grid cell has room for three chip lines under its number: a single occurrence takes one, a
 * series two ("Every hour" and its count, then the message), "+N more" one.
 */
const CHIP_LINES = 3;

/** The entries whose chips fit in a cell; the rest are counted in "+N more". */
function chipsThatFit(entries: DayEntry[]): DayEntry[] {
  const shown: DayEntry[] = [];
  let used = 0;
  for (const [i, entry] of entries.entries()) {
    const need = entry.kind === 'series' ? 2 : 1;
    const moreLine = i < entries.length - 1 ? 1 : 0;
    if (used + need + moreLine > CHIP_LINES) break;
    shown.push(entry);
    used += need;
  }
  return shown;
}

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
  // Dense series (more than 3 a day) collapse into one entry per day.
  const entries = useMemo(() => entriesByDate(byDate), [byDate]);
  const listRef = useRef<HTMLUListElement>(null);
  const listScrolledFor = useRef<string | null>(null);
  const next = useNextReminderMonth(reminders, shown, zone);

  const shortHeaders = weekdayHeaders(language, weekStart, 'short').map((name) => name.replace(/\.$/, ''));
  const longHeaders = weekdayHeaders(language, weekStart, 'long');
  const title = capitalize(formatMonthYear(shown.year, shown.month), language);
  const inShownMonth = (date: string) => {
    const { year, month } = parsePlainDate(date);
    return year === shown.year && month === shown.month;
  };
  const busyDays = grid.filter((date) => inShownMonth(date) && (entries.get(date)?.length ?? 0) > 0);

  // Roving tab stop: one focusable day; arrows move it and page months at the edges.
  const activeDate = focusDate && grid.includes(focusDate) ? focusDate : inShownMonth(today) ? today : grid.find(inShownMonth)!;
  useEffect(() => {
    if (!focusRequest.current) return;
    focusRequest.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`button[data-date="${activeDate}"]`)?.focus();
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

  /*
   * A day's accessible name starts with the text the day shows (its number; on phones also the
   * short weekday), so speech users can say what they see (WCAG 2.5.3); the full date and the
   * count follow. Chips and count badges sit outside the button, hidden from assistive tech.
   */
  const dayLabel = (date: string, count: number, shown: string) => {
    const long = new Intl.DateTimeFormat(language, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(plainDateMs(date));
    return count > 0 ? t('day.withReminders', { day: shown, date: long, count }) : t('day.label', { day: shown, date: long });
  };

  /*
   * Phones: the list of busy days scrolls inside its card; in the current month it opens on today
   * (or the next busy day), not on the 1st. Once per month shown and only once every occurrence
   * has loaded, so a refresh never moves what the user scrolled to.
   */
  const scrollTarget = inShownMonth(today) ? (busyDays.find((d) => d >= today) ?? busyDays[busyDays.length - 1]) : busyDays[0];
  const shownKey = `${shown.year}-${shown.month}`;
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || isLoading || !scrollTarget || listScrolledFor.current === shownKey) return;
    if (list.offsetParent === null) return; // hidden (large screens): nothing to scroll
    listScrolledFor.current = shownKey;
    const row = list.querySelector<HTMLElement>(`[data-date="${scrollTarget}"]`);
    list.scrollTop = row ? row.offsetTop : 0;
  }, [shownKey, scrollTarget, isLoading]);

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
              const dayEntries = entries.get(date) ?? NO_ENTRIES;
              const outside = !inShownMonth(date);
              const isToday = date === today;
              const dayNumber = String(parsePlainDate(date).day);
              const chips = chipsThatFit(dayEntries);
              return (
                <div
                  key={date}
                  role="gridcell"
                  data-testid="calendar-day"
                  data-date={date}
                  data-today={isToday || undefined}
                  data-outside={outside || undefined}
                  className={cn(
                    'relative flex h-[6.75rem] flex-col gap-1 border-r p-1.5 transition-colors last:border-r-0 hover:bg-accent/60',
                    outside && 'bg-muted/30 text-muted-foreground',
                    isToday && 'bg-primary/[0.06] dark:bg-primary/10',
                  )}
                >
                  <span className="flex items-center justify-between gap-1">
                    {/* The button's ::after covers the whole cell: a click anywhere opens the day. */}
                    <button
                      type="button"
                      tabIndex={date === activeDate ? 0 : -1}
                      data-date={date}
                      data-testid="calendar-day-button"
                      aria-current={isToday ? 'date' : undefined}
                      aria-label={dayLabel(date, dayEntries.length, dayNumber)}
                      onClick={(e) => {
                        dialogOpener.current = e.currentTarget;
                        setFocusDate(date);
                        setOpenDate(date);
                      }}
                      onKeyDown={(e) => onDayKey(e, date)}
                      className={cn(
                        'flex size-7 items-center justify-center rounded-full text-sm tabular-nums outline-none',
                        'after:absolute after:inset-0 focus-visible:after:z-10 focus-visible:after:ring-2 focus-visible:after:ring-ring focus-visible:after:ring-inset',
                        isToday && 'bg-primary font-semibold text-primary-foreground shadow-sm shadow-primary/30',
                      )}
                    >
                      {dayNumber}
                    </button>
                    {dayEntries.length > 0 && (
                      <span
                        className={cn(
                          'min-w-5 rounded-full px-1.5 py-px text-center text-[11px] font-semibold tabular-nums',
                          outside ? 'bg-muted text-muted-foreground' : 'bg-primary/12 text-primary dark:bg-primary/25',
                        )}
                        data-testid="calendar-day-count"
                        aria-hidden
                      >
                        {dayEntries.length}
                      </span>
                    )}
                  </span>
                  <span className="flex min-w-0 flex-col gap-0.5" aria-hidden>
                    {chips.map((entry) => (
                      <EntryChip key={entry.key} entry={entry} zone={zone} muted={outside} />
                    ))}
                    {dayEntries.length > chips.length && (
                      <span className="px-1 text-[11px] leading-4 font-medium text-muted-foreground">{t('day.more', { count: dayEntries.length - chips.length })}</span>
                    )}
                  </span>
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
          <ul ref={listRef} className="relative max-h-[28rem] divide-y overflow-y-auto overscroll-contain" aria-label={t('mobile.label', { month: title })} data-testid="calendar-day-list-scroller">
            {busyDays.map((date) => (
              <MobileDay
                key={date}
                date={date}
                entries={entries.get(date) ?? NO_ENTRIES}
                zone={zone}
                isToday={date === today}
                label={(shownText) => dayLabel(date, entries.get(date)?.length ?? 0, shownText)}
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
        entries={openDate ? (entries.get(openDate) ?? NO_ENTRIES) : NO_ENTRIES}
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

function EntryChip({ entry, zone, muted }: { entry: DayEntry; zone: string; muted: boolean }) {
  const { t } = useTranslation('calendar');
  const reminder = entry.kind === 'single' ? entry.event.reminder : entry.reminder;
  const dim = muted || reminderStatus(reminder) !== 'active';
  const look = cn(
    'flex min-w-0 rounded border-l-2 px-1 py-px text-[11px] leading-4',
    dim ? 'border-muted-foreground/40 bg-muted/70 text-muted-foreground' : 'border-primary bg-primary/8 text-foreground dark:bg-primary/15',
  );
  if (entry.kind === 'single') {
    return (
      <span className={cn(look, 'items-center gap-1')} data-testid="calendar-chip">
        <span className="shrink-0 font-medium tabular-nums">{formatTime(entry.event.at, zone)}</span>
        <span className="truncate">{reminder.message}</span>
      </span>
    );
  }
  // "Every hour · Stretch ×24" on two lines: a cell is too narrow for both on one.
  return (
    <span className={cn(look, 'flex-col')} data-testid="calendar-series-chip">
      <span className="flex min-w-0 items-center gap-1">
        <Repeat className="size-2.5 shrink-0" />
        <span className="truncate" data-testid="calendar-series-repetition">
          {recurrenceLabel(reminder, t)}
        </span>
        <span className="ml-auto shrink-0 font-semibold tabular-nums" data-testid="calendar-series-count">
          {t('day.seriesCount', { count: entry.events.length })}
        </span>
      </span>
      <span className="truncate font-medium" data-testid="calendar-series-message">
        {reminder.message}
      </span>
    </span>
  );
}

function MobileDay({
  date,
  entries,
  zone,
  isToday,
  label,
  onOpen,
}: {
  date: string;
  entries: DayEntry[];
  zone: string;
  isToday: boolean;
  /** The accessible name, starting with the text the button shows. */
  label: (shown: string) => string;
  onOpen: (opener: HTMLElement) => void;
}) {
  const { t, i18n } = useTranslation('calendar');
  const at = plainDateMs(date);
  const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }).format(at).replace(/\.$/, '');
  const day = String(parsePlainDate(date).day);
  const first = entries[0]!;
  const more = entries.length > 1 ? ` · ${t('day.more', { count: entries.length - 1 })}` : '';
  return (
    <li className="relative flex items-center gap-3 px-4 py-3 transition-colors hover:bg-accent/60 has-[:focus-visible]:bg-accent/60" data-testid="calendar-list-day" data-date={date}>
      {/* The button's ::after covers the whole row: a tap anywhere opens the day. */}
      <button
        type="button"
        onClick={(e) => onOpen(e.currentTarget)}
        aria-label={label(`${weekday} ${day}`)}
        aria-current={isToday ? 'date' : undefined}
        data-testid="calendar-list-day-button"
        className={cn(
          'flex w-12 shrink-0 flex-col items-center rounded-lg border py-1 leading-tight outline-none',
          'after:absolute after:inset-0 focus-visible:after:ring-2 focus-visible:after:ring-ring focus-visible:after:ring-inset',
          isToday ? 'border-primary bg-primary text-primary-foreground' : 'bg-muted/40',
        )}
      >
        <span className={cn('text-[10px] font-medium uppercase', !isToday && 'text-muted-foreground')}>{weekday}</span>{' '}
        <span className="text-lg font-semibold tabular-nums">{day}</span>
      </button>
      <span className="min-w-0 flex-1" aria-hidden>
        {first.kind === 'single' ? (
          <>
            <span className="block truncate text-sm font-medium">{first.event.reminder.message}</span>
            <span className="block truncate text-xs text-muted-foreground tabular-nums">
              {formatTime(first.event.at, zone)}
              {more}
            </span>
          </>
        ) : (
          <>
            <span className="block truncate text-sm font-medium" data-testid="calendar-series-chip">
              {first.reminder.message}
            </span>
            <span className="block truncate text-xs text-muted-foreground tabular-nums">
              {/* The count first: a long rule in words is what gets cut. */}
              <span className="font-semibold" data-testid="calendar-series-count">
                {t('day.seriesCount', { count: first.events.length })}
              </span>
              {more} · {recurrenceLabel(first.reminder, t)}
            </span>
          </>
        )}
      </span>
      <Badge variant="default" className="tabular-nums" data-testid="calendar-day-count" aria-hidden>
        {entries.length}
      </Badge>
      <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
    </li>
  );
}
