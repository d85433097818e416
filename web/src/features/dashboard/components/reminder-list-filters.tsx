import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import type { DestinationType } from '@/lib/api/reminders';
import { STATUS_LABEL_KEYS } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { type ListFilter, REPEAT_FILTERS } from '../lib/list-filter';
import { DESTINATION_LABEL_KEYS } from './destination-badges';

const REPEAT_LABEL_KEYS = { all: 'list.repeat.all', repeating: 'list.repeat.repeating', once: 'list.repeat.once' } as const satisfies Record<ListFilter['repeat'], string>;

const SELECT =
  'h-9 w-full min-w-0 truncate rounded-md border border-input bg-background px-2 text-sm outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 dark:bg-input/20';

/** The search field and the three filters above the reminder list. */
export function ReminderListFilters({ filter, onChange, destinationTypes, className }: { filter: ListFilter; onChange: (filter: ListFilter) => void; destinationTypes: DestinationType[]; className?: string }) {
  const { t } = useTranslation('dashboard');
  const set = <K extends keyof ListFilter>(key: K, value: ListFilter[K]) => onChange({ ...filter, [key]: value });
  return (
    <div className={cn('space-y-2', className)} role="search" data-testid="reminder-filters">
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input type="search" className="h-9 pl-9" value={filter.text} onChange={(e) => set('text', e.target.value)} placeholder={t('list.searchPlaceholder')} aria-label={t('list.search')} data-testid="reminder-search" />
      </div>
      {/* Two to a row in the side column: three cut "All statuses" short at desktop widths. */}
      <div className="grid grid-cols-[repeat(auto-fit,minmax(8.5rem,1fr))] gap-2">
        <select className={SELECT} value={filter.status} onChange={(e) => set('status', e.target.value as ListFilter['status'])} aria-label={t('list.filterStatus')} data-testid="filter-status">
          <option value="all">{t('list.allStatuses')}</option>
          <option value="open">{t('list.notCompleted')}</option>
          <option value="active">{t(STATUS_LABEL_KEYS.active)}</option>
          <option value="paused">{t(STATUS_LABEL_KEYS.paused)}</option>
          <option value="completed">{t(STATUS_LABEL_KEYS.completed)}</option>
        </select>
        <select className={SELECT} value={filter.destination} onChange={(e) => set('destination', e.target.value as ListFilter['destination'])} aria-label={t('list.filterDestination')} data-testid="filter-destination">
          <option value="all">{t('list.allDestinations')}</option>
          {destinationTypes.map((type) => (
            <option key={type} value={type}>
              {t(DESTINATION_LABEL_KEYS[type])}
            </option>
          ))}
          <option value="none">{t('destinations.none')}</option>
        </select>
        <select className={SELECT} value={filter.repeat} onChange={(e) => set('repeat', e.target.value as ListFilter['repeat'])} aria-label={t('list.filterRepeat')} data-testid="filter-repeat">
          {REPEAT_FILTERS.map((value) => (
            <option key={value} value={value}>
              {t(REPEAT_LABEL_KEYS[value])}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
