import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { errorMessage } from '@/lib/api-client';
import { previewOccurrences } from '@/lib/api/reminders';
import type { Repetition } from '@/lib/api/types';
import { formatDateTime } from '@/lib/format';

const PREVIEW_COUNT = 5;

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

/** The rule in words and its next 5 occurrences, from the server (the authority on every rule). */
export function RepeatPreview({ date, time, timezone, recurrence, rrule }: { date: string; time: string; timezone?: string; recurrence: Repetition; rrule: string | null }) {
  const { t, i18n } = useTranslation('reminders');
  const key = useDebounced(JSON.stringify([date, time, timezone ?? '', recurrence, rrule ?? '', i18n.language]), 300);
  const ready = /^\d{4}-\d{2}-\d{2}$/.test(date) && /^\d{2}:\d{2}/.test(time);
  const preview = useSWR(ready ? ['repeat-preview', key] : null, () => previewOccurrences({ date, time, recurrence, rrule, timezone }, PREVIEW_COUNT), { keepPreviousData: true });
  if (!ready) return null;
  if (preview.error) {
    return (
      <p className="text-sm text-destructive" role="alert" data-testid="repeat-preview-error">
        {errorMessage(preview.error, t('customRepeat.invalid'))}
      </p>
    );
  }
  const data = preview.data;
  return (
    <div className="space-y-2 rounded-lg border border-dashed p-3 text-sm" aria-live="polite" data-testid="repeat-preview">
      <p className="font-medium" data-testid="repeat-summary">
        {data?.recurrence_text ?? '…'}
      </p>
      {data && (
        <>
          <p className="text-xs text-muted-foreground">{t('customRepeat.next', { count: data.occurrences.length })}</p>
          <ol className="space-y-0.5 text-muted-foreground" data-testid="repeat-next">
            {data.occurrences.map((iso) => (
              <li key={iso}>{formatDateTime(iso, timezone)}</li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
