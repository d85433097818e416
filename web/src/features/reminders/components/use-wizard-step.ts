import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The wizard's steps: 1 details, 2 destinations, 3 review. */
export type Step = 1 | 2 | 3;
export const TOTAL_STEPS = 3;

/** Each step's title and description, as its tab and heading show them. */
export type StepTexts = Record<Step, { title: string; description: string }>;

/** The step on show, and its heading (focused on each change of step). */
export function useWizardStep(initial: Step = 1) {
  const [step, setStep] = useState<Step>(initial);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // Move focus to the new step's heading so keyboard and screen-reader users follow along.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  return { step, setStep, headingRef };
}

/** The steps' titles and descriptions in the user's language. */
export function useStepTexts(): StepTexts {
  const { t } = useTranslation('reminders');
  return {
    1: { title: t('wizard.steps.details.title'), description: t('wizard.steps.details.description') },
    2: { title: t('wizard.steps.destinations.title'), description: t('wizard.steps.destinations.description') },
    3: { title: t('wizard.steps.review.title'), description: t('wizard.steps.review.description') },
  };
}
