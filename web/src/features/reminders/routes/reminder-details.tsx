import { ArrowLeft, Copy, Pause, Pencil, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { Link, useLocation, useParams } from 'wouter';
import { PageContainer } from '@/components/layout/page-shell';
import { ReminderStatusBadge } from '@/components/reminder-status-badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import {
  deleteReminder,
  duplicateReminder,
  newSecrets,
  pauseReminder,
  type ReminderPayload,
  remindersKey,
  resumeReminder,
  updateReminder,
  useAccount,
  useReminder,
} from '@/lib/api/reminders';
import { emailAddressesKey } from '@/lib/api/email';
import { ApiError, errorDetail, isNetworkError } from '@/lib/api-client';
import { reminderStatus } from '@/lib/reminder-status';
import { normalizeTimezone } from '@/lib/timezones';
import { DangerZone } from '../components/details/danger-zone';
import { DeliveryHistory } from '../components/details/delivery-history';
import { DestinationList } from '../components/details/destination-list';
import { InfoCard } from '../components/details/info-card';
import { OccurrencesCard } from '../components/details/occurrences-card';
import { ReminderEditForm } from '../components/details/reminder-edit-form';
import { shortId } from '../components/details/reminder-meta';
import { ReminderOverview } from '../components/details/reminder-overview';
import { SkippedOccurrences } from '../components/details/skipped-occurrences';
import { useDestinationError } from '../components/use-destination-error';
import { useIdempotencyKey } from '@/lib/use-idempotency-key';
import { titleFromMessage, usePageTitle } from '@/lib/use-page-title';
import { Spinner } from '@/components/ui/spinner';
import { SecretDialog, type SecretEntry, type SecretOrigin } from '@/components/secret-dialog';

function DetailsSkeleton() {
  const { t } = useTranslation('common');
  return (
    <div className="space-y-6" role="status" aria-live="polite" data-testid="details-loading">
      <span className="sr-only">{t('status.loading')}</span>
      <Skeleton className="h-9 w-64" />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_340px]">
        <div className="space-y-6">
          <Skeleton className="h-64 w-full rounded-xl" />
          <Skeleton className="h-40 w-full rounded-xl" />
        </div>
        <div className="space-y-6">
          <Skeleton className="h-56 w-full rounded-xl" />
          <Skeleton className="h-44 w-full rounded-xl" />
        </div>
      </div>
    </div>
  );
}

type Busy = null | 'toggle' | 'duplicate' | 'save' | 'delete';

