import { CalendarClock, CalendarRange, MessageSquareText, Pencil, Repeat, Send, TriangleAlert, BellRing } from 'lucide-react';
import { alertDuration } from './alerts-picker';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { previewOccurrences } from '@/lib/api/reminders';
import { formatLongDate, formatLongDateTime, formatTime } from '@/lib/format';
import { timeZoneLabel } from '@/lib/time-zone-label';
import type { EditableDestination } from '../api/destinations';
import { DestinationSummary } from './destination-summary';
import { formRepetition, type ReminderFormState } from './reminder-form-fields';

const PREVIEW_COUNT = 5;
/** The "already past" notice: the wizard's Create button points at it (aria-describedby). */
export const REVIEW_IN_PAST_ID = 'review-in-past';


export function ReviewStep({
  form,
  destinations,
  timezone,
  discordName,
  onEdit,
  refusedAsPast = false,
  onInPastChange,
}: {
  form: ReminderFormState;
  destinations: EditableDestination[];
  timezone: string;
  discordName?: string | null;
  onEdit: (step: 1 | 2) => void;
  /** Create answered REMINDER_IN_PAST (the time passed while the user read this step). */
  refusedAsPast?: boolean;
  /** Whether the date and time are past: the wizard disables Create meanwhile. */
  onInPastChange?: (inPast: boolean) => void;
}) {
  const { t, i18n } = useTranslation('reminders');
  // The server computes occurrences (DST, month ends) in the account zone.
  const repetition = formRepetition(form);
  const preview = useSWR(['reminders-preview', form.date, form.time, repetition.recurrence, repetition.rrule, i18n.language], () =>
    previewOccurrences({ date: form.date, time: form.time, ...repetition }, PREVIEW_COUNT),
  );
  // Wall clock as typed: format the date and time as if UTC so no zone shifts them.
  const wall = `${form.date}T${form.time}:00Z`;
  const occurrences = preview.data?.occurrences ?? [];
  // No occurrence left (a one-time reminder in the past, a series that ended): nothing to create.
  const inPast = refusedAsPast || (preview.data !== undefined && occurrences.length === 0);
  useEffect(() => {
    onInPastChange?.(inPast);
    return () => onInPastChange?.(false);
  }, [inPast, onInPastChange]);

  return (
    <div className="space-y-6" data-testid="review-step">
      <dl className="divide-y rounded-xl border">
        <Row icon={CalendarClock} label={t('wizard.review.when')} onEdit={() => onEdit(1)} editLabel={t('wizard.actions.edit')}>
          <span data-testid="review-when">
            {formatLongDate(wall, 'UTC')} · {formatTime(wall, 'UTC')}
          </span>
          <span className="block text-xs text-muted-foreground" data-testid="review-zone" title={timezone}>
            {timeZoneLabel(timezone)}
          </span>
        </Row>
        <Row icon={MessageSquareText} label={t('wizard.review.message')} onEdit={() => onEdit(1)} editLabel={t('wizard.actions.edit')}>
          <span className="block max-h-48 overflow-y-auto break-words whitespace-pre-wrap" data-testid="review-message">
            {form.message}
          </span>
        </Row>
        <Row icon={Repeat} label={t('wizard.review.recurrence')} onEdit={() => onEdit(1)} editLabel={t('wizard.actions.edit')}>
          <span data-testid="review-recurrence">{repetition.rrule ? (preview.data?.recurrence_text ?? '…') : t(`recurrence.${form.recurrence}`)}</span>
        </Row>
        {(form.alerts ?? []).length > 0 && (
          <Row icon={BellRing} label={t('form.alerts.label')} onEdit={() => onEdit(1)} editLabel={t('wizard.actions.edit')}>
            <span data-testid="review-alerts">{(form.alerts ?? []).map((m) => t('form.alerts.before', { duration: alertDuration(i18n.language, m) })).join(', ')}</span>
          </Row>
        )}
        <Row icon={Send} label={t('wizard.review.destinations')} onEdit={() => onEdit(2)} editLabel={t('wizard.actions.edit')}>
          {destinations.length === 0 ? (
            <span className="text-muted-foreground" data-testid="review-no-destinations">
              {t('wizard.review.noDestinations')}
            </span>
          ) : (
            <ul className="space-y-2" data-testid="review-destinations">
              {destinations.map((d, i) => (
                <li key={`${d.type}-${i}`} data-testid="review-destination">
                  <DestinationSummary destination={d} discordName={discordName} />
                </li>
              ))}
            </ul>
          )}
        </Row>
      </dl>

      <section className="space-y-3 rounded-xl border bg-muted/30 p-4 sm:p-5" aria-labelledby="review-occurrences-title">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="review-occurrences-title" className="flex items-center gap-2 text-sm font-semibold">
            <CalendarRange className="size-4 text-primary" aria-hidden />
            {t('wizard.review.occurrences')}
          </h3>
          <p className="text-xs text-muted-foreground" title={timezone}>
            {t('wizard.review.occurrencesHint', { zone: timeZoneLabel(timezone) })}
          </p>
        </div>
        {inPast ? (
          <Alert variant="destructive" id={REVIEW_IN_PAST_ID} data-testid="review-in-past">
            <TriangleAlert />
            <span>{t('wizard.review.inPast')}</span>
          </Alert>
        ) : preview.isLoading ? (
          <div className="space-y-2" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-5 w-3/4" />
            ))}
          </div>
        ) : preview.error ? (
          <p className="text-sm text-destructive">{t('wizard.review.occurrencesError')}</p>
        ) : (
          <ol className="space-y-1.5" data-testid="review-occurrences">
            {occurrences.map((iso, i) => (
              <li key={iso} className="flex items-center gap-3 text-sm" data-testid="review-occurrence" data-iso={iso}>
                <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary/10 text-xs font-semibold text-primary tabular-nums dark:bg-primary/20">
                  {i + 1}
                </span>
                <span>{formatLongDateTime(iso, timezone)}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** One <dt>/<dd> pair per row (a <dl> row may hold nothing else): the icon sits in the <dt>, the edit button in the <dd>. */
function Row({ icon: Icon, label, children, onEdit, editLabel }: { icon: typeof Send; label: string; children: ReactNode; onEdit: () => void; editLabel: string }) {
  return (
    <div className="relative py-3.5 pr-15 pl-11 sm:pr-17 sm:pl-13">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
        <Icon className="absolute top-4 left-4 size-4 text-muted-foreground sm:left-5" aria-hidden />
        {label}
      </dt>
      <dd className="mt-1 text-sm">
        {children}
        <Button
          type="button"
          variant="ghost"
          size="icon-sm"
          className="absolute top-3 right-4 text-muted-foreground sm:right-5"
          onClick={onEdit}
          aria-label={`${editLabel}: ${label}`}
          title={editLabel}
        >
          <Pencil />
        </Button>
      </dd>
    </div>
  );
}
