import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import { type Step, type StepTexts, TOTAL_STEPS } from './use-wizard-step';

interface WizardProgressProps {
  step: Step;
  stepTexts: StepTexts;
  /** The details are complete: the later steps can be reached. */
  valid: boolean;
  /** A destination failed its check: the review cannot be reached. */
  blocked: boolean;
  onGoTo: (target: Step) => void;
}

/** "Step n of 3", the progress bar, and the steps as tabs (done ones ticked; the reachable ones clickable). */
export function WizardProgress({ step, stepTexts, valid, blocked, onGoTo }: WizardProgressProps) {
  const { t } = useTranslation('reminders');
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="font-medium" data-testid="step-counter" aria-live="polite">
          {t('wizard.stepCounter', { current: step, total: TOTAL_STEPS })}
        </span>
        <span className="text-muted-foreground">{stepTexts[step].title}</span>
      </div>
      <Progress value={(step / TOTAL_STEPS) * 100} aria-label={t('wizard.progress')} data-testid="wizard-progress" indicatorClassName="bg-brand-gradient" />
      <ol className="flex gap-2" aria-label={t('wizard.progress')}>
        {([1, 2, 3] as const).map((n) => {
          const done = n < step;
          const current = n === step;
          const reachable = n < step || (n > step && valid && !(n > 2 && blocked));
          return (
            <li key={n} className={current ? 'min-w-0 flex-1' : 'shrink-0 sm:min-w-0 sm:flex-1'}>
              <button
                type="button"
                onClick={() => onGoTo(n)}
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
                <span className={cn('truncate', !current && 'sr-only sm:not-sr-only')}>{stepTexts[n].title}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
