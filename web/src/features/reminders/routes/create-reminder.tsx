import { ArrowLeft, ArrowRight, Check, CircleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { Link, useSearch } from 'wouter';
import { PageContainer } from '@/components/layout/page-shell';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { ApiError, errorMessage } from '@/lib/api-client';
import { type Account, createReminder, remindersKey, useAccount } from '@/lib/api/reminders';
import { cn } from '@/lib/utils';
import { type EditableDestination, toDestinationInputs } from '../api/destinations';
import { DestinationsEditor } from '../components/destinations-editor';
import { LeaveDialog, useLeaveGuard } from '../components/leave-guard';
import { currentTime, formRepetition, isReminderFormValid, ReminderFormFields, type ReminderFormState } from '../components/reminder-form-fields';
import { REVIEW_IN_PAST_ID, ReviewStep } from '../components/review-step';
import { SecretDialog, type SecretEntry } from '../components/secret-dialog';
import { useDestinationChecks } from '../components/use-destination-checks';
import { useDestinationError } from '../components/use-destination-error';
import { usePageTitle } from '@/lib/use-page-title';
import { Spinner } from '@/components/ui/spinner';

type Step = 1 | 2 | 3;
const TOTAL_STEPS = 3;
const CREATED_TOAST_MS = 3000;

/** SPEC section 3: the zone is text; an object carries iana_location, then name; else UTC. */
function accountZone(account: Account | undefined): string | undefined {
  if (!account) return undefined;
  const tz = account.timezone as unknown;
  if (typeof tz === 'string' && tz) return tz;
  if (tz && typeof tz === 'object') {
    const o = tz as { iana_location?: unknown; name?: unknown };
    if (typeof o.iana_location === 'string') return o.iana_location;
    if (typeof o.name === 'string') return o.name;
  }
  return 'UTC';
}

function dateFromQuery(search: string): string {
  const value = new URLSearchParams(search).get('date') ?? '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return '';
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value) ? value : '';
}

