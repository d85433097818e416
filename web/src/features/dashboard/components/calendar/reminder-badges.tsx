import { Repeat, Send } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { Reminder } from '@/lib/api/reminders';
import { reminderStatus } from '@/lib/reminder-status';
import { recurrenceLabel } from '../../lib/reminder-display';

/** The badges shared by single occurrences and series: repetition, status, destinations. */
export function ReminderBadges({ reminder }: { reminder: Reminder }) {
  const { t } = useTranslation('calendar');
  const status = reminderStatus(reminder);
  const destinations = reminder.destinations?.length ?? 0;
  return (
    <div className="flex flex-wrap gap-1.5">
      <Badge variant="secondary" className="max-w-full" data-testid="day-reminder-recurrence">
        <Repeat aria-hidden />
        <span className="truncate">{recurrenceLabel(reminder, t)}</span>
      </Badge>
      {status === 'paused' && (
        <Badge variant="warning" data-testid="day-reminder-paused">
          {t('dialog.paused')}
        </Badge>
      )}
      {status === 'completed' && (
        <Badge variant="secondary" data-testid="day-reminder-completed">
          {t('dialog.completed')}
        </Badge>
      )}
      <Badge variant="outline" className="text-muted-foreground" data-testid="day-reminder-destinations">
        <Send aria-hidden />
        {t('dialog.destinations', { count: destinations })}
      </Badge>
    </div>
  );
}
