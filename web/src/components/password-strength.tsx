import { Check, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

/** The special characters that count for the strength meter (docs/dashboard.md "Forms"). */
export const PASSWORD_SPECIALS = `!@#$%^&*()_+=-{};':"\\|,.<>/?`;
export const MIN_PASSWORD_LENGTH = 8;

export type PasswordCriterion = 'length' | 'uppercase' | 'lowercase' | 'digit' | 'special';

export function passwordCriteria(password: string): Record<PasswordCriterion, boolean> {
  return {
    length: password.length >= MIN_PASSWORD_LENGTH,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    digit: /[0-9]/.test(password),
    special: [...password].some((c) => PASSWORD_SPECIALS.includes(c)),
  };
}

/** 20 points per criterion met, 0..100. */
export function passwordScore(password: string): number {
  return Object.values(passwordCriteria(password)).filter(Boolean).length * 20;
}

export type StrengthLevel = 'veryWeak' | 'weak' | 'fair' | 'good' | 'strong';

/** red < 20, orange < 40, yellow < 60, lime < 80, green otherwise. */
export function strengthLevel(score: number): { level: StrengthLevel; color: 'red' | 'orange' | 'yellow' | 'lime' | 'green' } {
  if (score < 20) return { level: 'veryWeak', color: 'red' };
  if (score < 40) return { level: 'weak', color: 'orange' };
  if (score < 60) return { level: 'fair', color: 'yellow' };
  if (score < 80) return { level: 'good', color: 'lime' };
  return { level: 'strong', color: 'green' };
}

const BAR_CLASS = { red: 'bg-red-500', orange: 'bg-orange-500', yellow: 'bg-yellow-400', lime: 'bg-lime-500', green: 'bg-green-500' } as const;
const TEXT_CLASS = {
  // Light shades dark enough for 4.5:1 on white.
  red: 'text-red-700 dark:text-red-400',
  orange: 'text-orange-700 dark:text-orange-400',
  yellow: 'text-yellow-800 dark:text-yellow-400',
  lime: 'text-lime-800 dark:text-lime-400',
  green: 'text-green-700 dark:text-green-400',
} as const;

const LEVEL_KEYS = {
  veryWeak: 'passwordStrength.veryWeak',
  weak: 'passwordStrength.weak',
  fair: 'passwordStrength.fair',
  good: 'passwordStrength.good',
  strong: 'passwordStrength.strong',
} as const;
const CRITERION_KEYS = {
  length: 'passwordStrength.length',
  uppercase: 'passwordStrength.uppercase',
  lowercase: 'passwordStrength.lowercase',
  digit: 'passwordStrength.digit',
  special: 'passwordStrength.special',
} as const;

export interface PasswordStrengthProps {
  password: string;
  className?: string;
  /** Compact: bar + level only, no checklist. */
  compact?: boolean;
}

/** Visual only; never blocks submission (docs/dashboard.md "Forms"). */
export function PasswordStrength({ password, className, compact = false }: PasswordStrengthProps) {
  const { t } = useTranslation('common');
  const criteria = passwordCriteria(password);
  const score = passwordScore(password);
  const { level, color } = strengthLevel(score);
  return (
    <div className={cn('space-y-3', className)} data-testid="password-strength" data-score={score} data-color={color}>
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium">{t('passwordStrength.title')}</span>
        <span className={cn('font-medium', TEXT_CLASS[color])}>{t(LEVEL_KEYS[level])}</span>
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={score}
        aria-label={t('passwordStrength.title')}
      >
        <div className={cn('h-full rounded-full transition-all duration-300', BAR_CLASS[color])} style={{ width: `${Math.max(score, 4)}%` }} />
      </div>
      {!compact && (
        <ul className="space-y-1.5 text-sm">
          {(Object.keys(CRITERION_KEYS) as PasswordCriterion[]).map((key) => (
            <li key={key} className={cn('flex items-center gap-2', criteria[key] ? 'text-foreground' : 'text-muted-foreground')}>
              {criteria[key] ? <Check className="size-4 text-green-500" /> : <X className="size-4 opacity-60" />}
              {t(CRITERION_KEYS[key])}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
