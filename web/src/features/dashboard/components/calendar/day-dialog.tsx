import { BellOff, ChevronDown, Clock, Eye, Repeat, Send, SkipForward, Trash2, Undo2 } from 'lucide-react';
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
import { errorMessage } from '@/lib/api-client';
import { deleteReminder, deliveryErrorsKey, type Reminder, reminderKey, remindersKey } from '@/lib/api/reminders';
import { formatDate, formatDateTime, formatLongDate, formatTime } from '@/lib/format';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { restoreOccurrence, skipOccurrence } from '../../api/occurrences';
import { isRecurring, recurrenceLabel } from '../../lib/reminder-display';
import { capitalize, plainDateMs, zonedDate } from './calendar-dates';
import type { DayEntry } from './day-entries';

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

/** What the delete confirmation is about: a one-time reminder, or every occurrence of a series. */
interface PendingDelete {
  reminder: Reminder;
  series: boolean;
}

/** Actions an occurrence row calls; `opener` is the button pressed (focus moves on from it). */
interface OccurrenceActions {
  skip: (reminder: Reminder, at: string, opener: HTMLElement) => void;
  remove: (reminder: Reminder, opener: HTMLElement) => void;
}

const MESSAGE_IN_SENTENCE = 80;

/** A message quoted inside a sentence: one line, cut at a readable length. */
function quoted(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > MESSAGE_IN_SENTENCE ? `${line.slice(0, MESSAGE_IN_SENTENCE - 1).trimEnd()}…` : line;
}

