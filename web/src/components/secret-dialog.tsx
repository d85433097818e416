import { Check, Copy, KeyRound, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { maskWebhookUrl } from '@/lib/webhook-url';

export interface SecretEntry {
  id: string;
  url?: string;
  secret: string;
  /** The message of the reminder it belongs to, when the dialog shows several reminders' (an import). */
  reminder?: string;
}

/** Why there are new secrets: they were just made by a create, a duplicate or an import. */
export type SecretOrigin = 'created' | 'duplicated' | 'imported';

/** Spelled out (not built from the origin) so the locale test sees them used. */
const DESCRIPTIONS = { created: 'wizard.secret.description', duplicated: 'wizard.secret.duplicated', imported: 'wizard.secret.imported' } as const;

/**
 * New webhooks' signing secrets (after a create, a duplicate or an import): the server returns them
 * only in that answer, and a receiver that checks signatures refuses requests until it has them.
 */
export function SecretDialog({ secrets, onClose, origin = 'created' }: { secrets: SecretEntry[] | null; onClose: () => void; origin?: SecretOrigin }) {
  const { t } = useTranslation('reminders');
  return (
    <Dialog open={secrets !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-xl" data-testid="secret-dialog" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <KeyRound className="size-5 text-primary" aria-hidden />
            {t('wizard.secret.title')}
          </DialogTitle>
          <DialogDescription>{t(DESCRIPTIONS[origin])}</DialogDescription>
        </DialogHeader>
        {/* An import may bring many: the list scrolls inside the dialog. */}
        <ul className="max-h-[50vh] min-w-0 space-y-3 overflow-y-auto">
          {secrets?.map((s) => (
            <li key={s.id} className="min-w-0 space-y-1.5" data-testid="secret-item">
              {s.reminder && (
                <p className="truncate text-sm font-medium" data-testid="secret-reminder">
                  {s.reminder}
                </p>
              )}
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
