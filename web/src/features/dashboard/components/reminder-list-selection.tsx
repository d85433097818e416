import { useTranslation } from 'react-i18next';
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog';
import { Button, buttonVariants } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import type { Reminder } from '@/lib/api/reminders';
import { cn } from '@/lib/utils';
import { targetsOf, type ReminderSelection } from './use-reminder-selection';

/** Above the list while choosing: select all shown, how many are chosen, and what to do with them. */
export function SelectionBar({ selection, shown }: { selection: ReminderSelection; shown: Reminder[] }) {
  const { t } = useTranslation('dashboard');
  const { selected, working } = selection;
  const allShown = shown.length > 0 && shown.every((r) => selection.isSelected(r.id));
  const canPause = targetsOf('pause', selected).length > 0;
  const canResume = targetsOf('resume', selected).length > 0;
  return (
    <div className="mt-2 space-y-2" data-testid="selection-bar">
      <div className="flex items-center justify-between gap-2">
        <label className="flex items-center gap-2 text-sm">
          <Checkbox checked={allShown} onCheckedChange={(on) => selection.setAll(shown, on === true)} data-testid="select-all" />
          {t('list.selectAll')}
        </label>
        <span className="text-sm text-muted-foreground tabular-nums" aria-live="polite" data-testid="selected-count">
          {t('list.selected', { count: selected.length })}
        </span>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" disabled={!canPause || working} onClick={() => void selection.run('pause')} data-testid="bulk-pause">
          {t('bulk.pause')}
        </Button>
        <Button size="sm" variant="outline" disabled={!canResume || working} onClick={() => void selection.run('resume')} data-testid="bulk-resume">
          {t('bulk.resume')}
        </Button>
        <Button size="sm" variant="destructive" disabled={selected.length === 0 || working} onClick={selection.askDelete} data-testid="bulk-delete">
          {t('bulk.delete')}
        </Button>
      </div>
      <BulkDeleteDialog selection={selection} />
    </div>
  );
}

/** The checkbox beside a card while choosing (outside the card, which is a link). */
export function SelectReminder({ selection, reminder }: { selection: ReminderSelection; reminder: Reminder }) {
  const { t } = useTranslation('dashboard');
  return (
    <Checkbox
      className="mt-4 shrink-0"
      checked={selection.isSelected(reminder.id)}
      onCheckedChange={(on) => selection.toggle(reminder.id, on === true)}
      aria-label={t('list.selectReminder', { message: reminder.message })}
      data-testid="select-reminder"
    />
  );
}

function BulkDeleteDialog({ selection }: { selection: ReminderSelection }) {
  const { t } = useTranslation('dashboard');
  const count = selection.selected.length;
  return (
    <AlertDialog
      open={selection.confirmingDelete}
      onOpenChange={(open) => {
        if (!open) selection.cancelDelete();
      }}
    >
      <AlertDialogContent data-testid="bulk-delete-confirm">
        <AlertDialogHeader>
          <AlertDialogTitle>{t('bulk.confirmTitle', { count })}</AlertDialogTitle>
          <AlertDialogDescription>{t('bulk.confirmDescription', { count })}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={selection.working}>{t('bulk.cancel')}</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog stays open while deleting. */}
          <button
            type="button"
            className={cn(buttonVariants({ variant: 'destructive' }))}
            disabled={selection.working}
            aria-busy={selection.working}
            onClick={() => void selection.run('delete')}
            data-testid="bulk-delete-confirm-button"
          >
            {selection.working ? t('bulk.deleting') : t('bulk.confirm', { count })}
          </button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
