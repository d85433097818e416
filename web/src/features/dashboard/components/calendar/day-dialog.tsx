import { BellOff, Clock, Eye, Repeat, Send, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { Link, useLocation } from 'wouter';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { deleteReminder, deliveryErrorsKey, type Reminder, remindersKey } from '@/lib/api/reminders';
import { formatDate, formatDateTime, formatTime } from '@/lib/format';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { recurrenceKey } from '../../lib/reminder-display';
import { capitalize, plainDateMs } from './calendar-dates';
import type { CalendarEvent } from './use-calendar-events';

interface DayDialogProps {
  /** Plain date of the open day, or null when closed. */
  date: string | null;
  events: CalendarEvent[];
  zone: string;
  onOpenChange: (open: boolean) => void;
  /** Element to focus once closed (the day that opened it: there is no Radix trigger). */
  returnFocusTo?: () => HTMLElement | null;
}

/** The reminders of one day, with View and Delete (SPEC "Calendar"). */
export function DayDialog({ date, events, zone, onOpenChange, returnFocusTo }: DayDialogProps) {
  const { t, i18n } = useTranslation('calendar');
  const [, navigate] = useLocation();
  const { mutate } = useSWRConfig();
  const [pending, setPending] = useState<Reminder | null>(null);
  const [deleting, setDeleting] = useState(false);
  const deleteOpener = useRef<HTMLElement | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  const language = i18n.language;
  const at = date ? plainDateMs(date) : 0;
  const weekday = date ? capitalize(new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(at), language) : '';
  const longDate = date ? new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at) : '';

  async function confirmDelete() {
    if (!pending) return;
    const target = pending;
    setDeleting(true);
    try {
      await deleteReminder(target.id);
      await mutate(remindersKey, (list?: Reminder[]) => list?.filter((r) => r.id !== target.id), { revalidate: true });
      void mutate(deliveryErrorsKey);
      toast.success(t('delete.success'));
    } catch (err) {
      // SPEC section 8: a calendar delete failure is logged and the confirmation closes.
      console.error('Failed to delete reminder', err);
      toast.error(t('delete.failed'));
    } finally {
      setDeleting(false);
      setPending(null);
    }
  }

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
        >
          <DialogHeader>
            <DialogTitle className="leading-tight" data-testid="day-dialog-title">
              <span className="block text-sm font-medium text-primary">{weekday}</span>
              <span className="mt-1 block text-xl">{longDate}</span>
            </DialogTitle>
            <DialogDescription>
              {events.length > 0 ? t('dialog.summary', { count: events.length }) : t('dialog.empty')}
            </DialogDescription>
          </DialogHeader>

          {events.length > 0 && (
            <ul className="-mx-1 max-h-[55dvh] space-y-2.5 overflow-y-auto px-1 py-0.5" data-testid="day-dialog-list">
              {events.map((event) => (
                <DayReminder
                  key={`${event.reminder.id}-${event.at}`}
                  event={event}
                  zone={zone}
                  onDelete={(opener) => {
                    deleteOpener.current = opener;
                    setPending(event.reminder);
                  }}
                />
              ))}
            </ul>
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

      <AlertDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open && !deleting) setPending(null);
        }}
      >
        <AlertDialogContent
          data-testid="delete-confirm"
          onCloseAutoFocus={(event) => {
            // Back to the Delete button, or, when its reminder is gone, to the day dialog.
            event.preventDefault();
            const opener = deleteOpener.current;
            (opener?.isConnected ? opener : closeButton.current)?.focus();
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>{t('delete.title')}</AlertDialogTitle>
            <AlertDialogDescription>{t('delete.description')}</AlertDialogDescription>
          </AlertDialogHeader>
          {pending && <p className="line-clamp-3 rounded-md border bg-muted/50 px-3 py-2 text-sm break-words">{pending.message}</p>}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={deleting} data-testid="delete-cancel">
              {t('delete.cancel')}
            </AlertDialogCancel>
            {/* A plain button, not AlertDialogAction: the dialog stays open while deleting. */}
            <button
              type="button"
              className={cn(buttonVariants({ variant: 'destructive' }))}
              disabled={deleting}
              aria-busy={deleting}
              onClick={() => void confirmDelete()}
              data-testid="delete-confirm-button"
            >
              {deleting ? (
                <>
                  <span className="size-3.5 animate-spin rounded-full border-2 border-current/30 border-t-current" aria-hidden />
                  {t('delete.deleting')}
                </>
              ) : (
                t('delete.confirm')
              )}
            </button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

function DayReminder({ event, zone, onDelete }: { event: CalendarEvent; zone: string; onDelete: (opener: HTMLElement) => void }) {
  const { t } = useTranslation('calendar');
  const { reminder } = event;
  const paused = reminderStatus(reminder) === 'paused';
  const snoozed = reminder.snoozed_at_utc && Date.parse(reminder.snoozed_at_utc) > Date.now() ? reminder.snoozed_at_utc : null;
  const destinations = reminder.destinations?.length ?? 0;
  // View and Delete are described by the message, so each pair is told apart by screen readers.
  const messageId = useId();

  return (
    <li className="rounded-lg border bg-card p-3.5 shadow-xs" data-testid="day-reminder" data-reminder-id={reminder.id}>
      <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:gap-3">
        <div className="flex items-center gap-1.5 text-sm font-semibold text-primary tabular-nums sm:min-w-20 sm:pt-0.5" data-testid="day-reminder-time">
          <Clock className="size-3.5 shrink-0" aria-hidden />
          {formatTime(event.at, zone)}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <p id={messageId} className="font-medium break-words whitespace-pre-line" data-testid="day-reminder-message">
            {reminder.message}
          </p>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant="secondary" data-testid="day-reminder-recurrence">
              <Repeat aria-hidden />
              {t(recurrenceKey(reminder))}
            </Badge>
            {paused && (
              <Badge variant="warning" data-testid="day-reminder-paused">
                {t('dialog.paused')}
              </Badge>
            )}
            <Badge variant="outline" className="text-muted-foreground" data-testid="day-reminder-destinations">
              <Send aria-hidden />
              {t('dialog.destinations', { count: destinations })}
            </Badge>
          </div>
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
      <div className="mt-3 flex justify-end gap-2">
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
          onClick={(e) => onDelete(e.currentTarget)}
          data-testid="day-reminder-delete"
          aria-describedby={messageId}
        >
          <Trash2 />
          {t('dialog.delete')}
        </Button>
      </div>
    </li>
  );
}
