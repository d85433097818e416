import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/utils';
import { capitalize, type YearMonth } from './calendar-dates';

interface MonthPickerProps {
  shown: YearMonth;
  today: YearMonth;
  onPick: (month: YearMonth) => void;
  /** The month title button (the popover trigger). */
  children: ReactNode;
}

/** Month title that opens a year + 12 months picker (docs/dashboard.md "Dashboard and calendar"). */
export function MonthPicker({ shown, today, onPick, children }: MonthPickerProps) {
  const { t, i18n } = useTranslation('calendar');
  const [open, setOpen] = useState(false);
  const [year, setYear] = useState(shown.year);
  const language = i18n.language;
  const monthFormat = new Intl.DateTimeFormat(language, { month: 'short', timeZone: 'UTC' });
  const monthLong = new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' });

  function pick(month: YearMonth) {
    onPick(month);
    setOpen(false);
  }

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        if (next) setYear(shown.year);
        setOpen(next);
      }}
    >
      <PopoverTrigger asChild>{children}</PopoverTrigger>
      <PopoverContent align="start" className="w-72 p-3" data-testid="month-picker" aria-label={t('picker.label')}>
        <div className="mb-3 flex items-center justify-between">
          <Button variant="ghost" size="icon-sm" onClick={() => setYear((y) => y - 1)} aria-label={t('picker.previousYear')} data-testid="picker-prev-year">
            <ChevronLeft />
          </Button>
          <span className="text-sm font-semibold tabular-nums" data-testid="picker-year" aria-live="polite">
            {year}
          </span>
          <Button variant="ghost" size="icon-sm" onClick={() => setYear((y) => y + 1)} aria-label={t('picker.nextYear')} data-testid="picker-next-year">
            <ChevronRight />
          </Button>
        </div>
        <div className="grid grid-cols-3 gap-1.5">
          {Array.from({ length: 12 }, (_, month) => {
            const selected = shown.year === year && shown.month === month;
            const current = today.year === year && today.month === month;
            const at = Date.UTC(year, month, 1);
            return (
              <Button
                key={month}
                variant={selected ? 'default' : 'ghost'}
                size="sm"
                className={cn('h-9 font-normal', current && !selected && 'font-semibold text-primary ring-1 ring-primary/40')}
                aria-pressed={selected}
                aria-label={capitalize(monthLong.format(at), language)}
                onClick={() => pick({ year, month })}
                data-testid="picker-month"
              >
                {capitalize(monthFormat.format(at).replace(/\.$/, ''), language)}
              </Button>
            );
          })}
        </div>
        <div className="mt-3 flex justify-between gap-2 border-t pt-3">
          <Button variant="outline" size="sm" onClick={() => pick(today)} data-testid="picker-today">
            {t('today')}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setOpen(false)} data-testid="picker-close">
            {t('picker.close')}
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
