import { CalendarDays, Clock, Globe } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimezoneCombobox } from '@/components/timezone-combobox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { RECURRENCES, type Recurrence } from '@/lib/api/reminders';
import { wallClock } from '@/lib/format';
import { timeZoneLabel } from '@/lib/time-zone-label';
import { cn } from '@/lib/utils';
import { defaultCustom, type CustomRepeat, type Repeat, type RepeatEnd, repetitionPayload } from '../lib/repeat-rule';
import { CustomRepeatEditor } from './custom-repeat-editor';
import { RecurrencePicker } from './recurrence-picker';
import { RepeatEnds } from './repeat-ends';
import { RepeatPreview } from './repeat-preview';
import { AlertsPicker } from './alerts-picker';

/** Date may be empty; date and time are wall clock in the form's zone (docs/dashboard.md "Forms"). */
export interface ReminderFormState {
  date: string;
  time: string;
  message: string;
  /** The preset chosen (ignored while `custom` or `raw` is set). */
  recurrence: Recurrence;
  /** The custom editor's rule ("Custom..."). */
  custom: CustomRepeat | null;
  /** When a repeating reminder ends (a preset with an end is sent as its equivalent rule). */
  end: RepeatEnd;
  /** A stored rule the editor cannot show, kept untouched. */
  raw: string | null;
  /** Alerts before the reminder, in minutes, largest first (absent: none). */
  alerts?: number[];
}

/** The alerts as the API takes them. */
export const formAlerts = (f: ReminderFormState) => ({ alerts: (f.alerts ?? []).map((m) => ({ before_minutes: m })) });

export const formRepeat = (f: ReminderFormState): Repeat => ({ preset: f.recurrence, custom: f.custom, end: f.end, raw: f.raw });

/** recurrence + rrule for the API. */
export const formRepetition = (f: ReminderFormState) => repetitionPayload(formRepeat(f), f.date);

/** The server refuses longer messages (Discord's own limit for a message body). */
export const MESSAGE_MAX_LENGTH = 2000;

export type ReminderFormErrors = Partial<Record<'date' | 'message', string>>;

/** Locale keys (namespace reminders) of what is missing; empty when the form can be submitted. */
export function reminderFormErrors(state: ReminderFormState): ReminderFormErrors {
  const errors: ReminderFormErrors = {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(state.date)) errors.date = 'form.errors.dateRequired';
  if (!state.message.trim()) errors.message = 'form.errors.messageRequired';
  else if (state.message.length > MESSAGE_MAX_LENGTH) errors.message = 'form.errors.messageTooLong';
  return errors;
}

export function isReminderFormValid(state: ReminderFormState): boolean {
  return Object.keys(reminderFormErrors(state)).length === 0;
}

export function normalizeRecurrence(value: string | null | undefined): Recurrence {
  const upper = (value ?? '').toUpperCase();
  return (RECURRENCES as readonly string[]).includes(upper) ? (upper as Recurrence) : 'ONCE';
}

