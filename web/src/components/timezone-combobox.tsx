import { Check, ChevronsUpDown, Globe, Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeZoneName } from '@/components/time-zone-name';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { filterTimezones, TIMEZONES } from '@/lib/timezones';
import { cn } from '@/lib/utils';

export interface TimezoneComboboxProps {
  value: string;
  onChange: (zone: string) => void;
  /** Choices; defaults to every zone, sorted as they read. */
  timezones?: readonly string[];
  id?: string;
  disabled?: boolean;
  className?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** Searchable timezone picker: case-insensitive substring, with a no-results text. */
export function TimezoneCombobox({ value, onChange, timezones = TIMEZONES, id, disabled, className, ...rest }: TimezoneComboboxProps) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const results = useMemo(() => filterTimezones(timezones, query), [timezones, query]);

  useEffect(() => {
    if (open) {
      setQuery('');
      setActive(Math.max(0, timezones.indexOf(value)));
    }
  }, [open, timezones, value]);

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);

  function choose(zone: string) {
    onChange(zone);
    setOpen(false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => Math.min(i + 1, results.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const zone = results[active];
      if (zone) choose(zone);
    }
  }

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <button
          type="button"
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-invalid={rest['aria-invalid']}
          aria-describedby={rest['aria-describedby']}
          disabled={disabled}
          data-testid="timezone-combobox"
          className={cn(
            'flex h-10 w-full items-center gap-2 rounded-md border border-input bg-background px-3 text-left text-sm shadow-xs outline-none dark:bg-input/20',
            'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50',
            className,
          )}
        >
          <Globe className="size-4 shrink-0 text-muted-foreground" />
          {value ? <TimeZoneName zone={value} className="flex-1 truncate" /> : <span className="flex-1 truncate">{t('timezone.placeholder')}</span>}
          <ChevronsUpDown className="size-4 shrink-0 opacity-50" />
        </button>
      </PopoverTrigger>
      <PopoverContent className="w-(--radix-popover-trigger-width) min-w-64 p-0" align="start">
        <div className="flex items-center gap-2 border-b px-3">
          <Search className="size-4 shrink-0 text-muted-foreground" />
          <input
            autoFocus
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            placeholder={t('timezone.search')}
            aria-label={t('timezone.search')}
            aria-controls={listId}
            aria-activedescendant={results[active] ? `${listId}-${active}` : undefined}
            className="h-10 w-full bg-transparent text-sm outline-none placeholder:text-muted-foreground"
            data-testid="timezone-search"
          />
        </div>
        <ul ref={listRef} id={listId} role="listbox" className="max-h-64 overflow-y-auto p-1">
          {results.length === 0 ? (
            <li className="px-2 py-6 text-center text-sm text-muted-foreground" data-testid="timezone-no-results">
              {t('timezone.noResults')}
            </li>
          ) : (
            results.map((zone, index) => (
              <li
                key={zone}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={zone === value}
                data-index={index}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(zone)}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm',
                  index === active && 'bg-accent text-accent-foreground',
                )}
              >
                <Check className={cn('size-4 text-primary', zone === value ? 'opacity-100' : 'opacity-0')} />
                <TimeZoneName zone={zone} className="flex-1 truncate" />
              </li>
            ))
          )}
        </ul>
      </PopoverContent>
    </Popover>
  );
}
