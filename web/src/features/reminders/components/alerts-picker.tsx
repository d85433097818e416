import { BellRing } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

/** Alerts before the reminder (docs/time.md "Alerts before"): at most this many. */
export const MAX_ALERTS = 3;
/** The choices offered, in minutes: 5, 15 and 30 minutes, 1 hour, 1 day. */
export const ALERT_PRESETS = [5, 15, 30, 60, 1440] as const;

/** "15 minutes", "1 hour", "1 day" in the page's language. */
export function alertDuration(language: string, minutes: number): string {
  const [value, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/** Toggle buttons: each preset, and any other alert the reminder already has (kept as it is). Largest first. */
export function AlertsPicker({ value, onChange, disabled, idPrefix = 'reminder' }: { value: readonly number[]; onChange: (next: number[]) => void; disabled?: boolean; idPrefix?: string }) {
  const { t, i18n } = useTranslation('reminders');
  const labelId = `${idPrefix}-alerts-label`;
  const choices = [...new Set([...ALERT_PRESETS, ...value])].sort((a, b) => a - b);
  const full = value.length >= MAX_ALERTS;
  const toggle = (m: number) => onChange((value.includes(m) ? value.filter((v) => v !== m) : [...value, m]).sort((a, b) => b - a));
  return (
    <fieldset className="space-y-2" aria-labelledby={labelId} disabled={disabled} data-testid={`${idPrefix}-alerts`}>
      <legend id={labelId} className="flex items-center gap-2 text-sm leading-none font-medium">
        <BellRing className="size-4 text-muted-foreground" aria-hidden />
        {t('form.alerts.label')}
      </legend>
      <p className="text-xs text-muted-foreground">{t('form.alerts.hint', { max: MAX_ALERTS })}</p>
      <div className="flex flex-wrap gap-2">
        {choices.map((m) => {
          const pressed = value.includes(m);
          return (
            <button
              key={m}
              type="button"
              aria-pressed={pressed}
              disabled={disabled || (full && !pressed)}
              onClick={() => toggle(m)}
              data-testid={`${idPrefix}-alert-${m}`}
              className={cn(
                'rounded-full border px-3 py-1 text-sm transition-colors disabled:opacity-50',
                pressed ? 'border-primary bg-primary text-primary-foreground' : 'bg-background hover:bg-muted',
              )}
            >
              {t('form.alerts.before', { duration: alertDuration(i18n.language, m) })}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
