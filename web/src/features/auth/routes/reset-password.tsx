import { AlertCircle, Check, Info } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { PasswordInput } from '@/components/password-input';
import { MIN_PASSWORD_LENGTH } from '@/components/password-strength';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api-client';
import { clearSession } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';
import { cn } from '@/lib/utils';
import { confirmPasswordReset } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { FormField } from '../components/form-field';
import { Spinner } from '@/components/ui/spinner';

/** Codes after which the link is of no more use: the page offers a new one. */
const DEAD_LINK = new Set(['RESET_TOKEN_INVALID', 'RESET_TOKEN_USED', 'RESET_TOKEN_EXPIRED']);

/**
 * The page a reset link opens (/reset-password?token=...): a new password, twice. Success signs
 * out every session (this browser's too) and goes to sign-in, which says it worked.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('common:pageTitle.resetPassword'));
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const [error, setError] = useState<{ message: string; dead: boolean } | null>(null);
  const [loading, setLoading] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const longEnough = password.length >= MIN_PASSWORD_LENGTH;
  const mismatch = confirm.length > 0 && password !== confirm;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!longEnough) {
      setTooShort(true);
      passwordRef.current?.focus();
      return;
    }
    if (password !== confirm) return;
    setError(null);
    setLoading(true);
    try {
      await confirmPasswordReset(token, password);
      clearSession();
      navigate('/login?reset=done', { replace: true });
    } catch (err) {
      setError({ message: errorMessage(err), dead: err instanceof ApiError && DEAD_LINK.has(err.code) });
      setLoading(false);
    }
  }

  const back = { href: '/login', label: t('forgot.back') };
  if (!token) {
    return (
      <AuthCard title={t('reset.title')} back={back} testId="reset-password">
        <DeadLink message={t('reset.noToken')} />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('reset.title')} description={t('reset.subtitle')} back={back} testId="reset-password">
      {error && (error.dead ? <DeadLink message={error.message} /> : (
        <Alert variant="destructive" data-testid="auth-error">
          <AlertCircle />
          <span>{error.message}</span>
        </Alert>
      ))}
      <form onSubmit={(e) => void submit(e)} className="space-y-5" data-testid="reset-form">
        <FormField id="reset-password" label={t('reset.password')} error={tooShort && !longEnough ? t('signUp.passwordTooShort', { count: MIN_PASSWORD_LENGTH }) : undefined}>
          <PasswordInput
            ref={passwordRef}
            id="reset-password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={(tooShort && !longEnough) || undefined}
            aria-describedby="reset-password-hint"
          />
          <p id="reset-password-hint" className="flex items-center gap-1.5 text-xs text-muted-foreground" data-met={longEnough}>
            {longEnough ? <Check className="size-3.5 shrink-0 text-success" aria-hidden /> : <Info className="size-3.5 shrink-0" aria-hidden />}
            {t('signUp.passwordHint', { count: MIN_PASSWORD_LENGTH })}
          </p>
        </FormField>
        <FormField id="reset-confirm" label={t('fields.confirmPassword')} error={mismatch ? t('passwordsDontMatch') : undefined}>
          <PasswordInput
            id="reset-confirm"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            aria-invalid={mismatch || undefined}
            className={cn(mismatch && 'border-destructive focus-visible:border-destructive focus-visible:ring-destructive/30')}
          />
        </FormField>
        <Button type="submit" className="w-full" size="lg" disabled={loading || !password || password !== confirm} data-testid="reset-submit">
          {loading && <Spinner />}
          {loading ? t('reset.submitting') : t('reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}

function DeadLink({ message }: { message: string }) {
  const { t } = useTranslation('auth');
  return (
    <Alert variant="destructive" data-testid="reset-dead-link">
      <AlertCircle />
      <div className="space-y-2">
        <p>{message}</p>
        <Link href="/forgot-password" className="font-medium underline underline-offset-4">
          {t('reset.newLink')}
        </Link>
      </div>
    </Alert>
  );
}
