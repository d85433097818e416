import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SkippedOccurrence } from './skipped-occurrences';
import { SkippedRow } from './skipped-row';

/** Occurrences skipped on this day, each with Restore (the undo that outlives the toast). */
export function SkippedList({ skipped, zone, onRestore }: { skipped: SkippedOccurrence[]; zone: string; onRestore: (s: SkippedOccurrence) => void }) {
  const { t } = useTranslation('calendar');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid="day-skipped">
      <h3 id={headingId} className="mb-1.5 text-sm font-medium text-muted-foreground">
        {t('dialog.skippedTitle')}
      </h3>
      <ul className="divide-y rounded-lg border border-dashed">
        {skipped.map((s) => (
          <SkippedRow key={`${s.reminder.id}-${s.at}`} skipped={s} zone={zone} onRestore={onRestore} />
        ))}
      </ul>
    </section>
  );
}
