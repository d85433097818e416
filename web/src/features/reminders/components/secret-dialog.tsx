import { Check, Copy, KeyRound, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { maskWebhookUrl } from '../api/destinations';

export interface SecretEntry {
  id: string;
  url?: string;
  secret: string;
}

/** The webhook signing secrets of a just-created reminder: the server returns them only in that answer. */
export function SecretDialog({ secrets, onClose }: { secrets: SecretEntry[] | null; onClose: () => void }) {
  const { t } = useTranslation('reminders');
  return (
    <Dialog open={secrets !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-xl" data-testid="secret-dialog" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <KeyRound className="size-5 text-primary" aria-hidden />
            {t('wizard.secret.title')}
          </DialogTitle>
          <DialogDescription>{t('wizard.secret.description')}</DialogDescription>
        </DialogHeader>
        <ul className="space-y-3">
          {secrets?.map((s) => (
            <li key={s.id} className="space-y-1.5" data-testid="secret-item">
              {s.url && <p className="truncate text-xs font-medium text-muted-foreground">{maskWebhookUrl(s.url)}</p>}
              <SecretValue value={s.secret} />
            </li>
          ))}
        </ul>
        <Alert variant="default" className="border-warning/40 bg-warning/10">
          <TriangleAlert className="text-amber-600 dark:text-warning" />
          <span>{t('wizard.secret.once')}</span>
        </Alert>
        <DialogFooter>
          <Button type="button" onClick={onClose} data-testid="secret-done">
            {t('wizard.secret.done')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function SecretValue({ value }: { value: string }) {
  const { t } = useTranslation('reminders');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
      setTimeout(() => setState('idle'), 2000);
    } catch {
      setState('failed');
    }
  }
  return (
    <div className="space-y-1">
      <div className="flex items-stretch gap-2">
        <code
          className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all select-all"
          data-testid="secret-value"
        >
          {value}
        </code>
        <Button type="button" variant="outline" size="sm" className="h-auto shrink-0" onClick={() => void copy()} data-testid="secret-copy">
          {state === 'copied' ? <Check className="text-success" /> : <Copy />}
          <span aria-live="polite">{state === 'copied' ? t('wizard.secret.copied') : t('wizard.secret.copy')}</span>
        </Button>
      </div>
      {state === 'failed' && <p className="text-xs text-destructive">{t('wizard.secret.copyFailed')}</p>}
    </div>
  );
}
