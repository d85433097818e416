import { Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ReminderStatusBadge } from '@/components/reminder-status-badge';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { CopyButton } from '@/components/ui/copy-button';
import type { Reminder } from '@/lib/api/reminders';
import { formatDateTime } from '@/lib/format';
import { timeZoneLabel } from '@/lib/time-zone-label';
import type { ReminderStatus } from '@/lib/reminder-status';

export function InfoCard({ reminder, status, timezone }: { reminder: Reminder; status: ReminderStatus; timezone: string }) {
  const { t } = useTranslation('details');
  return (
    <Card className="gap-4" data-testid="info-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <Info className="size-4 text-primary" />
          {t('info.title')}
        </CardHeading>
      </CardHeader>
      <CardContent>
        <dl className="space-y-3 text-sm">
          <div className="flex items-center justify-between gap-3">
            <dt className="text-muted-foreground">{t('info.created')}</dt>
            <dd className="text-right font-medium" data-testid="info-created">
              {formatDateTime(reminder.created_at, timezone)}
            </dd>
          </div>
          {reminder.updated_at && reminder.updated_at !== reminder.created_at && (
            <div className="flex items-center justify-between gap-3">
              <dt className="text-muted-foreground">{t('info.updated')}</dt>
              <dd className="text-right font-medium">{formatDateTime(reminder.updated_at, timezone)}</dd>
            </div>
          )}
          <div className="flex items-center justify-between gap-3">
            <dt className="text-muted-foreground">{t('info.timezone')}</dt>
            <dd className="text-right font-medium break-words" data-testid="info-timezone" data-value={reminder.timezone} title={reminder.timezone}>
              {timeZoneLabel(reminder.timezone)}
            </dd>
          </div>
          <div className="flex items-center justify-between gap-3">
            <dt className="text-muted-foreground">{t('info.status')}</dt>
            <dd>
              <ReminderStatusBadge status={status} />
            </dd>
          </div>
          {(reminder.subscriber_count > 0 || reminder.destinations.some((d) => d.metadata.remind_me_too === true)) && (
            <div className="flex items-center justify-between gap-3">
              <dt className="text-muted-foreground">{t('info.followers')}</dt>
              <dd className="text-right font-medium" data-testid="info-followers">
                {t('info.followersCount', { count: reminder.subscriber_count })}
              </dd>
            </div>
          )}
          <div className="space-y-1.5 border-t pt-3">
            <dt className="text-muted-foreground">{t('info.id')}</dt>
            <dd className="flex items-center gap-2">
              <code className="min-w-0 flex-1 rounded-md bg-muted px-2 py-1.5 font-mono text-xs break-all" data-testid="info-id">
                {reminder.id}
              </code>
              <CopyButton value={reminder.id} copiedLabel={t('actions.copied')} aria-label={t('actions.copyId')} />
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
