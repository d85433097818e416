import { Briefcase, CalendarClock, CalendarCog, CalendarDays, CalendarRange, Clock, Repeat, Sofa, Sun } from 'lucide-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { Recurrence } from '@/lib/api/reminders';
import { cn } from '@/lib/utils';

/** Display order: from the rarest to the most frequent, the two weekday filters last. */
type Choice = Recurrence | 'CUSTOM';

const OPTIONS: { value: Choice; icon: ComponentType<{ className?: string }>; hint: string }[] = [
  { value: 'ONCE', icon: CalendarClock, hint: 'form.recurrenceHint.once' },
  { value: 'YEARLY', icon: CalendarRange, hint: 'form.recurrenceHint.yearly' },
  { value: 'MONTHLY', icon: CalendarDays, hint: 'form.recurrenceHint.monthly' },
  { value: 'WEEKLY', icon: Repeat, hint: 'form.recurrenceHint.weekly' },
  { value: 'DAILY', icon: Sun, hint: 'form.recurrenceHint.daily' },
  { value: 'HOURLY', icon: Clock, hint: 'form.recurrenceHint.hourly' },
  { value: 'WORKDAYS', icon: Briefcase, hint: 'form.recurrenceHint.workdays' },
  { value: 'WEEKEND', icon: Sofa, hint: 'form.recurrenceHint.weekend' },
  { value: 'CUSTOM', icon: CalendarCog, hint: 'form.recurrenceHint.custom' },
];

/** The 8 presets and "Custom..." (toggle buttons: exactly one is pressed). */
export function RecurrencePicker({
  value,
  onChange,
  disabled,
  idPrefix = 'reminder',
}: {
  value: Choice;
  onChange: (next: Choice) => void;
  disabled?: boolean;
  idPrefix?: string;
}) {
  const { t } = useTranslation('reminders');
  const labelId = `${idPrefix}-recurrence-label`;
  return (
    <fieldset className="space-y-2" aria-labelledby={labelId} disabled={disabled}>
      <legend id={labelId} className="text-sm leading-none font-medium">
        {t('form.recurrence')}
      </legend>
      <div className="grid grid-cols-2 gap-2 pt-2 sm:grid-cols-3" data-testid="recurrence-options">
        {OPTIONS.map(({ value: option, icon: Icon, hint }) => {
          const selected = option === value;
          return (
            <button
              key={option}
              type="button"
              aria-pressed={selected}
              title={t(hint)}
              onClick={() => onChange(option)}
              data-testid={`recurrence-${option}`}
              className={cn(
                'group flex min-h-11 items-center gap-2 rounded-lg border px-3 py-2 text-left text-sm font-medium transition-colors outline-none',
                // Ninth of nine: alone on its row in two columns, so it takes the row, and a long
                // label ("Personalizada…") stays on one line instead of breaking inside the word.
                option === 'CUSTOM' && 'col-span-2 sm:col-span-1',
                'focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50',
                selected
                  ? 'border-primary bg-primary/10 text-foreground shadow-sm ring-1 ring-primary dark:bg-primary/20'
                  : 'bg-background hover:border-primary/40 hover:bg-accent dark:bg-input/20',
              )}
            >
              <Icon className={cn('size-4 shrink-0', selected ? 'text-primary' : 'text-muted-foreground group-hover:text-foreground')} />
              <span className="min-w-0 leading-tight break-words">{t(`recurrence.${option}`)}</span>
            </button>
          );
        })}
      </div>
      <p className="text-xs text-muted-foreground" data-testid="recurrence-hint">
        {t(OPTIONS.find((o) => o.value === value)?.hint ?? 'form.recurrenceHint.once')}
      </p>
    </fieldset>
  );
}
