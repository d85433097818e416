import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { weekdayNames } from '@/lib/format';
import { cn } from '@/lib/utils';
import { type CustomRepeat, FREQS, type Freq, MIN_MINUTES, monthPosition, type MonthlyMode, WEEKDAYS, type Weekday } from '../lib/repeat-rule';

const selectClass =
  'h-10 rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:opacity-50 dark:bg-input/20';

/** "Every N [minutes/hours/days/weeks/months/years]", the weekdays of a weekly rule, the day of a monthly one. */
export function CustomRepeatEditor({ value, onChange, date, disabled, idPrefix }: { value: CustomRepeat; onChange: (next: CustomRepeat) => void; date: string; disabled?: boolean; idPrefix: string }) {
  const { t } = useTranslation('reminders');
  const set = (patch: Partial<CustomRepeat>) => onChange({ ...value, ...patch });
  // Set when an interval below the minimum was raised to it: the editor says so (issue 27 #10).
  const [corrected, setCorrected] = useState(false);
  // Monday first, as the weekday toggles read.
  const names = weekdayNames('short');
  const longNames = weekdayNames('long');
  const position = monthPosition(date);
  const weekdayName = longNames[WEEKDAYS.indexOf(position.weekday)] ?? '';
  const monthlyOptions: { mode: MonthlyMode; label: string }[] = [
    { mode: 'day', label: t('customRepeat.monthly.day', { day: position.day }) },
    ...(position.lastDay ? [{ mode: 'last-day' as const, label: t('customRepeat.monthly.lastDay') }] : []),
    ...(position.nth <= 4 ? [{ mode: 'nth-weekday' as const, label: t(`customRepeat.monthly.nth.${position.nth}`, { weekday: weekdayName }) }] : []),
    ...(position.lastWeekday ? [{ mode: 'last-weekday' as const, label: t('customRepeat.monthly.lastWeekday', { weekday: weekdayName }) }] : []),
  ];
  const min = value.freq === 'MINUTELY' ? MIN_MINUTES : 1;
  const belowMin = value.interval < min;
  const minimumId = `${idPrefix}-interval-minimum`;
  const showMinimum = belowMin || corrected;

  return (
    <div className="space-y-4 rounded-lg border bg-muted/30 p-4" data-testid="custom-repeat-editor">
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor={`${idPrefix}-interval`}>{t('customRepeat.every')}</Label>
        <Input
          id={`${idPrefix}-interval`}
          type="number"
          inputMode="numeric"
          min={min}
          max={1000}
          className="w-24"
          disabled={disabled}
          value={String(value.interval)}
          onChange={(e) => {
            setCorrected(false);
            set({ interval: Math.min(1000, Math.max(0, Math.floor(Number(e.target.value) || 0))) });
          }}
          onBlur={() => {
            if (!belowMin) return;
            setCorrected(true);
            set({ interval: min });
          }}
          aria-invalid={belowMin ? true : undefined}
          aria-describedby={showMinimum ? minimumId : undefined}
          data-testid="custom-interval"
        />
        <select
          aria-label={t('customRepeat.unit')}
          className={selectClass}
          disabled={disabled}
          value={value.freq}
          onChange={(e) => {
            const freq = e.target.value as Freq;
            const raised = freq === 'MINUTELY' && value.interval < MIN_MINUTES;
            setCorrected(raised);
            set({ freq, interval: raised ? MIN_MINUTES : value.interval });
          }}
          data-testid="custom-freq"
        >
          {FREQS.map((f) => (
            <option key={f} value={f}>
              {t(`customRepeat.units.${f}`, { count: value.interval })}
            </option>
          ))}
        </select>
        {showMinimum && (
          <p id={minimumId} role="status" className={cn('basis-full text-sm', belowMin ? 'text-destructive' : 'text-muted-foreground')} data-testid="custom-interval-minimum">
            {t(corrected && !belowMin ? 'customRepeat.minimumSet' : 'customRepeat.minimum', { count: min, unit: t(`customRepeat.units.${value.freq}`, { count: min }) })}
          </p>
        )}
      </div>

      {value.freq === 'WEEKLY' && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">{t('customRepeat.on')}</legend>
          <div className="flex flex-wrap gap-1.5">
            {WEEKDAYS.map((day: Weekday, i) => {
              const on = value.weekdays.includes(day);
              return (
                <button
                  key={day}
                  type="button"
                  aria-pressed={on}
                  aria-label={longNames[i]}
                  disabled={disabled}
                  onClick={() => set({ weekdays: on ? value.weekdays.filter((d) => d !== day) : [...value.weekdays, day] })}
                  className={cn(
                    'size-10 rounded-full border text-xs font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                    on ? 'border-primary bg-primary text-primary-foreground' : 'bg-background hover:bg-accent',
                  )}
                  data-testid={`custom-weekday-${day}`}
                >
                  {names[i]}
                </button>
              );
            })}
          </div>
        </fieldset>
      )}

      {value.freq === 'MONTHLY' && (
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor={`${idPrefix}-monthly`}>{t('customRepeat.on')}</Label>
          <select id={`${idPrefix}-monthly`} className={selectClass} disabled={disabled} value={value.monthly} onChange={(e) => set({ monthly: e.target.value as MonthlyMode })} data-testid="custom-monthly">
            {monthlyOptions.map((o) => (
              <option key={o.mode} value={o.mode}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
