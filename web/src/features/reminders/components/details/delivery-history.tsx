import { History } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import useSWRInfinite from 'swr/infinite';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { Skeleton } from '@/components/ui/skeleton';
import { type Delivery, type DeliveryPage, deliveriesKey, type Reminder } from '@/lib/api/reminders';
import { formatLongDateTime } from '@/lib/format';
import { DeliveryRow } from './delivery-row';

/** The anchor the dashboard's "Delivery problems" links to. */
export const DELIVERY_HISTORY_ID = 'delivery-history';
/** While something is pending or retrying (e.g. after Resend), the history refreshes itself. */
const ACTIVE_REFRESH_MS = 2000;

/** Deliveries grouped by occurrence, newest first (a page may end in the middle of one). */
function byOccurrence(deliveries: Delivery[]): { occurrence: string; deliveries: Delivery[] }[] {
  const groups: { occurrence: string; deliveries: Delivery[] }[] = [];
  for (const d of deliveries) {
    const last = groups[groups.length - 1];
    if (last && last.occurrence === d.occurrence_utc) last.deliveries.push(d);
    else groups.push({ occurrence: d.occurrence_utc, deliveries: [d] });
  }
  return groups;
}

/**
 * "Delivery history" of the details page: per occurrence and destination, the status and every
 * attempt, with "Resend" and "Load more" (cursor pages of GET /api/reminders/:id/deliveries).
 */
export function DeliveryHistory({ reminder, timezone }: { reminder: Reminder; timezone: string }) {
  const { t } = useTranslation('delivery');
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<DeliveryPage>(
    (index, previous: DeliveryPage | null) => {
      if (index === 0) return deliveriesKey(reminder.id);
      return previous?.next_cursor ? deliveriesKey(reminder.id, previous.next_cursor) : null;
    },
    {
      revalidateFirstPage: true,
      refreshInterval: (pages?: DeliveryPage[]) => (pages?.some((p) => p.deliveries.some((d) => d.status === 'pending' || d.status === 'retrying')) ? ACTIVE_REFRESH_MS : 0),
    },
  );
  const deliveries = data?.flatMap((p) => p.deliveries) ?? [];
  const nextCursor = data?.[data.length - 1]?.next_cursor ?? null;
  const loadingMore = isValidating && size > (data?.length ?? 0);
  const metadataOf = new Map(reminder.destinations.map((d) => [d.id, d.metadata]));

  // Arriving from "Delivery problems" (/reminders/:id#delivery-history): the section renders after
  // the reminder loads, too late for the browser's own jump, so scroll once it has content.
  const ref = useRef<HTMLDivElement>(null);
  const scrolled = useRef(false);
  useEffect(() => {
    if (scrolled.current || !data || window.location.hash !== `#${DELIVERY_HISTORY_ID}`) return;
    scrolled.current = true;
    ref.current?.scrollIntoView({ block: 'start' });
  }, [data]);

  return (
    <Card ref={ref} id={DELIVERY_HISTORY_ID} className="scroll-mt-20 gap-5" data-testid="delivery-history">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <History className="size-4 text-primary" />
          {t('history.title')}
        </CardHeading>
        <CardDescription>{t('history.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {isLoading ? (
          <div className="space-y-2">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : error && deliveries.length === 0 ? (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <p className="text-destructive" data-testid="delivery-history-error">
              {t('history.loadFailed')}
            </p>
            <Button variant="outline" size="sm" onClick={() => void mutate()}>
              {t('history.retry')}
            </Button>
          </div>
        ) : deliveries.length === 0 ? (
          <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground" data-testid="delivery-history-empty">
            {t('history.empty')}
          </p>
        ) : (
          <ol className="space-y-4" data-testid="delivery-occurrences">
            {byOccurrence(deliveries).map((group) => (
              <li key={group.occurrence} className="space-y-2" data-testid="delivery-occurrence" data-occurrence={group.occurrence}>
                <h3 className="text-sm font-semibold">
                  <time dateTime={group.occurrence}>{t('history.occurrence', { when: formatLongDateTime(group.occurrence, timezone) })}</time>
                </h3>
                <ul className="divide-y rounded-lg border">
                  {group.deliveries.map((d) => (
                    <DeliveryRow
                      key={d.id}
                      reminderId={reminder.id}
                      delivery={d}
                      metadata={metadataOf.get(d.destination_id) ?? null}
                      timezone={timezone}
                      onChanged={() => void mutate()}
                    />
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
        {nextCursor && (
          <Button variant="outline" className="w-full" onClick={() => void setSize(size + 1)} disabled={loadingMore} data-testid="delivery-history-more">
            {t('history.loadMore')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
