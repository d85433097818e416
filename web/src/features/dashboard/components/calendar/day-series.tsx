import { ChevronDown, Repeat } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { Reminder } from '@/lib/api/reminders';
import { formatTime } from '@/lib/format';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { isAhead, type OccurrenceActions } from './occurrence-actions';
import { OccurrenceRow } from './occurrence-row';
import { quoted } from './quoted-message';
import { ReminderBadges } from './reminder-badges';
import { ReminderButtons } from './reminder-buttons';

/** A reminder firing more than 3 times on the day: one entry, its times behind a disclosure. */
export function DaySeries({ reminder, times, zone, actions }: { reminder: Reminder; times: string[]; zone: string; actions: OccurrenceActions }) {
  const { t } = useTranslation('calendar');
  const [open, setOpen] = useState(false);
  const messageId = useId();
  const listId = useId();
  const canSkip = reminderStatus(reminder) !== 'completed';

  return (
    <li className="rounded-lg border bg-card p-3.5 shadow-xs" data-testid="day-series" data-reminder-id={reminder.id}>
      <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:gap-3">
        <div className="flex items-center gap-1.5 text-sm font-semibold text-primary tabular-nums sm:min-w-20 sm:pt-0.5" data-testid="day-series-count">
          <Repeat className="size-3.5 shrink-0" aria-hidden />
          {t('day.seriesCount', { count: times.length })}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <p id={messageId} className="font-medium break-words whitespace-pre-line" data-testid="day-reminder-message">
            {reminder.message}
          </p>
          <p className="text-xs text-muted-foreground tabular-nums" data-testid="day-series-span">
            {t('dialog.seriesSpan', { count: times.length, first: formatTime(times[0]!, zone), last: formatTime(times[times.length - 1]!, zone) })}
          </p>
          <ReminderBadges reminder={reminder} />
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-2">
        <Button
          variant="outline"
          size="sm"
          className="mr-auto"
          aria-expanded={open}
          aria-controls={listId}
          aria-describedby={messageId}
          onClick={() => setOpen((o) => !o)}
          data-testid="day-series-toggle"
        >
          <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden />
          {open ? t('dialog.hideTimes') : t('dialog.showTimes', { count: times.length })}
        </Button>
        <ReminderButtons reminder={reminder} messageId={messageId} actions={actions} />
      </div>
      <ul id={listId} hidden={!open} className="mt-3 grid gap-x-4 border-t pt-2 sm:grid-cols-2" aria-label={t('dialog.timesLabel', { message: quoted(reminder.message) })} data-testid="day-series-times">
        {open &&
          times.map((instant) => (
            <OccurrenceRow key={instant} reminder={reminder} at={instant} zone={zone} skippable={canSkip && isAhead(instant)} onSkip={actions.skip} />
          ))}
      </ul>
    </li>
  );
}
