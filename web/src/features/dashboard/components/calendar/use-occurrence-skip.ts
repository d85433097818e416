import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { errorMessage } from '@/lib/api-client';
import { type Reminder, reminderKey, remindersKey } from '@/lib/api/reminders';
import { formatLongDate, formatTime } from '@/lib/format';
import { restoreOccurrence, skipOccurrence } from '../../api/occurrences';
import { quoted } from './quoted-message';

/** Skips one occurrence (with Undo in its toast) and restores skipped ones, keeping the cached reminders current. */
export function useOccurrenceSkip(zone: string, closeButton: RefObject<HTMLButtonElement | null>) {
  const { t } = useTranslation('calendar');
  const { mutate } = useSWRConfig();

  /** The occurrence in words, in the account zone: "Tuesday, November 24, 2026 at 10:15 AM". */
  const when = (instant: string) => t('skip.when', { date: formatLongDate(instant, zone), time: formatTime(instant, zone) });

  /** Puts the reminder the API answered into the cached list (and its details), then revalidates. */
  async function store(updated: Reminder) {
    void mutate(reminderKey(updated.id), updated, { revalidate: false });
    await mutate(remindersKey, (list?: Reminder[]) => list?.map((r) => (r.id === updated.id ? updated : r)), { revalidate: true });
  }

  async function restore(reminder: Reminder, instant: string) {
    try {
      await store(await restoreOccurrence(reminder.id, instant));
      toast.success(t('skip.restored', { when: when(instant) }), { description: quoted(reminder.message) });
    } catch (err) {
      console.error('Failed to restore occurrence', err);
      toast.error(errorMessage(err, t('skip.restoreFailed')));
    }
  }

  async function skip(reminder: Reminder, instant: string, opener: HTMLElement) {
    // Focus goes to the next occurrence's Skip (or the previous one's), else to Close.
    const row = opener.closest('li');
    const neighbour = [row?.nextElementSibling, row?.previousElementSibling]
      .map((el) => el?.querySelector<HTMLElement>('[data-testid="day-occurrence-skip"]'))
      .find(Boolean);
    try {
      await store(await skipOccurrence(reminder.id, instant));
      (neighbour?.isConnected ? neighbour : closeButton.current)?.focus();
      toast.success(t('skip.done', { when: when(instant) }), {
        description: quoted(reminder.message),
        duration: 10_000,
        // The open day dialog turns pointer events off outside itself (Radix): Undo stays clickable.
        style: { pointerEvents: 'auto' },
        action: { label: t('skip.undo'), onClick: () => void restore(reminder, instant) },
      });
    } catch (err) {
      console.error('Failed to skip occurrence', err);
      toast.error(errorMessage(err, t('skip.failed')));
    }
  }

  return { skip, restore };
}
