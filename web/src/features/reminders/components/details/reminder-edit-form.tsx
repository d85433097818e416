import { Save, X } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { Separator } from '@/components/ui/separator';
import type { Reminder, ReminderPayload } from '@/lib/api/reminders';
import { wallClock } from '@/lib/format';
import { timezonesWith } from '@/lib/timezones';
import { type EditableDestination, toDestinationInputs } from '../../api/destinations';
import { DestinationsEditor } from '../destinations-editor';
import { useDestinationChecks } from '../use-destination-checks';
import { repeatFromReminder } from '../../lib/repeat-rule';
import { formAlerts, formRepetition, isReminderFormValid, normalizeRecurrence, ReminderFormFields, type ReminderFormState } from '../reminder-form-fields';
import { Spinner } from '@/components/ui/spinner';

/** The edit form falls back to ONCE and 10:00 when the stored reminder lacks them (docs/dashboard.md "Forms"). */
export const EDIT_DEFAULT_TIME = '10:00';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2})?$/;

/**
 * The form state of a stored reminder: its own zone, and the date and time it was given in that
 * zone (what the API answers in `date`/`time`, not read back from an instant). A reminder made in
 * Paris from a UTC account edits as Paris wall clock, and saving keeps it in Paris.
 */
/** The repetition fields of the form: a preset, or the custom editor opened on the stored rule. */
function formRepeatOf(reminder: Reminder): Pick<ReminderFormState, 'recurrence' | 'custom' | 'end' | 'raw'> {
  const repeat = repeatFromReminder({ recurrence_type: reminder.recurrence_type, rrule: reminder.rrule ?? null, date: reminder.date });
  const preset = reminder.recurrence_type === 'CUSTOM' ? repeat.preset : normalizeRecurrence(reminder.recurrence_type);
  return { recurrence: preset, custom: repeat.custom, end: repeat.end, raw: repeat.raw };
}

export function formFromReminder(
  reminder: Reminder,
  fallbackZone: string,
): { form: ReminderFormState; zone: string; destinations: EditableDestination[] } {
  const zone = reminder.timezone || fallbackZone;
  const valid = reminder.remind_at_utc && !Number.isNaN(Date.parse(reminder.remind_at_utc));
  const clock = valid ? wallClock(reminder.remind_at_utc, zone) : { date: '', time: EDIT_DEFAULT_TIME };
  return {
    form: {
      date: DATE.test(reminder.date ?? '') ? reminder.date : clock.date,
      time: TIME.test(reminder.time ?? '') ? reminder.time : clock.time || EDIT_DEFAULT_TIME,
      message: reminder.message ?? '',
      ...formRepeatOf(reminder),
      alerts: (reminder.alerts ?? []).map((a) => a.before_minutes),
    },
    zone,
    destinations: (reminder.destinations ?? []).map(({ id, type, metadata }) => ({ id, type, metadata: { ...metadata } })),
  };
}

/** Every zone plus the reminder's and the account's own (either may be spelt outside the list), sorted as they read. */
export function zoneChoices(...zones: string[]): readonly string[] {
  return timezonesWith(...zones);
}

export interface ReminderEditFormProps {
  reminder: Reminder;
  /** The account's zone: offered in the zone list, and used if the reminder somehow has none. */
  timezone: string;
  saving: boolean;
  /** The payload always carries the zone shown in the form (the server would otherwise keep the stored one). */
  onSave: (payload: ReminderPayload & { timezone: string }) => void;
  onCancel: () => void;
}

export function ReminderEditForm({ reminder, timezone, saving, onSave, onCancel }: ReminderEditFormProps) {
  const { t } = useTranslation('details');
  // Reset once from the stored reminder each time edit mode opens (the parent remounts this form).
  const [initial] = useState(() => formFromReminder(reminder, timezone));
  const [form, setForm] = useState<ReminderFormState>(initial.form);
  const [zone, setZone] = useState(initial.zone);
  const zones = useMemo(() => zoneChoices(initial.zone, timezone), [initial.zone, timezone]);
  const [destinations, setDestinations] = useState<EditableDestination[]>(initial.destinations);
  // New destinations are checked when added; one that fails holds Save (its reason shows next to it).
  const checks = useDestinationChecks(destinations);
  const [submitted, setSubmitted] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!isReminderFormValid(form) || checks.blocked) return;
    onSave({
      date: form.date,
      time: form.time || EDIT_DEFAULT_TIME,
      message: form.message.trim(),
      ...formRepetition(form),
      ...formAlerts(form),
      destinations: toDestinationInputs(destinations),
      timezone: zone,
    });
  }

  return (
    <form onSubmit={submit} noValidate data-testid="edit-form" aria-labelledby="edit-form-title">
      <Card className="gap-6">
        <CardHeader>
          <CardHeading id="edit-form-title" className="text-lg">
            {t('edit.title')}
          </CardHeading>
          <CardDescription>{t('edit.description')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <ReminderFormFields
            value={form}
            onChange={setForm}
            zonePicker={{ value: zone, onChange: setZone, timezones: zones }}
            disabled={saving}
            showErrors={submitted}
            idPrefix="edit"
            rawSummary={reminder.recurrence_text}
          />
          <Separator />
          <DestinationsEditor value={destinations} onChange={setDestinations} disabled={saving} idPrefix="edit-destinations" checks={checks} reminderId={reminder.id} />
        </CardContent>
        <CardFooter className="flex-col-reverse gap-2 border-t pt-6 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={onCancel} disabled={saving} className="w-full sm:w-auto" data-testid="edit-cancel">
            <X />
            {t('actions.cancel')}
          </Button>
          <Button type="submit" disabled={saving || checks.blocked} className="w-full sm:w-auto" data-testid="edit-save">
            {saving ? <Spinner /> : <Save />}
            {saving ? t('actions.saving') : t('actions.save')}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
