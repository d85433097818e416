import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { quoted } from './quoted-message';
import type { ReminderDelete } from './use-reminder-delete';

interface DeleteReminderDialogProps {
  deletion: ReminderDelete;
  /** Where focus goes when the Delete button that opened the confirmation is gone. */
  fallbackFocus: RefObject<HTMLElement | null>;
}

/** Confirms deleting a reminder from the day dialog: the one-time reminder, or the whole series. */
export function DeleteReminderDialog({ deletion, fallbackFocus }: DeleteReminderDialogProps) {
  const { t } = useTranslation('calendar');
  const { pending, deleting } = deletion;
  return (
    <AlertDialog
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) deletion.cancel();
      }}
    >
      <AlertDialogContent
        data-testid="delete-confirm"
        data-scope={pending?.series ? 'series' : 'reminder'}
        onCloseAutoFocus={(event) => {
          // Back to the Delete button, or, when its reminder is gone, to the day dialog.
          event.preventDefault();
          const opener = deletion.opener.current;
          (opener?.isConnected ? opener : fallbackFocus.current)?.focus();
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
            onClick={() => void deletion.confirm()}
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
  );
}