export default function ReminderDetailsPage() {
  const { t } = useTranslation('details');
  const { reminderId = '' } = useParams<{ reminderId: string }>();
  const [, setLocation] = useLocation();
  const { mutate: mutateKey } = useSWRConfig();
  const { data: reminder, error, mutate } = useReminder(reminderId || null);
  const { data: account, error: accountError } = useAccount();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  // New webhooks' signing secrets, shown once: a copy's over the copy's page, or an edit's.
  const [newSecretsShown, setNewSecretsShown] = useState<{ entries: SecretEntry[]; origin: SecretOrigin } | null>(null);
  const duplicateKey = useIdempotencyKey();
  const destinationError = useDestinationError();
  const redirected = useRef(false);
  const timezone = normalizeTimezone(account?.timezone);
  usePageTitle(reminder?.message ? titleFromMessage(reminder.message) : t('common:pageTitle.reminder'));

  // Load failure or missing reminder: toast, then back to the dashboard (docs/dashboard.md "Errors").
  useEffect(() => {
    if (!error || redirected.current) return;
    // A 401 already cleared the session and went to /login.
    if (error instanceof ApiError && error.status === 401) return;
    // Offline: the reminder may well exist; stay (the action that failed said why).
    if (isNetworkError(error)) return;
    redirected.current = true;
    const notFound = error instanceof ApiError && (error.status === 404 || error.code === 'REMINDER_NOT_FOUND');
    toast.error(notFound ? t('toasts.notFound') : t('toasts.loadFailed'));
    setLocation('/home', { replace: true });
  }, [error, setLocation, t]);

  // Another reminder (e.g. after duplicating): leave edit mode.
  useEffect(() => setEditing(false), [reminderId]);

  async function togglePause() {
    if (!reminder) return;
    setBusy('toggle');
    const wasPaused = reminder.is_paused;
    try {
      await (wasPaused ? resumeReminder(reminder.id) : pauseReminder(reminder.id));
      toast.success(wasPaused ? t('toasts.resumed') : t('toasts.paused'));
    } catch (err) {
      console.error('Failed to toggle pause', err);
      toast.error(isNetworkError(err) ? t('common:errors.NETWORK_ERROR') : t('toasts.toggleFailed'));
    } finally {
      await mutate();
      void mutateKey(remindersKey);
      setBusy(null);
    }
  }

  async function duplicate() {
    if (!reminder) return;
    setBusy('duplicate');
    try {
      // Duplicate pressed again after a failure reuses the key: at most one copy is made.
      const copy = await duplicateReminder(reminder.id, duplicateKey.keyFor(reminder.id));
      if (!copy?.id) throw new Error('No id in the duplicate answer');
      duplicateKey.settle();
      void mutateKey(remindersKey);
      toast.success(t('toasts.duplicated'));
      const secrets = newSecrets(copy);
      if (secrets.length > 0) setNewSecretsShown({ entries: secrets, origin: 'duplicated' });
      setLocation(`/reminders/${copy.id}`);
    } catch (err) {
      duplicateKey.settle(err);
      console.error('Failed to duplicate reminder', err);
      toast.error(isNetworkError(err) ? t('common:errors.NETWORK_ERROR') : t('toasts.duplicateFailed'));
    } finally {
      setBusy(null);
    }
  }

  async function save(payload: ReminderPayload & { timezone: string }) {
    if (!reminder) return;
    setBusy('save');
    try {
      const updated = await updateReminder(reminder.id, payload);
      await mutate(updated ?? undefined, { revalidate: true });
      void mutateKey(remindersKey);
      // An address the edit added was mailed its confirmation link: its state changed too.
      if (payload.destinations.some((d) => d.type === 'email')) void mutateKey(emailAddressesKey);
      setEditing(false);
      toast.success(t('toasts.updated'));
      // A webhook added by the edit answers its secret here, once.
      const secrets = updated ? newSecrets(updated) : [];
      if (secrets.length > 0) setNewSecretsShown({ entries: secrets, origin: 'created' });
    } catch (err) {
      console.error('Failed to update reminder', err);
      // The title says it failed; the description only when the server said why.
      // A destination at fault is named, with the server's reason in the user's language.
      toast.error(t('toasts.updateFailed'), { description: destinationError(err, payload.destinations) ?? errorDetail(err) ?? undefined });
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!reminder) return;
    // Confirmed in the danger zone's dialog first: a delete cannot be undone.
    setBusy('delete');
    try {
      await deleteReminder(reminder.id);
      redirected.current = true;
      toast.success(t('toasts.deleted'));
      void mutateKey(remindersKey);
      setLocation('/home', { replace: true });
    } catch (err) {
      console.error('Failed to delete reminder', err);
      toast.error(isNetworkError(err) ? t('common:errors.NETWORK_ERROR') : t('toasts.deleteFailed'));
      setBusy(null);
    }
  }

  const status = reminder ? reminderStatus(reminder) : null;
  const completed = status === 'completed';

  return (
    <PageContainer size="xl" className="max-w-6xl">
      <Button asChild variant="ghost" size="sm" className="-ml-2 mb-4 text-muted-foreground">
        <Link href="/home">
          <ArrowLeft />
          {t('back')}
        </Link>
      </Button>

      {!reminder || !status || (!account && !accountError) ? (
        <DetailsSkeleton />
      ) : (
        <div className="space-y-6 animate-fade-in" data-testid="reminder-details">
          <header className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
            <div className="min-w-0 space-y-2">
              <div className="flex flex-wrap items-center gap-2">
                <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t('title')}</h1>
                <ReminderStatusBadge status={status} />
              </div>
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <span>{t('shortIdLabel')}</span>
                <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-foreground" data-testid="short-id" title={reminder.id}>
                  {shortId(reminder.id)}
                </code>
              </p>
            </div>
            {!editing && (
              <div className="flex flex-wrap gap-2 *:flex-auto sm:*:flex-none" role="group" aria-label={t('actions.label')}>
                {/* A finished reminder (a one-off that fired, an ended series) has nothing to pause or edit: duplicate it instead. */}
                {!completed && (
                  <Button variant="outline" onClick={() => void togglePause()} disabled={busy !== null} data-testid="toggle-pause" aria-pressed={reminder.is_paused}>
                    {busy === 'toggle' ? <Spinner /> : reminder.is_paused ? <Play /> : <Pause />}
                    {reminder.is_paused ? t('actions.resume') : t('actions.pause')}
                  </Button>
                )}
                <Button variant={completed ? 'default' : 'outline'} onClick={() => void duplicate()} disabled={busy !== null} data-testid="duplicate-reminder">
                  {busy === 'duplicate' ? <Spinner /> : <Copy />}
                  {t('actions.duplicate')}
                </Button>
                {!completed && (
                  <Button onClick={() => setEditing(true)} disabled={busy !== null} data-testid="edit-reminder">
                    <Pencil />
                    {t('actions.edit')}
                  </Button>
                )}
              </div>
            )}
          </header>

          <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_340px]">
            <div className="min-w-0 space-y-6">
              {editing && !completed ? (
                <ReminderEditForm
                  key={`${reminder.id}-${reminder.updated_at}`}
                  reminder={reminder}
                  timezone={timezone}
                  saving={busy === 'save'}
                  onSave={(payload) => void save(payload)}
                  onCancel={() => setEditing(false)}
                />
              ) : (
                <>
                  <ReminderOverview reminder={reminder} timezone={timezone} />
                  <DestinationList reminderId={reminder.id} destinations={reminder.destinations ?? []} onChanged={() => void mutate()} />
                  <DeliveryHistory reminder={reminder} timezone={timezone} />
                </>
              )}
            </div>
            <aside className="min-w-0 space-y-6">
              <OccurrencesCard reminder={reminder} timezone={timezone} />
              <SkippedOccurrences reminder={reminder} timezone={timezone} />
              <InfoCard reminder={reminder} status={status} timezone={timezone} />
            </aside>
          </div>

          {!editing && <DangerZone onDelete={remove} deleting={busy === 'delete'} />}
        </div>
      )}
      <SecretDialog secrets={newSecretsShown?.entries ?? null} origin={newSecretsShown?.origin} onClose={() => setNewSecretsShown(null)} />
    </PageContainer>
  );
}
