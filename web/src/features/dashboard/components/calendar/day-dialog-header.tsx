import { useTranslation } from 'react-i18next';
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { capitalize, plainDateMs } from './calendar-dates';
import type { DayEntry } from './day-entries';

/** The day dialog's title (weekday over the long date) and how many reminders the day holds. */
export function DayDialogHeader({ date, entries }: { date: string | null; entries: DayEntry[] }) {
  const { t, i18n } = useTranslation('calendar');
  const language = i18n.language;
  const at = date ? plainDateMs(date) : 0;
  const weekday = date ? capitalize(new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(at), language) : '';
  const longDate = date ? new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at) : '';
  const occurrences = entries.reduce((n, e) => n + (e.kind === 'series' ? e.events.length : 1), 0);

  return (
    <DialogHeader>
      <DialogTitle className="leading-tight" data-testid="day-dialog-title">
        <span className="block text-sm font-medium text-primary">{weekday}</span>
        <span className="mt-1 block text-xl">{longDate}</span>
      </DialogTitle>
      <DialogDescription>
        {entries.length > 0
          ? occurrences > entries.length
            ? t('dialog.summaryWithSeries', { count: entries.length, occurrences })
            : t('dialog.summary', { count: entries.length })
          : t('dialog.empty')}
      </DialogDescription>
    </DialogHeader>
  );
}
