import { BellOff, CalendarDays, ChevronRight, Clock, Globe, Repeat } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ReminderStatusBadge } from '@/components/reminder-status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import type { Reminder } from '@/lib/api/reminders';
import { formatDate, formatTime, formatWeekdayTime } from '@/lib/format';
import { zoneCity, zoneTitle } from '@/lib/time-zone-label';
import { normalizeTimezone } from '@/lib/timezones';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { destinationTypesIn, filterReminders, isFiltering, type ListFilter, NO_FILTER } from '../lib/list-filter';
import { listInstant, recurrenceLabel, sortForList } from '../lib/reminder-display';
import { DestinationBadges } from './destination-badges';
import { ReminderListFilters } from './reminder-list-filters';
import { SelectionBar, SelectReminder } from './reminder-list-selection';
import { useReminderSelection } from './use-reminder-selection';

/** From this many reminders on, the list offers its search field and filters. */
const FILTERS_FROM = 4;
/** From this many, several can be chosen at once to pause, resume or delete. */
const SELECT_FROM = 2;

/**
 * The scrollable list of reminders (at most 800 px high, docs/dashboard.md "Dashboard and
 * calendar"), with a search field and filters once it is long; a card opens the details page.
 */
export function ReminderList({ reminders, zone, className }: { reminders: Reminder[]; zone: string; className?: string }) {
  const { t } = useTranslation('dashboard');
  const [filter, setFilter] = useState<ListFilter>(NO_FILTER);
  const filterable = reminders.length >= FILTERS_FROM;
  const filtering = filterable && isFiltering(filter);
  const sorted = sortForList(filtering ? filterReminders(reminders, filter) : reminders);
  const selection = useReminderSelection(reminders);
  return (
    <Card className={cn('gap-0 overflow-hidden py-0', className)} data-testid="reminder-list">
      <CardHeader className="border-b px-4 py-4 sm:px-5">
        <div className="flex items-center justify-between gap-2">
          <CardHeading className="text-lg" id="reminder-list-title">
            {t('list.title')}
          </CardHeading>
          {reminders.length >= SELECT_FROM && (
            <Button size="sm" variant="ghost" onClick={selection.selecting ? selection.stop : selection.start} aria-pressed={selection.selecting} data-testid="select-toggle">
              {selection.selecting ? t('list.doneSelecting') : t('list.select')}
            </Button>
          )}
        </div>
        <CardDescription aria-live="polite" data-testid="reminder-list-count">
          {filtering ? t('list.shown', { shown: sorted.length, count: reminders.length }) : t('list.description', { count: reminders.length })}
        </CardDescription>
        {filterable && <ReminderListFilters className="mt-2" filter={filter} onChange={setFilter} destinationTypes={destinationTypesIn(reminders)} />}
        {selection.selecting && <SelectionBar selection={selection} shown={sorted} />}
      </CardHeader>
      {sorted.length === 0 ? (
        <div className="space-y-2 p-6 text-center text-sm text-muted-foreground" data-testid="reminder-list-no-match">
          <p>{t('list.noMatch')}</p>
          <Button variant="outline" size="sm" onClick={() => setFilter(NO_FILTER)} data-testid="clear-filters">
            {t('list.clearFilters')}
          </Button>
        </div>
      ) : (
        <ul className="max-h-[800px] space-y-2.5 overflow-y-auto p-3 sm:p-4" aria-labelledby="reminder-list-title">
          {sorted.map((reminder) => (
            <li key={reminder.id} className={cn(selection.selecting && 'flex items-start gap-2.5')}>
              {selection.selecting && <SelectReminder selection={selection} reminder={reminder} />}
              <ReminderCard reminder={reminder} zone={zone} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function ReminderCard({ reminder, zone }: { reminder: Reminder; zone: string }) {
  const { t } = useTranslation('dashboard');
  const status = reminderStatus(reminder);
  const at = listInstant(reminder);
  // A reminder kept in another zone than the account's also says when it fires there: that is the
  // time it was set for ("Mon 10:00 AM in Tokyo" beside Sunday 8 PM here).
  const ownZone = normalizeTimezone(reminder.timezone) !== zone;
  // The shown time is the next firing, so a snooze moves it: say so.
  const snoozed = reminder.snoozed_at_utc !== null && reminder.snoozed_at_utc === reminder.next_fire_utc && status === 'active';
  return (
    <Link
      href={`/reminders/${reminder.id}`}
      data-testid="reminder-card"
      data-reminder-id={reminder.id}
      className={cn(
        'group block min-w-0 flex-1 rounded-lg border bg-card p-3.5 transition-all outline-none',
        'hover:border-primary/40 hover:shadow-md hover:shadow-primary/5 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40',
        status === 'completed' && 'bg-muted/30',
      )}
    >
      <div className="flex items-start gap-3">
        <p
          className={cn('line-clamp-2 min-w-0 flex-1 font-medium break-words', status === 'completed' && 'text-muted-foreground')}
          data-testid="reminder-card-message"
        >
          {reminder.message}
        </p>
        <ReminderStatusBadge status={status} />
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
        <span className="inline-flex items-center gap-1.5" data-testid="reminder-card-date">
          <CalendarDays className="size-3.5" aria-hidden />
          {formatDate(at, zone)}
        </span>
        <span className="inline-flex items-center gap-1.5 tabular-nums" data-testid="reminder-card-time">
          <Clock className="size-3.5" aria-hidden />
          {formatTime(at, zone)}
        </span>
        <span className="inline-flex min-w-0 items-center gap-1.5" title={recurrenceLabel(reminder, t)} data-testid="reminder-card-recurrence">
          <Repeat className="size-3.5 shrink-0" aria-hidden />
          <span className="truncate">{recurrenceLabel(reminder, t)}</span>
        </span>
        {ownZone && (
          <span className="inline-flex min-w-0 items-center gap-1.5" title={zoneTitle(reminder.timezone)} data-testid="reminder-card-own-zone">
            <Globe className="size-3.5 shrink-0" aria-hidden />
            <span className="truncate">{t('list.ownZone', { when: formatWeekdayTime(at, reminder.timezone), zone: zoneCity(reminder.timezone) })}</span>
          </span>
        )}
        {snoozed && (
          <span className="inline-flex items-center gap-1.5 font-medium text-amber-700 dark:text-warning" data-testid="reminder-card-snoozed">
            <BellOff className="size-3.5" aria-hidden />
            {t('list.snoozed')}
          </span>
        )}
      </div>
      <div className="mt-3 flex items-center gap-2">
        <div className="flex min-w-0 flex-1 flex-wrap gap-1.5">
          <DestinationBadges destinations={reminder.destinations} />
        </div>
        <ChevronRight className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-primary" aria-hidden />
      </div>
    </Link>
  );
}