/** The reminders of one day, with View, Skip this one, Delete and Delete series (SPEC "Calendar"). */
export function DayDialog({ date, entries, reminders, zone, onOpenChange, returnFocusTo }: DayDialogProps) {
  const { t, i18n } = useTranslation('calendar');
  const [, navigate] = useLocation();
  const { mutate } = useSWRConfig();
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const [deleting, setDeleting] = useState(false);
  const deleteOpener = useRef<HTMLElement | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  const language = i18n.language;
  const at = date ? plainDateMs(date) : 0;
  const weekday = date ? capitalize(new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(at), language) : '';
  const longDate = date ? new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at) : '';

  // Occurrences skipped on this day (the API lists those still ahead), so they can be restored.
  const skipped = date
    ? reminders
        .flatMap((reminder) => (reminder.exceptions ?? []).map((instant) => ({ reminder, at: instant })))
        .filter((s) => zonedDate(s.at, zone) === date)
        .sort((a, b) => a.at.localeCompare(b.at))
    : [];

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

  const actions: OccurrenceActions = {
    async skip(reminder, instant, opener) {
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
    },
    remove(reminder, opener) {
      deleteOpener.current = opener;
      setPending({ reminder, series: isRecurring(reminder) });
    },
  };

  async function confirmDelete() {
    if (!pending) return;
    const target = pending.reminder;
    setDeleting(true);
    try {
      await deleteReminder(target.id);
      await mutate(remindersKey, (list?: Reminder[]) => list?.filter((r) => r.id !== target.id), { revalidate: true });
      void mutate(deliveryErrorsKey);
      toast.success(pending.series ? t('delete.seriesSuccess') : t('delete.success'));
    } catch (err) {
      // SPEC section 8: a calendar delete failure is logged and the confirmation closes.
      console.error('Failed to delete reminder', err);
      toast.error(t('delete.failed'));
    } finally {
      setDeleting(false);
      setPending(null);
    }
  }

  const occurrences = entries.reduce((n, e) => n + (e.kind === 'series' ? e.events.length : 1), 0);

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

      <AlertDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open && !deleting) setPending(null);
        }}
      >
        <AlertDialogContent
          data-testid="delete-confirm"
          data-scope={pending?.series ? 'series' : 'reminder'}
          onCloseAutoFocus={(event) => {
            // Back to the Delete button, or, when its reminder is gone, to the day dialog.
            event.preventDefault();
            const opener = deleteOpener.current;
            (opener?.isConnected ? opener : closeButton.current)?.focus();
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>{pending?.series ? t('delete.seriesTitle') : t('delete.title')}</AlertDialogTitle>
            <AlertDialogDescription data-testid="delete-confirm-description">
              {pending?.series ? t('delete.seriesDescription', { message: quoted(pending.reminder.message) }) : t('delete.description')}
            </AlertDialogDescription>
          </AlertDialogHeader>
          {pending && !pending.series && <blockquote className="line-clamp-3 border-l-2 border-primary/50 pl-3 text-sm break-words text-muted-foreground italic" data-testid="delete-confirm-message">{pending.reminder.message}</blockquote>}
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
              ) : pending?.series ? (
                t('delete.seriesConfirm')
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

/** The badges shared by single occurrences and series: repetition, status, destinations. */
function ReminderBadges({ reminder }: { reminder: Reminder }) {
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

/** View and Delete (series) of a reminder, described by its message for screen readers. */
function ReminderButtons({ reminder, messageId, actions }: { reminder: Reminder; messageId: string; actions: OccurrenceActions }) {
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

/** Whether an occurrence can still be skipped (the API refuses past ones). */
const isAhead = (instant: string) => Date.parse(instant) > Date.now();

function DayReminder({ reminder, at, zone, actions }: { reminder: Reminder; at: string; zone: string; actions: OccurrenceActions }) {
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

/** A reminder firing more than 3 times on the day: one entry, its times behind a disclosure. */
function DaySeries({ reminder, times, zone, actions }: { reminder: Reminder; times: string[]; zone: string; actions: OccurrenceActions }) {
  const { t } = useTranslation('calendar');
  const [open, setOpen] = useState(false);
  const messageId = useId();
  const listId = useId();
  const canSkip = reminderStatus(reminder) !== 'completed';

  return (
    <li className="rounded-lg border bg-card p-3.5 shadow-xs" data-testid="day-series" data-reminder-id={reminder.id}>
      <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:gap-3">
        <div className="flex items-center gap-1.5 text-sm font-semibold text-primary tabular-nums sm:min-w-20 sm:pt-0.5" data-testid="day-series-count">
          <Repeat className="size-3.5 shrink-0" aria-hidden />
          {t('day.seriesCount', { count: times.length })}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <p id={messageId} className="font-medium break-words whitespace-pre-line" data-testid="day-reminder-message">
            {reminder.message}
          </p>
          <p className="text-xs text-muted-foreground tabular-nums" data-testid="day-series-span">
            {t('dialog.seriesSpan', { count: times.length, first: formatTime(times[0]!, zone), last: formatTime(times[times.length - 1]!, zone) })}
          </p>
          <ReminderBadges reminder={reminder} />
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-2">
        <Button
          variant="outline"
          size="sm"
          className="mr-auto"
          aria-expanded={open}
          aria-controls={listId}
          aria-describedby={messageId}
          onClick={() => setOpen((o) => !o)}
          data-testid="day-series-toggle"
        >
          <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden />
          {open ? t('dialog.hideTimes') : t('dialog.showTimes', { count: times.length })}
        </Button>
        <ReminderButtons reminder={reminder} messageId={messageId} actions={actions} />
      </div>
      <ul id={listId} hidden={!open} className="mt-3 grid gap-x-4 border-t pt-2 sm:grid-cols-2" aria-label={t('dialog.timesLabel', { message: quoted(reminder.message) })} data-testid="day-series-times">
        {open &&
          times.map((instant) => (
            <OccurrenceRow key={instant} reminder={reminder} at={instant} zone={zone} skippable={canSkip && isAhead(instant)} onSkip={actions.skip} />
          ))}
      </ul>
    </li>
  );
}

function OccurrenceRow({ reminder, at, zone, skippable, onSkip }: { reminder: Reminder; at: string; zone: string; skippable: boolean; onSkip: OccurrenceActions['skip'] }) {
  const { t } = useTranslation('calendar');
  const timeId = useId();
  return (
    <li className="flex min-h-9 items-center justify-between gap-2 border-b py-0.5 last:border-b-0 sm:[&:nth-last-child(2):nth-child(odd)]:border-b-0" data-testid="day-occurrence" data-at={at}>
      <span id={timeId} className="text-sm font-medium tabular-nums" data-testid="day-occurrence-time">
        {formatTime(at, zone)}
      </span>
      {skippable && (
        <Button variant="ghost" size="sm" onClick={(e) => onSkip(reminder, at, e.currentTarget)} data-testid="day-occurrence-skip" aria-describedby={timeId}>
          <SkipForward />
          {t('dialog.skip')}
        </Button>
      )}
    </li>
  );
}

/** Occurrences skipped on this day, each with Restore (the undo that outlives the toast). */
function SkippedList({ skipped, zone, onRestore }: { skipped: { reminder: Reminder; at: string }[]; zone: string; onRestore: (s: { reminder: Reminder; at: string }) => void }) {
  const { t } = useTranslation('calendar');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid="day-skipped">
      <h3 id={headingId} className="mb-1.5 text-sm font-medium text-muted-foreground">
        {t('dialog.skippedTitle')}
      </h3>
      <ul className="divide-y rounded-lg border border-dashed">
        {skipped.map((s) => (
          <SkippedRow key={`${s.reminder.id}-${s.at}`} skipped={s} zone={zone} onRestore={onRestore} />
        ))}
      </ul>
    </section>
  );
}

function SkippedRow({ skipped, zone, onRestore }: { skipped: { reminder: Reminder; at: string }; zone: string; onRestore: (s: { reminder: Reminder; at: string }) => void }) {
  const { t } = useTranslation('calendar');
  const textId = useId();
  return (
    <li className="flex items-center gap-3 px-3 py-1.5" data-testid="day-skipped-occurrence" data-reminder-id={skipped.reminder.id} data-at={skipped.at}>
      <span id={textId} className="min-w-0 flex-1 truncate text-sm text-muted-foreground">
        <span className="font-medium tabular-nums line-through">{formatTime(skipped.at, zone)}</span> · {skipped.reminder.message}
      </span>
      <Button variant="ghost" size="sm" onClick={() => onRestore(skipped)} data-testid="day-skipped-restore" aria-describedby={textId}>
        <Undo2 />
        {t('dialog.restore')}
      </Button>
    </li>
  );
}
