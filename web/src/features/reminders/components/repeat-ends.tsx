import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import type { RepeatEnd } from '../lib/repeat-rule';

/** Ends: never, on a date (through that day), or after N times. */
export function RepeatEnds({ value, onChange, date, disabled, idPrefix }: { value: RepeatEnd; onChange: (next: RepeatEnd) => void; date: string; disabled?: boolean; idPrefix: string }) {
  const { t } = useTranslation('reminders');
  const name = `${idPrefix}-ends`;
  const until = value.kind === 'on' ? value.date : date;
  const count = value.kind === 'after' ? value.count : 10;
  return (
    <fieldset className="space-y-2" disabled={disabled} data-testid="repeat-ends">
      <legend className="text-sm font-medium">{t('customRepeat.ends.title')}</legend>
      <label className="flex min-h-10 items-center gap-2 text-sm">
        <input type="radio" name={name} checked={value.kind === 'never'} onChange={() => onChange({ kind: 'never' })} data-testid="ends-never" />
        {t('customRepeat.ends.never')}
      </label>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label className="flex min-h-10 items-center gap-2">
          <input type="radio" name={name} checked={value.kind === 'on'} onChange={() => onChange({ kind: 'on', date: until })} data-testid="ends-on" />
          {t('customRepeat.ends.on')}
        </label>
        <Input
          type="date"
          className="w-44"
          aria-label={t('customRepeat.ends.onDate')}
          min={date || undefined}
          value={until}
          disabled={value.kind !== 'on'}
          onChange={(e) => onChange({ kind: 'on', date: e.target.value })}
          data-testid="ends-on-date"
        />
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label className="flex min-h-10 items-center gap-2">
          <input type="radio" name={name} checked={value.kind === 'after'} onChange={() => onChange({ kind: 'after', count })} data-testid="ends-after" />
          {t('customRepeat.ends.after')}
        </label>
        <Input
          type="number"
          inputMode="numeric"
          min={1}
          max={100000}
          className="w-24"
          aria-label={t('customRepeat.ends.afterCount')}
          value={String(count)}
          disabled={value.kind !== 'after'}
          onChange={(e) => onChange({ kind: 'after', count: Math.max(1, Math.floor(Number(e.target.value) || 1)) })}
          data-testid="ends-after-count"
        />
        <span>{t('customRepeat.ends.times', { count })}</span>
      </div>
    </fieldset>
  );
}
