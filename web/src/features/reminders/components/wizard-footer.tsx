import { ArrowLeft, ArrowRight, Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { REVIEW_IN_PAST_ID } from './review-step';
import type { Step } from './use-wizard-step';

const BLOCKED_HINT_ID = 'wizard-destinations-blocked';

interface WizardFooterProps {
  step: Step;
  /** The details are complete. */
  valid: boolean;
  /** A destination failed its check. */
  blocked: boolean;
  submitting: boolean;
  /** The review found no occurrence left. */
  inPast: boolean;
  onGoTo: (target: Step) => void;
  onCreate: () => void;
}

/** The wizard's buttons: Back from step 2 on, Next until the review, then Create; and why Next waits when a destination failed its check. */
export function WizardFooter({ step, valid, blocked, submitting, inPast, onGoTo, onCreate }: WizardFooterProps) {
  const { t } = useTranslation('reminders');
  return (
    <>
      {step === 2 && blocked && (
        <p id={BLOCKED_HINT_ID} className="px-5 pb-3 text-sm text-muted-foreground sm:px-6" data-testid="destinations-blocked">
          {t('delivery:check.blocked')}
        </p>
      )}

      <div className="flex items-center justify-between gap-3 border-t px-5 py-4 sm:px-6">
        {step > 1 ? (
          <Button type="button" variant="outline" onClick={() => onGoTo((step - 1) as Step)} disabled={submitting} data-testid="wizard-back">
            <ArrowLeft />
            {t('wizard.actions.back')}
          </Button>
        ) : (
          <span />
        )}
        {step < 3 ? (
          <Button
            type="button"
            onClick={() => onGoTo((step + 1) as Step)}
            disabled={!valid || (step === 2 && blocked)}
            aria-describedby={step === 2 && blocked ? BLOCKED_HINT_ID : undefined}
            data-testid="wizard-next"
          >
            {t('wizard.actions.next')}
            <ArrowRight />
          </Button>
        ) : (
          <Button type="button" variant="brand" onClick={onCreate} disabled={submitting || !valid || inPast || blocked} aria-describedby={inPast ? REVIEW_IN_PAST_ID : undefined} data-testid="wizard-create">
            {submitting ? <Spinner /> : <Check />}
            {submitting ? t('wizard.actions.creating') : t('wizard.actions.create')}
          </Button>
        )}
      </div>
    </>
  );
}
