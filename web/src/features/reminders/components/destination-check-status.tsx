import { CheckCircle2, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { DestinationMetadata } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import type { CheckState } from './use-destination-checks';
import { Spinner } from '@/components/ui/spinner';

/** The result of a destination's check, under it in the list: a spinner, "Ready", or the reason in words. */
export function DestinationCheckStatus({ state, metadata, id }: { state: CheckState | undefined; metadata: DestinationMetadata; id?: string }) {
  const { t } = useTranslation('delivery');
  const text = useDeliveryText();
  if (!state || state.status === 'unknown') return null;
  if (state.status === 'checking') {
    return (
      <p id={id} className="flex items-center gap-1.5 text-xs text-muted-foreground" role="status" data-testid="destination-check" data-status="checking">
        <Spinner className="size-3" />
        {t('check.checking')}
      </p>
    );
  }
  if (state.status === 'ok') {
    return (
      <p id={id} className="flex items-center gap-1.5 text-xs text-success" data-testid="destination-check" data-status="ok">
        <CheckCircle2 className="size-3.5" aria-hidden />
        {t('check.ok')}
      </p>
    );
  }
  return (
    <p id={id} className="flex items-start gap-1.5 text-xs font-medium text-destructive" role="alert" data-testid="destination-check" data-status="failed" data-code={state.code ?? ''}>
      <XCircle className="mt-px size-3.5 shrink-0" aria-hidden />
      <span>{text.codeText(state.code, { params: state.params, metadata, fallback: state.error })}</span>
    </p>
  );
}
