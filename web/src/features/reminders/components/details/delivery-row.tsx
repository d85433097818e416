import { BellRing, CheckCircle2, Clock, RotateCw, Send, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { type Delivery, type DestinationMetadata, resendDelivery } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import { formatDateTime, formatTime } from '@/lib/format';
import { useIdempotencyKey } from '@/lib/use-idempotency-key';
import { cn } from '@/lib/utils';
import { Spinner } from '@/components/ui/spinner';
import { alertDuration } from '../alerts-picker';

const STATUS_VARIANT = { pending: 'secondary', retrying: 'warning', delivered: 'success', failed: 'destructive' } as const;
/** What "Resend" is offered on: a pending delivery is about to be sent anyway. */
const RESENDABLE = new Set<Delivery['status']>(['delivered', 'failed', 'retrying']);

/**
 * One delivery of one occurrence to one destination: its status, when it arrived or is tried
 * next, every attempt (time, outcome, HTTP status, the error in words, latency) and "Resend".
 */
export function DeliveryRow({
  reminderId,
  delivery,
  metadata,
  timezone,
  onChanged,
}: {
  reminderId: string;
  delivery: Delivery;
  /** The destination's saved metadata (names for the label and the messages); null when it was removed. */
  metadata: DestinationMetadata | null;
  timezone: string;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation('delivery');
  const text = useDeliveryText();
  const [busy, setBusy] = useState(false);
  const resendKey = useIdempotencyKey();
  const label = text.destinationLabel(delivery.destination_type, metadata, delivery.destination_label);

  async function resend() {
    setBusy(true);
    try {
      // Resend pressed again after a failure reuses the key: a Discord or email receiver gets one copy, not two.
      await resendDelivery(reminderId, delivery.id, resendKey.keyFor(delivery.id));
      resendKey.settle();
      toast.success(t('history.resent'));
      onChanged();
    } catch (err) {
      resendKey.settle(err);
      toast.error(t('history.resendFailed'), { description: text.errorText(err, { metadata }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="space-y-2 px-3 py-3 sm:px-4" data-testid="delivery" data-status={delivery.status} data-delivery-id={delivery.id}>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <div className="min-w-0 flex-1 space-y-1">
          <p className="text-sm font-medium break-words" data-testid="delivery-destination">
            {label}
          </p>
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
            <Badge variant={STATUS_VARIANT[delivery.status]} data-testid="delivery-status">
              {delivery.status === 'retrying' && <RotateCw aria-hidden />}
              {text.statusText(delivery.status)}
            </Badge>
            {delivery.alert_minutes !== null && delivery.alert_minutes !== undefined && (
              <Badge variant="outline" data-testid="delivery-alert">
                <BellRing aria-hidden />
                {t('history.alert', { duration: alertDuration(i18n.language, delivery.alert_minutes) })}
              </Badge>
            )}
            {delivery.late && (
              <Badge variant="outline" data-testid="delivery-late">
                <Clock aria-hidden />
                {text.lateText}
              </Badge>
            )}
            <span>{t('history.attempts', { count: delivery.attempts.length })}</span>
            {delivery.delivered_at && (
              <span data-testid="delivery-delivered-at">· {t('history.deliveredAt', { when: formatDateTime(delivery.delivered_at, timezone) })}</span>
            )}
            {delivery.next_attempt_at && delivery.status !== 'delivered' && delivery.status !== 'failed' && (
              <span data-testid="delivery-next-attempt">· {t('history.nextAttempt', { when: formatDateTime(delivery.next_attempt_at, timezone) })}</span>
            )}
          </div>
        </div>
        {RESENDABLE.has(delivery.status) && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => void resend()}
            disabled={busy}
            aria-label={t('history.resendLabel', { destination: label })}
            data-testid="delivery-resend"
          >
            {busy ? <Spinner className="size-3.5" /> : <Send />}
            {busy ? t('history.resending') : t('history.resend')}
          </Button>
        )}
      </div>
      {delivery.attempts.length === 0 ? (
        <p className="text-xs text-muted-foreground">{t('history.noAttempts')}</p>
      ) : (
        <ol className="space-y-1 border-l-2 pl-3" aria-label={t('history.attemptsLabel')} data-testid="delivery-attempts">
          {delivery.attempts.map((a) => {
            const ok = a.outcome === 'ok';
            return (
              <li key={`${a.attempt}-${a.at}`} className="text-xs" data-testid="delivery-attempt" data-outcome={a.outcome}>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-muted-foreground">
                  <span className={cn('inline-flex items-center gap-1 font-medium', ok ? 'text-success' : 'text-destructive')}>
                    {ok ? <CheckCircle2 className="size-3.5" aria-hidden /> : <XCircle className="size-3.5" aria-hidden />}
                    {t('history.attempt', { attempt: a.attempt })} · {ok ? t('history.ok') : t('history.error')}
                  </span>
                  <time dateTime={a.at}>{formatTime(a.at, timezone, true)}</time>
                  {a.http_status !== null && <span data-testid="attempt-http-status">· {t('history.httpStatus', { status: a.http_status })}</span>}
                  {a.duration_ms !== null && <span>· {t('history.duration', { ms: a.duration_ms })}</span>}
                </div>
                {!ok && (
                  <p className="mt-0.5 break-words text-foreground/80" data-testid="attempt-error" data-code={a.code ?? ''}>
                    {text.codeText(a.code, { metadata, httpStatus: a.http_status, fallback: a.error })}
                  </p>
                )}
                {/* Delivered with a warning (an announcement not published): said, not shown as a failure. */}
                {ok && a.code && (
                  <p className="mt-0.5 break-words text-muted-foreground" data-testid="attempt-warning" data-code={a.code}>
                    {text.codeText(a.code, { metadata, httpStatus: a.http_status, fallback: a.error })}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </li>
  );
}
