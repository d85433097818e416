import { ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { recurrenceLabel } from '../../lib/reminder-display';
import { parsePlainDate, plainDateMs } from './calendar-dates';
import type { DayEntry } from './day-entries';

interface MobileDayProps {
  date: string;
  entries: DayEntry[];
  zone: string;
  isToday: boolean;
  /** The accessible name, starting with the text the button shows. */
  label: (shown: string) => string;
  onOpen: (opener: HTMLElement) => void;
}

/** One busy day in the phone list: weekday and number, its first entry, the count. */
export function MobileDay({ date, entries, zone, isToday, label, onOpen }: MobileDayProps) {
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