export default function CreateReminder() {
  const { t } = useTranslation('reminders');
  usePageTitle(t('common:pageTitle.newReminder'));
  const search = useSearch();
  const { mutate } = useSWRConfig();
  const account = useAccount();
  const timezone = accountZone(account.data);
  const discordName = account.data?.identities.find((i) => i.provider === 'discord')?.username ?? null;

  const [step, setStep] = useState<Step>(1);
  const [initialDate] = useState(() => dateFromQuery(search));
  // SPEC leaves the wizard's default recurrence open (section 3); ONCE, as in the edit form.
  const [form, setForm] = useState<ReminderFormState>(() => ({
    date: initialDate,
    time: currentTime(),
    message: '',
    recurrence: 'ONCE',
    custom: null,
    end: { kind: 'never' },
    raw: null,
  }));
  const [destinations, setDestinations] = useState<EditableDestination[]>([]);
  // Each destination is checked when added; one that fails keeps the wizard on step 2 (its reason shows next to it).
  const checks = useDestinationChecks(destinations);
  const destinationError = useDestinationError();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<SecretEntry[] | null>(null);
  const [saved, setSaved] = useState(false);
  // The review step found no occurrence left (or Create was refused as past): Create waits for a
  // later date, and the review step says why, once.
  const [inPast, setInPast] = useState(false);
  const [refusedAsPast, setRefusedAsPast] = useState(false);
  const timeEdited = useRef(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // "Current local time" means the account's wall clock: once the zone is known, follow it
  // unless the user already picked a time.
  useEffect(() => {
    if (timezone && !timeEdited.current) setForm((f) => ({ ...f, time: currentTime(timezone) }));
  }, [timezone]);

  // Move focus to the new step's heading so keyboard and screen-reader users follow along.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const valid = isReminderFormValid(form);
  // Anything the user typed or picked (the date from the calendar and the clock's default time are not theirs).
  const touched =
    form.message.trim() !== '' ||
    form.date !== initialDate ||
    form.recurrence !== 'ONCE' ||
    form.custom !== null ||
    form.end.kind !== 'never' ||
    destinations.length > 0 ||
    timeEdited.current;
  const guard = useLeaveGuard(touched && !saved);
  const stepInfo: Record<Step, { title: string; description: string }> = {
    1: { title: t('wizard.steps.details.title'), description: t('wizard.steps.details.description') },
    2: { title: t('wizard.steps.destinations.title'), description: t('wizard.steps.destinations.description') },
    3: { title: t('wizard.steps.review.title'), description: t('wizard.steps.review.description') },
  };

  function updateForm(next: ReminderFormState) {
    if (next.time !== form.time) timeEdited.current = true;
    setForm(next);
  }

  function goTo(target: Step) {
    if (target > 1 && !valid) return;
    if (target > 2 && checks.blocked) return;
    setError(null);
    setRefusedAsPast(false);
    setStep(target);
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
      const created = await createReminder({
        date: form.date,
        time: form.time,
        message: form.message.trim(),
        ...formRepetition(form),
        destinations: toDestinationInputs(destinations),
      });
      if (!created?.id) throw new Error(fallback);
      setSaved(true);
      void mutate(remindersKey);
      const fresh = created.destinations.filter((d) => d.type === 'webhook' && d.secret).map((d) => ({ id: d.id, url: d.metadata.url, secret: d.secret as string }));
      if (fresh.length > 0) setSecrets(fresh);
      else finish();
    } catch (err) {
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

  return (
    <PageContainer size="md" className="space-y-6">
      <div className="space-y-4">
        <Button asChild variant="ghost" size="sm" className="-ml-3 text-muted-foreground">
          <Link href="/home" data-testid="back-to-dashboard">
            <ArrowLeft />
            {t('wizard.backToDashboard')}
          </Link>
        </Button>
        <div className="space-y-1.5">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t('wizard.title')}</h1>
          <p className="text-muted-foreground">{t('wizard.subtitle')}</p>
        </div>
      </div>

      <div className="space-y-3">
        <div className="flex items-center justify-between gap-2 text-sm">
          <span className="font-medium" data-testid="step-counter" aria-live="polite">
            {t('wizard.stepCounter', { current: step, total: TOTAL_STEPS })}
          </span>
          <span className="text-muted-foreground">{stepInfo[step].title}</span>
        </div>
        <Progress value={(step / TOTAL_STEPS) * 100} aria-label={t('wizard.progress')} data-testid="wizard-progress" indicatorClassName="bg-brand-gradient" />
        <ol className="flex gap-2" aria-label={t('wizard.progress')}>
          {([1, 2, 3] as const).map((n) => {
            const done = n < step;
            const current = n === step;
            const reachable = n < step || (n > step && valid && !(n > 2 && checks.blocked));
            return (
              <li key={n} className={current ? 'min-w-0 flex-1' : 'shrink-0 sm:min-w-0 sm:flex-1'}>
                <button
                  type="button"
                  onClick={() => goTo(n)}
                  disabled={!reachable && !current}
                  aria-current={current ? 'step' : undefined}
                  className={cn(
                    'flex w-full items-center gap-2 rounded-lg px-2 py-1.5 text-left text-xs font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-sm',
                    current ? 'text-foreground' : 'text-muted-foreground',
                    reachable && 'hover:bg-accent hover:text-foreground',
                    'disabled:cursor-default',
                  )}
                  data-testid={`step-tab-${n}`}
                >
                  <span
                    className={cn(
                      'flex size-6 shrink-0 items-center justify-center rounded-full border text-xs tabular-nums',
                      current && 'border-primary bg-primary text-primary-foreground',
                      done && 'border-primary/40 bg-primary/10 text-primary',
                    )}
                    aria-hidden
                  >
                    {done ? <Check className="size-3.5" /> : n}
                  </span>
                  <span className={cn('truncate', !current && 'sr-only sm:not-sr-only')}>{stepInfo[n].title}</span>
                </button>
              </li>
            );
          })}
        </ol>
      </div>

      <section className="rounded-xl border bg-card text-card-foreground shadow-sm" aria-labelledby="wizard-step-title" data-testid={`wizard-step-${step}`}>
        <div className="space-y-1.5 border-b px-5 py-4 sm:px-6">
          <h2 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
            {stepInfo[step].title}
          </h2>
          <p className="text-sm text-muted-foreground">{stepInfo[step].description}</p>
        </div>
        <div className="px-5 py-6 sm:px-6">
          {step === 1 && <ReminderFormFields value={form} onChange={updateForm} timezone={timezone} idPrefix="wizard" />}
          {step === 2 && <DestinationsEditor value={destinations} onChange={setDestinations} disabled={submitting} idPrefix="wizard-destinations" checks={checks} />}
          {step === 3 && (
            <ReviewStep
              form={form}
              destinations={destinations}
              timezone={timezone ?? 'UTC'}
              discordName={discordName}
              onEdit={goTo}
              refusedAsPast={refusedAsPast}
              onInPastChange={setInPast}
            />
          )}
        </div>

        {error && (
          <div className="px-5 pb-2 sm:px-6">
            <Alert variant="destructive" data-testid="create-error">
              <CircleAlert />
              <span>{error}</span>
            </Alert>
          </div>
        )}

        {step === 2 && checks.blocked && (
          <p id="wizard-destinations-blocked" className="px-5 pb-3 text-sm text-muted-foreground sm:px-6" data-testid="destinations-blocked">
            {t('delivery:check.blocked')}
          </p>
        )}

        <div className="flex items-center justify-between gap-3 border-t px-5 py-4 sm:px-6">
          {step > 1 ? (
            <Button type="button" variant="outline" onClick={() => goTo((step - 1) as Step)} disabled={submitting} data-testid="wizard-back">
              <ArrowLeft />
              {t('wizard.actions.back')}
            </Button>
          ) : (
            <span />
          )}
          {step < 3 ? (
            <Button
              type="button"
              onClick={() => goTo((step + 1) as Step)}
              disabled={!valid || (step === 2 && checks.blocked)}
              aria-describedby={step === 2 && checks.blocked ? 'wizard-destinations-blocked' : undefined}
              data-testid="wizard-next"
            >
              {t('wizard.actions.next')}
              <ArrowRight />
            </Button>
          ) : (
            <Button
              type="button"
              variant="brand"
              onClick={() => void create()}
              disabled={submitting || !valid || inPast || checks.blocked}
              aria-describedby={inPast ? REVIEW_IN_PAST_ID : undefined}
              data-testid="wizard-create"
            >
              {submitting ? <Spinner /> : <Check />}
              {submitting ? t('wizard.actions.creating') : t('wizard.actions.create')}
            </Button>
          )}
        </div>
      </section>

      <SecretDialog secrets={secrets} onClose={finish} />
      <LeaveDialog open={guard.pending} onStay={guard.stay} onLeave={guard.leave} />
    </PageContainer>
  );
}
