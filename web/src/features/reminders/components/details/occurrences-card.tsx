import { CalendarClock, CalendarX2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { Skeleton } from '@/components/ui/skeleton';
import { type Reminder, reminderOccurrences } from '@/lib/api/reminders';
import { formatDate, formatDateTime, formatRelative, formatTime } from '@/lib/format';
import { useSkip } from './use-skip';

export const OCCURRENCE_COUNT = 5;

/** The next 5 times the reminder fires, in the account's zone. */
export function OccurrencesCard({ reminder, timezone }: { reminder: Reminder; timezone: string }) {
  const { t } = useTranslation('details');
  const { skip } = useSkip(reminder, timezone);
  const repeats = reminder.recurrence_type !== 'ONCE';
  // The key changes with anything that moves the schedule, so an edit, pause, resume or skip refetches.
  const { data, error, isLoading } = useSWR(
    ['reminder-occurrences', reminder.id, reminder.updated_at, reminder.is_paused, reminder.recurrence_type, reminder.remind_at_utc, (reminder.exceptions ?? []).join(',')],
    () => reminderOccurrences(reminder.id, undefined, OCCURRENCE_COUNT),
  );
  const occurrences = data?.occurrences ?? [];

  return (
    <Card className="gap-4" data-testid="occurrences-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <CalendarClock className="size-4 text-primary" />
          {t('occurrences.title')}
        </CardHeading>
        <CardDescription>{reminder.is_paused ? t('occurrences.pausedNote') : t('occurrences.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="space-y-2">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-11 w-full" />
            ))}
          </div>
        ) : error ? (
          <p className="text-sm text-destructive">{t('occurrences.failed')}</p>
        ) : occurrences.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="occurrences-empty">
            {t('occurrences.empty')}
          </p>
        ) : (
          <ol className="space-y-1.5" data-testid="occurrences-list">
            {occurrences.map((iso, index) => (
              <li
                key={iso}
                className="flex items-center gap-3 rounded-md px-2 py-1.5 text-sm odd:bg-muted/50"
                data-testid="occurrence"
                data-value={iso}
              >
                <span className="grid size-6 shrink-0 place-items-center rounded-full bg-primary/10 text-xs font-semibold text-primary tabular-nums">
                  {index + 1}
                </span>
                {/* Date, then time and how far: two short lines, so the Skip button never cuts the time off in the 340 px column. */}
                <span className="min-w-0 flex-1">
                  <span className="block font-medium break-words">{formatDate(iso, timezone, 'medium')}</span>
                  <span className="block text-xs text-muted-foreground">
                    <span className="tabular-nums">{formatTime(iso, timezone)}</span> · {formatRelative(iso)}
                  </span>
                </span>
                {repeats && Date.parse(iso) > Date.now() && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="h-8 shrink-0 px-2 text-muted-foreground hover:text-foreground"
                    title={t('skip.action')}
                    aria-label={t('skip.actionFor', { when: formatDateTime(iso, timezone) })}
                    onClick={() => void skip(iso)}
                    data-testid="occurrence-skip"
                  >
                    <CalendarX2 />
                    {t('skip.button')}
                  </Button>
                )}
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
