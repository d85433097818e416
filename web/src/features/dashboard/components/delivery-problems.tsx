import { AlertTriangle, ArrowUpRight, RotateCw, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { type DeliveryProblem, deliveryErrorsKey, type DestinationMetadata, dismissDeliveryProblem, type Reminder } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import { formatDateTime } from '@/lib/format';

/** The details page's history section (features do not import each other, so the anchor is repeated). */
const HISTORY_ANCHOR = 'delivery-history';

/**
 * Failed and retrying deliveries (GET /api/reminders/errors): one row per delivery however many
 * attempts it took, newest first, in the user's language, each dismissable; hidden when none.
 */
export function DeliveryProblems({ errors, reminders, zone }: { errors: DeliveryProblem[]; reminders: Reminder[]; zone: string }) {
  const { t } = useTranslation('dashboard');
  const text = useDeliveryText();
  const { mutate } = useSWRConfig();
  if (errors.length === 0) return null;
  const sorted = [...errors].sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id));
  // The label and the messages quote the destination's saved names (channel, role, host).
  const metadata = new Map<string, DestinationMetadata>();
  for (const r of reminders) for (const d of r.destinations ?? []) metadata.set(d.id, d.metadata);

  async function dismiss(deliveryId: string) {
    const without = (list: DeliveryProblem[] | undefined) => (list ?? []).filter((p) => p.delivery_id !== deliveryId);
    try {
      await mutate<DeliveryProblem[]>(
        deliveryErrorsKey,
        async (current) => {
          await dismissDeliveryProblem(deliveryId);
          return without(current);
        },
        { optimisticData: without, rollbackOnError: true, populateCache: true, revalidate: false },
      );
    } catch (err) {
      toast.error(t('delivery:problems.dismissFailed'), { description: text.errorText(err) });
    }
  }

  return (
    <Card className="gap-0 border-destructive/30 py-0" data-testid="delivery-problems">
      <CardHeader className="flex-row items-start gap-3 border-b border-destructive/20 bg-destructive/5 px-4 py-4 sm:px-5 dark:bg-destructive/10">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-destructive/12 text-destructive" aria-hidden>
          <AlertTriangle className="size-4.5" />
        </span>
        <div className="space-y-1">
          <CardHeading className="text-lg">{t('problems.title')}</CardHeading>
          <CardDescription>{t('problems.description', { count: errors.length })}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="p-0">
        <ul className="max-h-80 divide-y overflow-y-auto">
          {sorted.map((item) => {
            const meta = metadata.get(item.destination_id) ?? null;
            return (
              <li
                key={item.delivery_id}
                className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-start sm:gap-4 sm:px-5"
                data-testid="delivery-problem"
                data-delivery-id={item.delivery_id}
              >
                <div className="min-w-0 flex-1 space-y-1">
                  <p id={`delivery-problem-${item.delivery_id}`} className="truncate font-medium" data-testid="delivery-problem-message">
                    {item.reminder_message}
                  </p>
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
                    <Badge variant="outline" className="max-w-full truncate" data-testid="delivery-problem-destination">
                      {text.destinationLabel(item.destination_type, meta, item.destination_label)}
                    </Badge>
                    {item.status === 'retrying' ? (
                      <Badge variant="warning">
                        <RotateCw aria-hidden />
                        {t('problems.retrying')}
                      </Badge>
                    ) : (
                      <Badge variant="destructive">{t('problems.failed')}</Badge>
                    )}
                    <span data-testid="delivery-problem-attempts">{t('delivery:history.attempts', { count: item.attempts })}</span>
                    {item.http_status !== null && <span>· {t('problems.httpStatus', { status: item.http_status })}</span>}
                    <time dateTime={item.updated_at}>· {formatDateTime(item.updated_at, zone)}</time>
                  </div>
                  <p className="text-sm break-words text-destructive" data-testid="delivery-problem-error" data-code={item.code ?? ''}>
                    {item.code || item.error ? text.codeText(item.code, { metadata: meta, httpStatus: item.http_status, fallback: item.error }) : t('problems.noDetails')}
                  </p>
                </div>
                <div className="flex shrink-0 items-center gap-1 self-start">
                  <Link
                    href={`/reminders/${item.reminder_id}#${HISTORY_ANCHOR}`}
                    className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-primary outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
                    data-testid="delivery-problem-link"
                    aria-describedby={`delivery-problem-${item.delivery_id}`}
                  >
                    {t('problems.view')}
                    <ArrowUpRight className="size-3.5" aria-hidden />
                  </Link>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="text-muted-foreground"
                    onClick={() => void dismiss(item.delivery_id)}
                    aria-label={t('delivery:problems.dismissLabel', { message: item.reminder_message })}
                    data-testid="delivery-problem-dismiss"
                  >
                    <X />
                    {t('delivery:problems.dismiss')}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
