import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { ApiError, errorMessage } from '@/lib/api-client';
import { emailAddressesKey } from '@/lib/api/email';
import { createReminder, newSecrets, remindersKey } from '@/lib/api/reminders';
import { useIdempotencyKey } from '@/lib/use-idempotency-key';
import { type EditableDestination, toDestinationInputs } from '../api/destinations';
import { useLeaveGuard } from './leave-guard';
import { formAlerts, formRepetition, type ReminderFormState } from './reminder-form-fields';
import type { SecretEntry } from '@/components/secret-dialog';
import { useDestinationError } from './use-destination-error';

const CREATED_TOAST_MS = 3000;

/**
 * The wizard's Create: sends the draft, shows the new webhooks' secrets once, then leaves for the
 * dashboard. Until it is saved, leaving a touched draft asks first (the leave guard).
 */
export function useWizardSubmit(form: ReminderFormState, destinations: EditableDestination[], touched: boolean) {
  const { t } = useTranslation('reminders');
  const { mutate } = useSWRConfig();
  const destinationError = useDestinationError();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<SecretEntry[] | null>(null);
  const [saved, setSaved] = useState(false);
  // The review step found no occurrence left (or Create was refused as past): Create waits for a
  // later date, and the review step says why, once.
  const [inPast, setInPast] = useState(false);
  const [refusedAsPast, setRefusedAsPast] = useState(false);
  const guard = useLeaveGuard(touched && !saved);
  const idempotency = useIdempotencyKey();

  /** Forgets the last attempt's failure (on a change of step). */
  function clearAttempt() {
    setError(null);
    setRefusedAsPast(false);
  }

  function finish() {
    setSecrets(null);
    toast.success(t('wizard.created'), { duration: CREATED_TOAST_MS });
    guard.leaveTo('/home');
  }

  async function create() {
    setSubmitting(true);
    setError(null);
    const fallback = t('wizard.createFailed');
    try {
      // The server reads date and time in the account zone (no timezone sent).
      const payload = {
        date: form.date,
        time: form.time,
        message: form.message.trim(),
        ...formRepetition(form),
        ...formAlerts(form),
        destinations: toDestinationInputs(destinations),
      };
      // Create pressed again after a failure resends the same draft with the same key: if the first
      // attempt went through after all, the server answers that reminder instead of a second one.
      const created = await createReminder(payload, idempotency.keyFor(JSON.stringify(payload)));
      if (!created?.id) throw new Error(fallback);
      idempotency.settle();
      setSaved(true);
      void mutate(remindersKey);
      // Saving mailed a confirmation link to each new address: its state is no longer what the
      // wizard last read, and the reminder's page must not show that older state.
      if (destinations.some((d) => d.type === 'email')) void mutate(emailAddressesKey);
      const fresh = newSecrets(created);
      if (fresh.length > 0) setSecrets(fresh);
      else finish();
    } catch (err) {
      idempotency.settle(err);
      console.error('Failed to create reminder', err);
      if (err instanceof ApiError && err.code === 'REMINDER_IN_PAST') {
        // The time passed while the user read the review: the review step says so (not a toast too).
        setRefusedAsPast(true);
        return;
      }
      // A destination at fault is named, with the server's reason in the user's language.
      const message = destinationError(err, destinations) ?? (errorMessage(err, fallback) || fallback);
      setError(message);
      toast.error(message);
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, error, secrets, inPast, setInPast, refusedAsPast, guard, clearAttempt, finish, create };
}
