import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { deleteReminder, deliveryErrorsKey, type Reminder, remindersKey } from '@/lib/api/reminders';
import { isRecurring } from '../../lib/reminder-display';

/** What the delete confirmation is about: a one-time reminder, or every occurrence of a series. */
export interface PendingDelete {
  reminder: Reminder;
  series: boolean;
}

export type ReminderDelete = ReturnType<typeof useReminderDelete>;

/** The state of the day dialog's delete confirmation: what is asked about, and the delete itself. */
export function useReminderDelete() {
  const { t } = useTranslation('calendar');
  const { mutate } = useSWRConfig();
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const [deleting, setDeleting] = useState(false);
  /** The Delete button pressed: focus returns to it when the confirmation closes. */
  const opener = useRef<HTMLElement | null>(null);

  function request(reminder: Reminder, from: HTMLElement) {
    opener.current = from;
    setPending({ reminder, series: isRecurring(reminder) });
  }

  function cancel() {
    if (!deleting) setPending(null);
  }

  async function confirm() {
    if (!pending) return;
    const target = pending.reminder;
    setDeleting(true);
    try {
      await deleteReminder(target.id);
      await mutate(remindersKey, (list?: Reminder[]) => list?.filter((r) => r.id !== target.id), { revalidate: true });
      void mutate(deliveryErrorsKey);
      toast.success(pending.series ? t('delete.seriesSuccess') : t('delete.success'));
    } catch (err) {
      // A calendar delete failure is logged and the confirmation closes (docs/dashboard.md "Errors").
      console.error('Failed to delete reminder', err);
      toast.error(t('delete.failed'));
    } finally {
      setDeleting(false);
      setPending(null);
    }
  }

  return { pending, deleting, opener, request, cancel, confirm };
}
