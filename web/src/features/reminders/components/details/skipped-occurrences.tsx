import { CalendarX2, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import type { Reminder } from '@/lib/api/reminders';
import { formatDate, formatTime } from '@/lib/format';
import { useSkip } from './use-skip';

/** The skipped occurrences still ahead, each restorable. Nothing when there are none. */
export function SkippedOccurrences({ reminder, timezone }: { reminder: Reminder; timezone: string }) {
  const { t } = useTranslation('details');
  const { restore } = useSkip(reminder, timezone);
  const ahead = (reminder.exceptions ?? []).filter((iso) => Date.parse(iso) > Date.now());
  if (ahead.length === 0) return null;
  return (
    <Card className="gap-4" data-testid="skipped-occurrences">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <CalendarX2 className="size-4 text-primary" />
          {t('skip.title')}
        </CardHeading>
        <CardDescription>{t('skip.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-1.5">
          {ahead.map((iso) => (
            <li key={iso} className="flex items-center gap-2 text-sm" data-testid="skipped-occurrence" data-value={iso}>
              <span className="min-w-0 flex-1 truncate text-muted-foreground line-through">
                {formatDate(iso, timezone, 'medium')} · {formatTime(iso, timezone)}
              </span>
              <Button size="sm" variant="outline" onClick={() => void restore(iso)} data-testid="skipped-restore">
                <Undo2 />
                {t('skip.restore')}
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
