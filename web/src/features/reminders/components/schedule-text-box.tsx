import { Sparkles } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { readScheduleText } from '@/lib/api/reminders';
import { formatLongDateTime } from '@/lib/format';
import { repeatFromReminder } from '../lib/repeat-rule';
import type { ReminderFormState } from './reminder-form-fields';

type ReadState = { status: 'idle' } | { status: 'reading' } | { status: 'read'; text: string } | { status: 'failed'; message: string };

/**
 * "Or type when": a schedule in words, read by the server the way /remind reads it, fills the
 * date, time and repetition fields below; what it was read as is said here, and the fields stay
 * editable (docs/dashboard.md "Creating a reminder").
 */
export function ScheduleTextBox({ value, onChange, idPrefix }: { value: ReminderFormState; onChange: (next: ReminderFormState) => void; idPrefix: string }) {
  const { t } = useTranslation('reminders');
  const [text, setText] = useState('');
  const [state, setState] = useState<ReadState>({ status: 'idle' });
  const id = `${idPrefix}-schedule-text`;

  async function read(event: FormEvent) {
    event.preventDefault();
    if (!text.trim() || state.status === 'reading') return;
    setState({ status: 'reading' });
    try {
      const schedule = await readScheduleText(text.trim());
      const repeat = repeatFromReminder({ recurrence_type: schedule.recurrence, rrule: schedule.rrule, date: schedule.date });
      onChange({ ...value, date: schedule.date, time: schedule.time, recurrence: repeat.preset, custom: repeat.custom, end: repeat.end, raw: repeat.raw });
      setState({ status: 'read', text: t('wizard.typed.readAs', { repetition: schedule.recurrence_text, first: formatLongDateTime(schedule.first_occurrence_utc, schedule.timezone) }) });
    } catch (err) {
      setState({ status: 'failed', message: errorMessage(err) });
    }
  }

  return (
    <form className="space-y-2" onSubmit={(e) => void read(e)} data-testid="schedule-text">
      <Label htmlFor={id}>{t('wizard.typed.label')}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          value={text}
          maxLength={200}
          autoComplete="off"
          placeholder={t('wizard.typed.placeholder')}
          aria-describedby={`${id}-result`}
          onChange={(e) => {
            setText(e.target.value);
            if (state.status !== 'reading') setState({ status: 'idle' });
          }}
          data-testid="schedule-text-input"
        />
        <Button type="submit" variant="outline" disabled={!text.trim() || state.status === 'reading'} data-testid="schedule-text-read">
          {state.status === 'reading' ? <Spinner className="size-3.5" /> : <Sparkles />}
          {state.status === 'reading' ? t('wizard.typed.reading') : t('wizard.typed.read')}
        </Button>
      </div>
      <p id={`${id}-result`} aria-live="polite" className={state.status === 'failed' ? 'text-xs font-medium text-destructive' : 'text-xs text-muted-foreground'} data-testid="schedule-text-result" data-status={state.status}>
        {state.status === 'read' ? state.text : state.status === 'failed' ? state.message : t('wizard.typed.help')}
      </p>
    </form>
  );
}
