import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { errorMessage } from '@/lib/api-client';
import { type Reminder, reminderKey, remindersKey, restoreOccurrence, skipOccurrence } from '@/lib/api/reminders';
import { formatDateTime } from '@/lib/format';

/** Skip one occurrence (with an Undo toast) or restore one; the reminder is refreshed from the answer. */
export function useSkip(reminder: Reminder, timezone: string) {
  const { t } = useTranslation('details');
  const { mutate } = useSWRConfig();
  const apply = async (updated: Reminder) => {
    await mutate(reminderKey(reminder.id), updated, { revalidate: false });
    void mutate(remindersKey);
  };
  async function restore(occurrence: string) {
    try {
      await apply(await restoreOccurrence(reminder.id, occurrence));
      toast.success(t('skip.restored', { when: formatDateTime(occurrence, timezone) }));
    } catch (err) {
      toast.error(errorMessage(err, t('skip.failed')));
    }
  }
  async function skip(occurrence: string) {
    try {
      await apply(await skipOccurrence(reminder.id, occurrence));
      toast.success(t('skip.skipped', { when: formatDateTime(occurrence, timezone) }), {
        action: { label: t('skip.undo'), onClick: () => void restore(occurrence) },
      });
    } catch (err) {
      toast.error(errorMessage(err, t('skip.failed')));
    }
  }
  return { skip, restore };
}
