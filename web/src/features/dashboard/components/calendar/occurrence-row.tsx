import { SkipForward } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { Reminder } from '@/lib/api/reminders';
import { formatTime } from '@/lib/format';
import type { OccurrenceActions } from './occurrence-actions';

/** One time of an opened series, with Skip while it is still ahead. */
export function OccurrenceRow({ reminder, at, zone, skippable, onSkip }: { reminder: Reminder; at: string; zone: string; skippable: boolean; onSkip: OccurrenceActions['skip'] }) {
  const { t } = useTranslation('calendar');
  const timeId = useId();
  return (
    <li className="flex min-h-9 items-center justify-between gap-2 border-b py-0.5 last:border-b-0 sm:[&:nth-last-child(2):nth-child(odd)]:border-b-0" data-testid="day-occurrence" data-at={at}>
      <span id={timeId} className="text-sm font-medium tabular-nums" data-testid="day-occurrence-time">
        {formatTime(at, zone)}
      </span>
      {skippable && (
        <Button variant="ghost" size="sm" onClick={(e) => onSkip(reminder, at, e.currentTarget)} data-testid="day-occurrence-skip" aria-describedby={timeId}>
          <SkipForward />
          {t('dialog.skip')}
        </Button>
      )}
    </li>
  );
}
