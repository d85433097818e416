import { ArrowLeft, CircleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Link } from 'wouter';
import { PageContainer } from '@/components/layout/page-shell';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAccount } from '@/lib/api/reminders';
import { errorDetail } from '@/lib/api-client';
import { prepareDiscordLink } from '@/lib/discord-link';
import { currentReturnPath } from '@/lib/return-to';
import { normalizeTimezone } from '@/lib/timezones';
import { ConnectDiscordContext } from '../components/connect-discord';
import { DestinationsEditor } from '../components/destinations-editor';
import { LeaveDialog } from '../components/leave-guard';
import { ReminderFormFields } from '../components/reminder-form-fields';
import { ReviewStep } from '../components/review-step';
import { ScheduleTextBox } from '../components/schedule-text-box';
import { SecretDialog } from '@/components/secret-dialog';
import { useDestinationChecks } from '../components/use-destination-checks';
import { useWizardDraft } from '../components/use-wizard-draft';
import { type Step, useStepTexts, useWizardStep } from '../components/use-wizard-step';
import { useWizardSubmit } from '../components/use-wizard-submit';
import { WizardFooter } from '../components/wizard-footer';
import { WizardProgress } from '../components/wizard-progress';
import { usePageTitle } from '@/lib/use-page-title';

export default function CreateReminder() {
  const { t } = useTranslation('reminders');
  usePageTitle(t('common:pageTitle.newReminder'));
  const account = useAccount();
  const timezone = account.data ? normalizeTimezone(account.data.timezone) : undefined;
  const discordName = account.data?.identities.find((i) => i.provider === 'discord')?.username ?? null;

  const { form, updateForm, destinations, setDestinations, valid, touched, restored, keep } = useWizardDraft(timezone);
  // Each destination is checked when added; one that fails keeps the wizard on step 2 (its reason shows next to it).
  const checks = useDestinationChecks(destinations);
  // Back from connecting Discord: on the destinations step, where the user left.
  const { step, setStep, headingRef } = useWizardStep(restored ? 2 : 1);
  const stepTexts = useStepTexts();
  const submit = useWizardSubmit(form, destinations, touched);

  /** "Connect your Discord account": keeps the draft, connects, and comes back to it (issue 27 #11). */
  async function connectDiscord() {
    if (!account.data) return;
    keep.save();
    try {
      submit.guard.leaveForUrl(await prepareDiscordLink(account.data.id, currentReturnPath()));
    } catch (err) {
      keep.forget();
      console.error('Discord link failed', err);
      toast.error(t('account:identities.connectFailed'), { description: errorDetail(err) ?? undefined });
    }
  }

  function goTo(target: Step) {
    if (target > 1 && !valid) return;
    if (target > 2 && checks.blocked) return;
    submit.clearAttempt();
    setStep(target);
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

      <WizardProgress step={step} stepTexts={stepTexts} valid={valid} blocked={checks.blocked} onGoTo={goTo} />

      <section className="rounded-xl border bg-card text-card-foreground shadow-sm" aria-labelledby="wizard-step-title" data-testid={`wizard-step-${step}`}>
        <div className="space-y-1.5 border-b px-5 py-4 sm:px-6">
          <h2 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
            {stepTexts[step].title}
          </h2>
          <p className="text-sm text-muted-foreground">{stepTexts[step].description}</p>
        </div>
        <div className="px-5 py-6 sm:px-6">
          {step === 1 && (
            <div className="space-y-6">
              <ScheduleTextBox value={form} onChange={updateForm} idPrefix="wizard" />
              <ReminderFormFields value={form} onChange={updateForm} timezone={timezone} idPrefix="wizard" flagPast />
            </div>
          )}
          {step === 2 && (
            <ConnectDiscordContext.Provider value={() => void connectDiscord()}>
              <DestinationsEditor value={destinations} onChange={setDestinations} disabled={submit.submitting} idPrefix="wizard-destinations" checks={checks} />
            </ConnectDiscordContext.Provider>
          )}
          {step === 3 && (
            <ReviewStep
              form={form}
              destinations={destinations}
              timezone={timezone ?? 'UTC'}
              discordName={discordName}
              onEdit={goTo}
              refusedAsPast={submit.refusedAsPast}
              onInPastChange={submit.setInPast}
            />
          )}
        </div>

        {submit.error && (
          <div className="px-5 pb-2 sm:px-6">
            <Alert variant="destructive" data-testid="create-error">
              <CircleAlert />
              <span>{submit.error}</span>
            </Alert>
          </div>
        )}

        <WizardFooter step={step} valid={valid} blocked={checks.blocked} submitting={submit.submitting} inPast={submit.inPast} onGoTo={goTo} onCreate={() => void submit.create()} />
      </section>

      <SecretDialog secrets={submit.secrets} onClose={submit.finish} />
      <LeaveDialog open={submit.guard.pending} onStay={submit.guard.stay} onLeave={submit.guard.leave} />
    </PageContainer>
  );
}
