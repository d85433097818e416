import { Undo2 } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { formatTime } from '@/lib/format';
import type { SkippedOccurrence } from './skipped-occurrences';

/** One skipped occurrence, struck through, with its Restore button. */
export function SkippedRow({ skipped, zone, onRestore }: { skipped: SkippedOccurrence; zone: string; onRestore: (s: SkippedOccurrence) => void }) {
  const { t } = useTranslation('calendar');
  const textId = useId();
  return (
    <li className="flex items-center gap-3 px-3 py-1.5" data-testid="day-skipped-occurrence" data-reminder-id={skipped.reminder.id} data-at={skipped.at}>
      <span id={textId} className="min-w-0 flex-1 truncate text-sm text-muted-foreground">
        <span className="font-medium tabular-nums line-through">{formatTime(skipped.at, zone)}</span> · {skipped.reminder.message}
      </span>
      <Button variant="ghost" size="sm" onClick={() => onRestore(skipped)} data-testid="day-skipped-restore" aria-describedby={textId}>
        <Undo2 />
        {t('dialog.restore')}
      </Button>
    </li>
  );
}
