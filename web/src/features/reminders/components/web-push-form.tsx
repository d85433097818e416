import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { checkDestination } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import { useWebPushKey } from '@/lib/public-config';
import type { EditableDestination } from '../api/destinations';
import { browserPushEnvironment, subscribeThisBrowser, WebPushError, type WebPushProblem } from '../lib/web-push';

/** Spelled out (not built from the problem) so the locale test sees them used. */
const PROBLEM_KEYS: Record<WebPushProblem, string> = {
  unsupported: 'form.unsupported',
  denied: 'form.denied',
  dismissed: 'form.dismissed',
  noKey: 'form.noKey',
  already: 'form.already',
  failed: 'form.failed',
};

/**
 * "This browser" (docs/notifications.md "Browser push"): one button that asks the notification
 * permission (only on this click, never on page load), subscribes with the server's VAPID key and
 * adds the destination after the server's check; a refusal or a browser without push says so.
 */
export function WebPushForm({ value, onAdd, disabled }: { value: readonly EditableDestination[]; onAdd: (d: EditableDestination) => void; disabled?: boolean }) {
  const { t } = useTranslation('webpush');
  const deliveryText = useDeliveryText();
  const { publicKey } = useWebPushKey();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function add() {
    setBusy(true);
    setError(null);
    try {
      const destination = await subscribeThisBrowser(browserPushEnvironment(), publicKey, value);
      const result = await checkDestination(destination);
      if (!result.ok) return setError(deliveryText.codeText(result.code, { fallback: result.error, params: result.params }));
      // Until saved, the server has not named the browser: it is "This browser".
      onAdd({ ...destination, label: t('service') });
    } catch (err) {
      setError(err instanceof WebPushError ? t(PROBLEM_KEYS[err.problem]) : deliveryText.errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3" data-testid="web-push-form">
      <p className="text-sm text-muted-foreground">{t('form.explain')}</p>
      <Button type="button" size="sm" disabled={disabled || busy} onClick={() => void add()} data-testid="web-push-add">
        {busy ? <Spinner /> : <BellRing />}
        {t('form.add')}
      </Button>
      {error && (
        <p role="alert" className="text-sm text-destructive" data-testid="web-push-error">
          {error}
        </p>
      )}
    </div>
  );
}
