import { AlertTriangle, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { deleteAccount } from '@/lib/api/reminders';
import { DELETE_CONFIRMATION_WORD } from '../api/account-api';
import { Spinner } from '@/components/ui/spinner';

/** Danger zone: delete the account, confirmed by typing DELETE (docs/dashboard.md "Forms"). */
export function DeleteAccountCard({ onDeleted }: { onDeleted: () => void }) {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [done, setDone] = useState(false);

  function openChange(next: boolean) {
    if (deleting || done) return;
    setOpen(next);
    if (!next) {
      setTyped('');
      setError(null);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (typed !== DELETE_CONFIRMATION_WORD) {
      setError(t('validation.deleteConfirm'));
      return;
    }
    setError(null);
    setDeleting(true);
    try {
      await deleteAccount();
      setDone(true);
      onDeleted();
    } catch (err) {
      console.error('Failed to delete account', err);
      setError(t('errors.delete'));
      setDeleting(false);
    }
  }

  return (
    <Card className="gap-4 border-destructive/40" data-testid="account-danger-zone">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base text-destructive">
          <AlertTriangle className="size-4" />
          {t('danger.title')}
        </CardHeading>
        <CardDescription>{t('danger.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setOpen(true)} data-testid="delete-account">
          <Trash2 />
          {t('danger.button')}
        </Button>
      </CardContent>
      <AlertDialog open={open} onOpenChange={openChange}>
        <AlertDialogContent data-testid="delete-account-dialog">
          <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4">
            <AlertDialogHeader>
              <AlertDialogTitle>{t('danger.dialogTitle')}</AlertDialogTitle>
              <AlertDialogDescription>{t('danger.dialogText')}</AlertDialogDescription>
            </AlertDialogHeader>
            {done ? (
              <p className="rounded-md bg-success/10 px-3 py-2 text-sm text-success" role="status" data-testid="account-deleted">
                {t('danger.deleted')}
              </p>
            ) : (
              <div className="space-y-2">
                <Label htmlFor="delete-confirm">{t('danger.typeToConfirm', { word: DELETE_CONFIRMATION_WORD })}</Label>
                <Input
                  id="delete-confirm"
                  value={typed}
                  onChange={(e) => setTyped(e.target.value)}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  placeholder={DELETE_CONFIRMATION_WORD}
                  disabled={deleting}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? 'delete-confirm-error' : undefined}
                  data-testid="delete-confirm-input"
                />
                {error && (
                  <p id="delete-confirm-error" className="text-sm text-destructive" role="alert" data-testid="delete-confirm-error">
                    {error}
                  </p>
                )}
              </div>
            )}
            <AlertDialogFooter>
              <AlertDialogCancel type="button" disabled={deleting || done}>
                {t('actions.cancel')}
              </AlertDialogCancel>
              <Button type="submit" variant="destructive" disabled={deleting || done} data-testid="delete-account-confirm">
                {deleting && <Spinner />}
                {deleting || done ? t('danger.deleting') : t('danger.confirmButton')}
              </Button>
            </AlertDialogFooter>
          </form>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
