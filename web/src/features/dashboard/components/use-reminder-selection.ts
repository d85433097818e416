import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { errorMessage } from '@/lib/api-client';
import { deleteReminder, deliveryErrorsKey, pauseReminder, type Reminder, remindersKey, resumeReminder } from '@/lib/api/reminders';
import { reminderStatus } from '@/lib/reminder-status';

export type BulkAction = 'pause' | 'resume' | 'delete';

const CALLS: Record<BulkAction, (id: string) => Promise<unknown>> = { pause: pauseReminder, resume: resumeReminder, delete: deleteReminder };

const DONE_KEYS = { pause: 'bulk.paused', resume: 'bulk.resumed', delete: 'bulk.deleted' } as const satisfies Record<BulkAction, string>;

/** The reminders an action applies to: Pause the active ones, Resume the paused ones, Delete all. */
export function targetsOf(action: BulkAction, reminders: Reminder[]): Reminder[] {
  if (action === 'pause') return reminders.filter((r) => reminderStatus(r) === 'active');
  if (action === 'resume') return reminders.filter((r) => reminderStatus(r) === 'paused');
  return reminders;
}

export type ReminderSelection = ReturnType<typeof useReminderSelection>;

/**
 * Several reminders of the list chosen at once, and Pause, Resume or Delete applied to them
 * (docs/dashboard.md "Dashboard and calendar"). Each goes through the reminder's own route, one
 * after the other, so each keeps its own rules; what failed is said with the server's reason.
 */
export function useReminderSelection(reminders: Reminder[]) {
  const { t } = useTranslation('dashboard');
  const { mutate } = useSWRConfig();
  const [selecting, setSelecting] = useState(false);
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const [working, setWorking] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  // A reminder deleted elsewhere (another tab, the calendar) leaves the selection by itself.
  const selected = reminders.filter((r) => ids.has(r.id));

  function toggle(id: string, on: boolean) {
    setIds((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function setAll(shown: Reminder[], on: boolean) {
    setIds((current) => {
      const next = new Set(current);
      for (const r of shown) {
        if (on) next.add(r.id);
        else next.delete(r.id);
      }
      return next;
    });
  }

  function stop() {
    setSelecting(false);
    setIds(new Set());
    setConfirmingDelete(false);
  }

  async function run(action: BulkAction) {
    const targets = targetsOf(action, selected);
    if (targets.length === 0 || working) return;
    setWorking(true);
    const failures: string[] = [];
    for (const reminder of targets) {
      try {
        await CALLS[action](reminder.id);
      } catch (err) {
        failures.push(errorMessage(err));
      }
    }
    await mutate(remindersKey);
    void mutate(deliveryErrorsKey);
    setWorking(false);
    setConfirmingDelete(false);
    const done = targets.length - failures.length;
    if (done > 0) toast.success(t(DONE_KEYS[action], { count: done }));
    if (failures.length > 0) toast.error(t('bulk.failed', { count: failures.length, reason: failures[0] }));
    if (failures.length === 0) stop();
  }

  return { selecting, start: () => setSelecting(true), stop, selected, isSelected: (id: string) => ids.has(id), toggle, setAll, working, run, confirmingDelete, askDelete: () => setConfirmingDelete(true), cancelDelete: () => !working && setConfirmingDelete(false) };
}
