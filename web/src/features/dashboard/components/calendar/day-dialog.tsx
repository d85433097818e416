import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogFooter } from '@/components/ui/dialog';
import type { Reminder } from '@/lib/api/reminders';
import { DayDialogHeader } from './day-dialog-header';
import type { DayEntry } from './day-entries';
import { DayReminder } from './day-reminder';
import { DaySeries } from './day-series';
import { DeleteReminderDialog } from './delete-reminder-dialog';
import type { OccurrenceActions } from './occurrence-actions';
import { SkippedList } from './skipped-list';
import { skippedOn } from './skipped-occurrences';
import { useOccurrenceSkip } from './use-occurrence-skip';
import { useReminderDelete } from './use-reminder-delete';

interface DayDialogProps {
  /** Plain date of the open day, or null when closed. */
  date: string | null;
  entries: DayEntry[];
  /** Every reminder: the day also lists the occurrences skipped on it, to restore them. */
  reminders: Reminder[];
  zone: string;
  onOpenChange: (open: boolean) => void;
  /** Element to focus once closed (the day that opened it: there is no Radix trigger). */
  returnFocusTo?: () => HTMLElement | null;
}

/** The reminders of one day, with View, Skip this one, Delete and Delete series (docs/dashboard.md "Dashboard and calendar"). */
export function DayDialog({ date, entries, reminders, zone, onOpenChange, returnFocusTo }: DayDialogProps) {
  const { t } = useTranslation('calendar');
  const [, navigate] = useLocation();
  const closeButton = useRef<HTMLButtonElement>(null);
  const { skip, restore } = useOccurrenceSkip(zone, closeButton);
  const deletion = useReminderDelete();
  const actions: OccurrenceActions = { skip, remove: deletion.request };
  const skipped = skippedOn(date, reminders, zone);

  return (
    <>
      <Dialog open={date !== null} onOpenChange={onOpenChange}>
        <DialogContent
          className="sm:max-w-xl"
          data-testid="day-dialog"
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo?.();
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          onInteractOutside={(event) => {
            // The Undo of a skip lives in a toast, outside the dialog: pressing it keeps the day open.
            if ((event.target as Element | null)?.closest?.('[data-sonner-toaster]')) event.preventDefault();
          }}
        >
          <DayDialogHeader date={date} entries={entries} />

          {(entries.length > 0 || skipped.length > 0) && (
            <div className="-mx-1 max-h-[55dvh] space-y-4 overflow-y-auto px-1 py-0.5">
              {entries.length > 0 && (
                <ul className="space-y-2.5" data-testid="day-dialog-list">
                  {entries.map((entry) =>
                    entry.kind === 'single' ? (
                      <DayReminder key={entry.key} reminder={entry.event.reminder} at={entry.event.at} zone={zone} actions={actions} />
                    ) : (
                      <DaySeries key={entry.key} reminder={entry.reminder} times={entry.events.map((e) => e.at)} zone={zone} actions={actions} />
                    ),
                  )}
                </ul>
              )}
              {skipped.length > 0 && <SkippedList skipped={skipped} zone={zone} onRestore={(s) => void restore(s.reminder, s.at)} />}
            </div>
          )}

          <DialogFooter className="gap-2">
            <DialogClose asChild>
              <Button ref={closeButton} variant="outline" data-testid="day-dialog-close">
                {t('dialog.close')}
              </Button>
            </DialogClose>
            <Button
              variant="brand"
              data-testid="day-dialog-add"
              onClick={() => {
                if (date) navigate(`/reminders/create?date=${date}`);
              }}
            >
              {t('dialog.addNew')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <DeleteReminderDialog deletion={deletion} fallbackFocus={closeButton} />
    </>
  );
}
