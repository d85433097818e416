import { Repeat } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '@/lib/format';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { recurrenceLabel } from '../../lib/reminder-display';
import type { DayEntry } from './day-entries';

/** One entry in a grid cell: a single occurrence (time and message) or a series (repetition, count, message). */
export function EntryChip({ entry, zone, muted }: { entry: DayEntry; zone: string; muted: boolean }) {
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
