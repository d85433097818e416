import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import type { TFunction } from 'i18next';
import { ApiError, errorMessage } from '@/lib/api-client';
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

/**
 * A refused rule, translated by its code; the server's message names the part at fault
 * ("rrule UNTIL: ..."), which says what to change in the editor.
 */
function previewError(error: unknown, t: TFunction<'reminders'>): string {
  const part = error instanceof ApiError && error.code === 'RRULE_INVALID' ? /^rrule ([A-Z]+)\b/.exec(error.message)?.[1] : undefined;
  if (part === 'UNTIL') return t('customRepeat.invalidUntil');
  if (part === 'INTERVAL') return t('customRepeat.invalidInterval');
  return errorMessage(error, t('customRepeat.invalid'));
}

/** The rule in words and its next 5 occurrences, from the server (the authority on every rule). */
export function RepeatPreview({
  date,
  time,
  timezone,
  recurrence,
  rrule,
  hideSummary,
}: {
  date: string;
  time: string;
  timezone?: string;
  recurrence: Repetition;
  rrule: string | null;
  /** The sentence is already shown above (a stored rule kept as it is). */
  hideSummary?: boolean;
}) {
  const { t, i18n } = useTranslation('reminders');
  const key = useDebounced(JSON.stringify([date, time, timezone ?? '', recurrence, rrule ?? '', i18n.language]), 300);
  const ready = /^\d{4}-\d{2}-\d{2}$/.test(date) && /^\d{2}:\d{2}/.test(time);
  const preview = useSWR(ready ? ['repeat-preview', key] : null, () => previewOccurrences({ date, time, recurrence, rrule, timezone }, PREVIEW_COUNT), { keepPreviousData: true });
  if (!ready) return null;
  if (preview.error) {
    return (
      <p className="text-sm text-destructive" role="alert" data-testid="repeat-preview-error">
        {previewError(preview.error, t)}
      </p>
    );
  }
  const data = preview.data;
  return (
    <div className="space-y-2 rounded-lg border border-dashed p-3 text-sm" aria-live="polite" data-testid="repeat-preview">
      {!hideSummary && (
        <p className="font-medium" data-testid="repeat-summary">
          {data?.recurrence_text ?? '…'}
        </p>
      )}
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
