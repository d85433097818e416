import { BellOff, Clock, SkipForward } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { Reminder } from '@/lib/api/reminders';
import { formatDate, formatDateTime, formatTime } from '@/lib/format';
import { reminderStatus } from '@/lib/reminder-status';
import { isRecurring } from '../../lib/reminder-display';
import { isAhead, type OccurrenceActions } from './occurrence-actions';
import { ReminderBadges } from './reminder-badges';
import { ReminderButtons } from './reminder-buttons';

/** One occurrence in the day dialog: its time, message and details, with Skip, View and Delete. */
export function DayReminder({ reminder, at, zone, actions }: { reminder: Reminder; at: string; zone: string; actions: OccurrenceActions }) {
  const { t } = useTranslation('calendar');
  const snoozed = reminder.snoozed_at_utc && Date.parse(reminder.snoozed_at_utc) > Date.now() ? reminder.snoozed_at_utc : null;
  // View and Delete are described by the message, so each pair is told apart by screen readers.
  const messageId = useId();
  const timeId = useId();
  const skippable = isRecurring(reminder) && reminderStatus(reminder) !== 'completed' && isAhead(at);

  return (
    <li className="rounded-lg border bg-card p-3.5 shadow-xs" data-testid="day-reminder" data-reminder-id={reminder.id} data-at={at}>
      <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:gap-3">
        <div id={timeId} className="flex items-center gap-1.5 text-sm font-semibold text-primary tabular-nums sm:min-w-20 sm:pt-0.5" data-testid="day-reminder-time">
          <Clock className="size-3.5 shrink-0" aria-hidden />
          {formatTime(at, zone)}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <p id={messageId} className="font-medium break-words whitespace-pre-line" data-testid="day-reminder-message">
            {reminder.message}
          </p>
          <ReminderBadges reminder={reminder} />
          <p className="text-xs text-muted-foreground" data-testid="day-reminder-created">
            {t('dialog.created', { date: formatDate(reminder.created_at, zone) })}
          </p>
          {snoozed && (
            <p className="flex items-center gap-1.5 text-xs font-medium text-amber-700 dark:text-warning" data-testid="day-reminder-snoozed">
              <BellOff className="size-3.5" aria-hidden />
              {t('dialog.snoozedUntil', { time: formatDateTime(snoozed, zone) })}
            </p>
          )}
        </div>
      </div>
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        {skippable && (
          <Button
            variant="ghost"
            size="sm"
            className="mr-auto"
            onClick={(e) => actions.skip(reminder, at, e.currentTarget)}
            data-testid="day-occurrence-skip"
            aria-describedby={`${timeId} ${messageId}`}
          >
            <SkipForward />
            {t('dialog.skip')}
          </Button>
        )}
        <ReminderButtons reminder={reminder} messageId={messageId} actions={actions} />
      </div>
    </li>
  );
}
