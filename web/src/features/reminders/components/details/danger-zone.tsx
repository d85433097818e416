import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { cn } from '@/lib/utils';

/**
 * Delete, behind the same styled confirmation as every other destructive action (issue 27 #16; it
 * was the browser's confirm()). The dialog stays open while deleting; `onDelete` resolves when done.
 */
export function DangerZone({ onDelete, deleting }: { onDelete: () => Promise<void> | void; deleting: boolean }) {
  const { t } = useTranslation('details');
  const [open, setOpen] = useState(false);
  return (
    <Card className="gap-4 border-destructive/40" data-testid="danger-zone">
      <CardHeader>
        <CardHeading className="text-base text-destructive">{t('danger.title')}</CardHeading>
        <CardDescription>{t('danger.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setOpen(true)} disabled={deleting} data-testid="delete-reminder">
          <Trash2 />
          {deleting ? t('actions.deleting') : t('actions.delete')}
        </Button>
        <AlertDialog open={open} onOpenChange={(next) => !deleting && setOpen(next)}>
          <AlertDialogContent data-testid="delete-reminder-confirm">
            <AlertDialogHeader>
              <AlertDialogTitle>{t('danger.confirmTitle')}</AlertDialogTitle>
              <AlertDialogDescription>{t('danger.confirmText')}</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={deleting} data-testid="delete-reminder-cancel">
                {t('actions.cancel')}
              </AlertDialogCancel>
              {/* A plain button, not AlertDialogAction: the dialog stays open while deleting. */}
              <button
                type="button"
                className={cn(buttonVariants({ variant: 'destructive' }))}
                disabled={deleting}
                aria-busy={deleting}
                onClick={() => {
                  void Promise.resolve(onDelete()).finally(() => setOpen(false));
                }}
                data-testid="delete-reminder-confirm-button"
              >
                {deleting ? t('actions.deleting') : t('actions.delete')}
              </button>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
