import { AlarmClockOff, BellRing, CalendarClock, CalendarDays, CircleCheck, Clock, Globe, Repeat } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import type { Reminder } from '@/lib/api/reminders';
import { formatDateTime, formatLongDate, formatTime, wallClock } from '@/lib/format';
import { timeZoneLabel } from '@/lib/time-zone-label';
import { normalizeTimezone } from '@/lib/timezones';
import { cn } from '@/lib/utils';
import { recurrenceLabel } from './reminder-meta';
import { alertDuration } from '../alerts-picker';

function Fact({
  icon: Icon,
  label,
  children,
  testId,
  detail,
  className,
}: {
  icon: ComponentType<{ className?: string }>;
  label: string;
  children: ReactNode;
  testId: string;
  /** A second, quieter line (a preset's rule in words). */
  detail?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex min-w-0 items-start gap-3 rounded-lg border bg-muted/40 p-3.5', className)}>
      <span className="grid size-9 shrink-0 place-items-center rounded-md bg-primary/10 text-primary">
        <Icon className="size-4" />
      </span>
      <div className="min-w-0">
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</p>
        <p className="mt-0.5 font-medium break-words" data-testid={testId}>
          {children}
        </p>
        {detail}
      </div>
    </div>
  );
}

/**
 * When the series does not start on the chosen date (a WORKDAYS reminder set on a Saturday starts
 * on Monday), the instant it first fires; null otherwise. Compared in the reminder's own zone, where
 * `date` was chosen.
 */
export function firstFiringElsewhere(reminder: Pick<Reminder, 'first_occurrence_utc' | 'date' | 'timezone'>): string | null {
  const first = reminder.first_occurrence_utc;
  if (!first || Number.isNaN(Date.parse(first))) return null;
  return wallClock(first, reminder.timezone).date === reminder.date ? null : first;
}

/** View mode: the message and its schedule, in the account's time zone. */
export function ReminderOverview({ reminder, timezone }: { reminder: Reminder; timezone: string }) {
  const { t, i18n } = useTranslation('details');
  const { t: tr } = useTranslation('reminders');
  // The headline is the next firing, as on the dashboard; the chosen date once nothing is left.
  const headline = reminder.next_fire_utc ?? reminder.remind_at_utc;
  const valid = !Number.isNaN(Date.parse(headline));
  const snoozed = reminder.snoozed_at_utc && Date.parse(reminder.snoozed_at_utc) > Date.now() ? reminder.snoozed_at_utc : null;
  const firstFires = firstFiringElsewhere(reminder);
  const repeats = reminder.recurrence_type !== 'ONCE';

  return (
    <Card className="gap-5" data-testid="reminder-overview">
      <CardHeader>
        <h2 className="text-sm leading-tight font-medium tracking-wide text-muted-foreground uppercase">{t('overview.message')}</h2>
      </CardHeader>
      <CardContent className="space-y-5">
        <p className="text-lg leading-relaxed font-medium break-words whitespace-pre-wrap sm:text-xl" data-testid="view-message">
          {reminder.message}
        </p>
        {/* Date and time share a row (the date gets the room a long weekday and month need, one line at 1280 px); the rule in words has the full width. */}
        <div className="grid gap-3 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Fact icon={CalendarDays} label={repeats && reminder.next_fire_utc ? t('overview.nextDate') : t('overview.date')} testId="view-date">
            {valid ? formatLongDate(headline, timezone) : '—'}
          </Fact>
          <Fact icon={Clock} label={t('overview.time')} testId="view-time">
            {valid ? formatTime(headline, timezone) : '—'}
          </Fact>
          <Fact
            icon={Repeat}
            label={t('overview.recurrence')}
            testId="view-recurrence"
            className="sm:col-span-2"
            detail={
              // A preset's label says how often; the sentence says on which day and until when.
              repeats && reminder.recurrence_type !== 'CUSTOM' && reminder.recurrence_text ? (
                <p className="mt-0.5 text-sm break-words text-muted-foreground" data-testid="view-recurrence-text">
                  {reminder.recurrence_text}
                </p>
              ) : null
            }
          >
            {reminder.recurrence_type === 'CUSTOM' ? reminder.recurrence_text : recurrenceLabel(reminder.recurrence_type)}
          </Fact>
        </div>
        {(reminder.alerts ?? []).length > 0 && (
          <p className="flex items-center gap-2 text-sm" data-testid="view-alerts">
            <BellRing className="size-4 shrink-0 text-primary" aria-hidden />
            <span>
              {tr('form.alerts.label')}: {reminder.alerts.map((a) => tr('form.alerts.before', { duration: alertDuration(i18n.language, a.before_minutes) })).join(', ')}
            </span>
          </p>
        )}
        {firstFires && (
          <p className="flex items-center gap-2 text-sm" data-testid="view-first-fires" data-value={firstFires}>
            <CalendarClock className="size-4 shrink-0 text-primary" aria-hidden />
            {/* Same zone as the date above, so the two read together. */}
            <span>{t('overview.firstFires', { date: formatLongDate(firstFires, timezone) })}</span>
          </p>
        )}
        <p className="text-xs text-muted-foreground" data-testid="view-zone" title={timezone}>
          {t('overview.timezone', { zone: timeZoneLabel(timezone) })}
        </p>
        {/* Kept in another zone than the account's: when it fires there, the time it was set for. */}
        {valid && normalizeTimezone(reminder.timezone) !== timezone && (
          <p className="flex items-center gap-2 text-sm" data-testid="view-own-zone" title={reminder.timezone}>
            <Globe className="size-4 shrink-0 text-primary" aria-hidden />
            <span>{t('overview.ownZone', { zone: timeZoneLabel(reminder.timezone), date: formatLongDate(headline, reminder.timezone), time: formatTime(headline, reminder.timezone) })}</span>
          </p>
        )}
        {reminder.status === 'completed' && (
          <Alert variant="info" data-testid="completed-hint">
            <CircleCheck />
            <span>{t('overview.completedHint')}</span>
          </Alert>
        )}
        {reminder.is_paused && (
          <Alert variant="info" data-testid="paused-hint">
            <AlarmClockOff />
            <span>{t('overview.pausedHint')}</span>
          </Alert>
        )}
        {snoozed && !reminder.is_paused && (
          <Alert variant="info" data-testid="snoozed-hint">
            <AlarmClockOff />
            <span>{t('overview.snoozedUntil', { time: formatDateTime(snoozed, timezone) })}</span>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
