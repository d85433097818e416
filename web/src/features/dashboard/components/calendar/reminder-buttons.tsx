import { Eye, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import type { Reminder } from '@/lib/api/reminders';
import { isRecurring } from '../../lib/reminder-display';
import type { OccurrenceActions } from './occurrence-actions';

/** View and Delete (series) of a reminder, described by its message for screen readers. */
export function ReminderButtons({ reminder, messageId, actions }: { reminder: Reminder; messageId: string; actions: OccurrenceActions }) {
  const { t } = useTranslation('calendar');
  const series = isRecurring(reminder);
  return (
    <>
      <Button variant="outline" size="sm" asChild>
        <Link href={`/reminders/${reminder.id}`} data-testid="day-reminder-view" aria-describedby={messageId}>
          <Eye />
          {t('dialog.view')}
        </Link>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-destructive hover:bg-destructive/10 hover:text-destructive"
        onClick={(e) => actions.remove(reminder, e.currentTarget)}
        data-testid="day-reminder-delete"
        aria-describedby={messageId}
      >
        <Trash2 />
        {series ? t('dialog.deleteSeries') : t('dialog.delete')}
      </Button>
    </>
  );
}
