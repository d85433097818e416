import { AlertTriangle, ArrowUpRight, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { DeliveryProblem } from '@/lib/api/reminders';
import { formatDateTime } from '@/lib/format';

/** Failed and retrying deliveries (GET /api/reminders/errors), newest first; hidden when none. */
export function DeliveryProblems({ errors, zone }: { errors: DeliveryProblem[]; zone: string }) {
  const { t } = useTranslation('dashboard');
  if (errors.length === 0) return null;
  const sorted = [...errors].sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id));

  return (
    <Card className="gap-0 border-destructive/30 py-0" data-testid="delivery-problems">
      <CardHeader className="flex-row items-start gap-3 border-b border-destructive/20 bg-destructive/5 px-4 py-4 sm:px-5 dark:bg-destructive/10">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-destructive/12 text-destructive" aria-hidden>
          <AlertTriangle className="size-4.5" />
        </span>
        <div className="space-y-1">
          <CardTitle className="text-lg">{t('problems.title')}</CardTitle>
          <CardDescription>{t('problems.description', { count: errors.length })}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="p-0">
        <ul className="max-h-80 divide-y overflow-y-auto">
          {sorted.map((item) => (
            <li key={item.id} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-start sm:gap-4 sm:px-5" data-testid="delivery-problem">
              <div className="min-w-0 flex-1 space-y-1">
                <p id={`delivery-problem-${item.id}`} className="truncate font-medium" data-testid="delivery-problem-message">
                  {item.reminder_message}
                </p>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
                  <Badge variant="outline" className="max-w-full truncate" data-testid="delivery-problem-destination">
                    {item.destination_label}
                  </Badge>
                  {item.status === 'retrying' ? (
                    <Badge variant="warning">
                      <RotateCw aria-hidden />
                      {t('problems.retrying')}
                    </Badge>
                  ) : (
                    <Badge variant="destructive">{t('problems.failed')}</Badge>
                  )}
                  <span>{t('problems.attempt', { attempt: item.attempts })}</span>
                  {item.http_status !== null && <span>· {t('problems.httpStatus', { status: item.http_status })}</span>}
                  <time dateTime={item.updated_at}>· {formatDateTime(item.updated_at, zone)}</time>
                </div>
                <p className="text-sm break-words text-destructive" data-testid="delivery-problem-error">
                  {item.error || t('problems.noDetails')}
                </p>
              </div>
              <Link
                href={`/reminders/${item.reminder_id}`}
                className="inline-flex shrink-0 items-center gap-1 self-start rounded-md px-2 py-1 text-sm font-medium text-primary outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
                data-testid="delivery-problem-link"
                aria-describedby={`delivery-problem-${item.id}`}
              >
                {t('problems.view')}
                <ArrowUpRight className="size-3.5" aria-hidden />
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