/** Current wall-clock time (HH:MM) in a zone, or in the browser's zone when none is given. */
export function currentTime(timeZone?: string): string {
  if (timeZone) return wallClock(Date.now(), timeZone).time;
  const now = new Date();
  return `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
}

/**
 * Whether a date and time (wall clock in `timeZone`, the browser's when none) are before the
 * current minute; re-checked every 15 s while `enabled`, so a time that passes gets flagged.
 */
function usePastWallClock(enabled: boolean, date: string, time: string, timeZone?: string): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [enabled]);
  if (!enabled || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return false;
  const clock = timeZone ? wallClock(now, timeZone) : localClock(now);
  return `${date}T${time}` < `${clock.date}T${clock.time}`;
}

function localClock(now: number): { date: string; time: string } {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, time: `${pad(d.getHours())}:${pad(d.getMinutes())}` };
}

export interface ReminderFormFieldsProps {
  value: ReminderFormState;
  onChange: (next: ReminderFormState) => void;
  /** Account zone (IANA), shown next to the time: the server reads date and time in it. */
  timezone?: string;
  /**
   * A zone the user picks instead (the details page: a reminder keeps its own zone). Replaces the
   * account-zone hint with a time zone field below the date and time.
   */
  zonePicker?: { value: string; onChange: (zone: string) => void; timezones?: readonly string[] };
  /** Say under the time when a one-time reminder's date and time are already past (the wizard). */
  flagPast?: boolean;
  disabled?: boolean;
  /** Show every validation message now (otherwise each shows once its field was left). */
  showErrors?: boolean;
  /** Prefix for element ids, so two forms can live on one page. */
  idPrefix?: string;
  className?: string;
  /** The stored rule in words (the API's recurrence_text), shown for a rule the editor cannot open. */
  rawSummary?: string;
}

/** Date, time, message (with counter) and the 8 recurrence buttons. Shared by the wizard and the details page. */
export function ReminderFormFields({ value, onChange, timezone, zonePicker, disabled, showErrors, idPrefix = 'reminder', className, rawSummary, flagPast }: ReminderFormFieldsProps) {
  const { t } = useTranslation('reminders');
  const inPast = usePastWallClock(Boolean(flagPast) && value.recurrence === 'ONCE' && !value.custom, value.date, value.time, zonePicker?.value ?? timezone);
  const [touched, setTouched] = useState<{ date?: boolean; message?: boolean }>({});
  const errors = reminderFormErrors(value);
  const dateError = (showErrors || touched.date) && errors.date ? t(errors.date) : null;
  const messageError = (showErrors || touched.message) && errors.message ? t(errors.message) : null;
  const ids = {
    date: `${idPrefix}-date`,
    time: `${idPrefix}-time`,
    message: `${idPrefix}-message`,
    zone: `${idPrefix}-zone`,
    zonePicker: `${idPrefix}-timezone`,
    zonePickerHint: `${idPrefix}-timezone-hint`,
    counter: `${idPrefix}-message-counter`,
    past: `${idPrefix}-in-past`,
  };
  const set = <K extends keyof ReminderFormState>(key: K, v: ReminderFormState[K]) => onChange({ ...value, [key]: v });
  const length = value.message.length;
  const nearLimit = length > MESSAGE_MAX_LENGTH * 0.9;

  return (
    <div className={cn('space-y-6', className)}>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={ids.date}>
            <CalendarDays className="size-4 text-muted-foreground" aria-hidden />
            {t('form.date')}
            <span className="text-destructive" aria-hidden>
              *
            </span>
          </Label>
          <Input
            id={ids.date}
            type="date"
            required
            disabled={disabled}
            value={value.date}
            onChange={(e) => set('date', e.target.value)}
            onBlur={() => setTouched((s) => ({ ...s, date: true }))}
            aria-invalid={dateError ? true : undefined}
            aria-describedby={dateError ? `${ids.date}-error` : undefined}
            data-testid="reminder-date"
          />
          {dateError && (
            <p id={`${ids.date}-error`} className="text-sm text-destructive" data-testid="reminder-date-error">
              {dateError}
            </p>
          )}
        </div>
        <div className="space-y-2">
          <Label htmlFor={ids.time}>
            <Clock className="size-4 text-muted-foreground" aria-hidden />
            {t('form.time')}
          </Label>
          <Input
            id={ids.time}
            type="time"
            required
            disabled={disabled}
            value={value.time}
            onChange={(e) => set('time', e.target.value)}
            aria-invalid={inPast ? true : undefined}
            aria-describedby={[inPast ? ids.past : null, zonePicker ? ids.zonePickerHint : timezone ? ids.zone : null].filter(Boolean).join(' ') || undefined}
            data-testid="reminder-time"
          />
          {inPast && (
            <p id={ids.past} className="text-sm text-destructive" role="status" data-testid="reminder-in-past">
              {t('form.inPast')}
            </p>
          )}
          {timezone && !zonePicker && (
            <p id={ids.zone} className="flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="reminder-timezone">
              <Globe className="size-3.5 shrink-0" aria-hidden />
              <span>{t('form.timezoneHint', { zone: timeZoneLabel(timezone) })}</span>
            </p>
          )}
        </div>
        {zonePicker && (
          <div className="space-y-2 sm:col-span-2">
            <Label htmlFor={ids.zonePicker}>
              <Globe className="size-4 text-muted-foreground" aria-hidden />
              {t('form.timezone')}
            </Label>
            <TimezoneCombobox
              id={ids.zonePicker}
              value={zonePicker.value}
              onChange={zonePicker.onChange}
              timezones={zonePicker.timezones}
              disabled={disabled}
              aria-describedby={ids.zonePickerHint}
            />
            <p id={ids.zonePickerHint} className="text-xs text-muted-foreground" data-testid="reminder-timezone-hint">
              {t('form.timezonePickerHint')}
            </p>
          </div>
        )}
      </div>

      <div className="space-y-2">
        <div className="flex items-end justify-between gap-2">
          <Label htmlFor={ids.message}>
            {t('form.message')}
            <span className="text-destructive" aria-hidden>
              *
            </span>
          </Label>
          <span
            id={ids.counter}
            className={cn('text-xs tabular-nums text-muted-foreground', nearLimit && 'font-medium text-amber-600 dark:text-warning', length >= MESSAGE_MAX_LENGTH && 'text-destructive dark:text-destructive')}
            data-testid="reminder-message-counter"
          >
            {t('form.characterCount', { length, max: MESSAGE_MAX_LENGTH })}
          </span>
        </div>
        <Textarea
          id={ids.message}
          required
          rows={5}
          maxLength={MESSAGE_MAX_LENGTH}
          disabled={disabled}
          value={value.message}
          placeholder={t('form.messagePlaceholder')}
          onChange={(e) => set('message', e.target.value)}
          onBlur={() => setTouched((s) => ({ ...s, message: true }))}
          aria-invalid={messageError ? true : undefined}
          aria-describedby={[ids.counter, messageError ? `${ids.message}-error` : ''].filter(Boolean).join(' ')}
          className="min-h-32 resize-y"
          data-testid="reminder-message"
        />
        {messageError && (
          <p id={`${ids.message}-error`} className="text-sm text-destructive" data-testid="reminder-message-error">
            {messageError}
          </p>
        )}
      </div>

      <RecurrencePicker
        value={value.custom || value.raw ? 'CUSTOM' : value.recurrence}
        onChange={(r) =>
          r === 'CUSTOM'
            ? onChange({ ...value, custom: value.custom ?? defaultCustom(value.date), raw: null })
            : onChange({ ...value, recurrence: r, custom: null, raw: null, end: r === 'ONCE' ? { kind: 'never' } : value.end })
        }
        disabled={disabled}
        idPrefix={idPrefix}
      />
      {value.raw && (
        <div className="space-y-1 rounded-lg border bg-muted/30 p-3 text-sm" data-testid="repeat-raw">
          <p className="font-medium break-words" data-testid="repeat-raw-summary">
            {t('customRepeat.raw', { rule: rawSummary || value.raw })}
          </p>
          <p className="text-xs text-muted-foreground">{t('customRepeat.rawHint')}</p>
          <code className="block font-mono text-xs break-all text-muted-foreground" data-testid="repeat-raw-rule">
            {value.raw}
          </code>
        </div>
      )}
      {value.custom && <CustomRepeatEditor value={value.custom} onChange={(custom) => set('custom', custom)} date={value.date} disabled={disabled} idPrefix={`${idPrefix}-custom`} />}
      {!value.raw && (value.custom || value.recurrence !== 'ONCE') && (
        <RepeatEnds value={value.end} onChange={(end) => set('end', end)} date={value.date} disabled={disabled} idPrefix={`${idPrefix}-repeat`} />
      )}
      {(value.custom || value.raw || value.recurrence !== 'ONCE') && (
        <RepeatPreview date={value.date} time={value.time} timezone={zonePicker?.value ?? timezone} {...formRepetition(value)} hideSummary={Boolean(value.raw && rawSummary)} />
      )}
      <AlertsPicker value={value.alerts ?? []} onChange={(alerts) => set('alerts', alerts)} disabled={disabled} idPrefix={idPrefix} />
    </div>
  );
}
