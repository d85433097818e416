import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { parsePlainDate } from './calendar-dates';
import type { DayEntry } from './day-entries';
import { EntryChip } from './entry-chip';

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

interface GridDayProps {
  date: string;
  entries: DayEntry[];
  zone: string;
  /** The day belongs to the month before or after the shown one. */
  outside: boolean;
  isToday: boolean;
  /** The day holds the grid's roving tab stop. */
  tabbable: boolean;
  /** The accessible name, starting with the text the button shows. */
  label: (shown: string) => string;
  onOpen: (opener: HTMLElement) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}

/** One day of the month grid: its number (the button that opens the day), its count and the chips that fit. */
export function GridDay({ date, entries, zone, outside, isToday, tabbable, label, onOpen, onKeyDown }: GridDayProps) {
  const { t } = useTranslation('calendar');
  const dayNumber = String(parsePlainDate(date).day);
  const chips = chipsThatFit(entries);
  return (
    <div
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
          tabIndex={tabbable ? 0 : -1}
          data-date={date}
          data-testid="calendar-day-button"
          aria-current={isToday ? 'date' : undefined}
          aria-label={label(dayNumber)}
          onClick={(e) => onOpen(e.currentTarget)}
          onKeyDown={onKeyDown}
          className={cn(
            'flex size-7 items-center justify-center rounded-full text-sm tabular-nums outline-none',
            'after:absolute after:inset-0 focus-visible:after:z-10 focus-visible:after:ring-2 focus-visible:after:ring-ring focus-visible:after:ring-inset',
            isToday && 'bg-primary font-semibold text-primary-foreground shadow-sm shadow-primary/30',
          )}
        >
          {dayNumber}
        </button>
        {entries.length > 0 && (
          <span
            className={cn(
              'min-w-5 rounded-full px-1.5 py-px text-center text-[11px] font-semibold tabular-nums',
              outside ? 'bg-muted text-muted-foreground' : 'bg-primary/12 text-primary dark:bg-primary/25',
            )}
            data-testid="calendar-day-count"
            aria-hidden
          >
            {entries.length}
          </span>
        )}
      </span>
      <span className="flex min-w-0 flex-col gap-0.5" aria-hidden>
        {chips.map((entry) => (
          <EntryChip key={entry.key} entry={entry} zone={zone} muted={outside} />
        ))}
        {entries.length > chips.length && (
          <span className="px-1 text-[11px] leading-4 font-medium text-muted-foreground">{t('day.more', { count: entries.length - chips.length })}</span>
        )}
      </span>
    </div>
  );
}
