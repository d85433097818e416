import { Check, Info } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '@/components/password-input';
import { MIN_PASSWORD_LENGTH } from '@/components/password-strength';
import { TimezoneCombobox } from '@/components/timezone-combobox';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { defaultTimezone } from '@/lib/timezones';
import { cn } from '@/lib/utils';
import { loginRequest, registerRequest } from '../api/auth-api';
import { FormField } from './form-field';
import { useFinishSignIn } from './use-finish-sign-in';
import { Spinner } from '@/components/ui/spinner';

export interface SignUpFormProps {
  onError: (message: string | null) => void;
  /** The account exists but the sign-in that follows did not go through: the sign-in form takes over. */
  onRegistered: (email: string) => void;
  /** Reports the password as typed (the strength panel lives beside the form on large screens). */
  onPasswordChange: (password: string) => void;
}

export function SignUpForm({ onError, onRegistered, onPasswordChange }: SignUpFormProps) {
  const { t } = useTranslation('auth');
  const signedIn = useFinishSignIn();
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [timezone, setTimezone] = useState(() => defaultTimezone());
  const [loading, setLoading] = useState(false);
  // Shown after a submit with a too-short password; typing a long enough one clears it.
  const [tooShort, setTooShort] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const longEnough = password.length >= MIN_PASSWORD_LENGTH;

  const mismatch = confirm.length > 0 && password !== confirm;
  const complete = Boolean(email.trim() && username.trim() && password && confirm) && password === confirm;

  function updatePassword(value: string) {
    setPassword(value);
    onPasswordChange(value);
    if (value.length >= MIN_PASSWORD_LENGTH) setTooShort(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The rule is under the field on every screen (the strength panel is desktop only): check it here, not on the server.
    if (!longEnough) {
      setTooShort(true);
      onError(null);
      passwordRef.current?.focus();
      return;
    }
    if (password !== confirm) {
      onError(t('passwordsDontMatch'));
      return;
    }
    onError(null);
    setLoading(true);
    try {
      await registerRequest({ email: email.trim(), username: username.trim(), password, timezone });
      const registered = email.trim();
      // Signed in with what was just typed, rather than asked for it again.
      const session = await loginRequest({ email: registered, password, remember_me: false }).catch(() => null);
      if (session && !('two_factor_required' in session)) {
        await signedIn(session);
        return;
      }
      setEmail('');
      setUsername('');
      updatePassword('');
      setConfirm('');
      setTimezone(defaultTimezone());
      onRegistered(registered);
    } catch (err) {
      console.error('Registration failed', err);
      onError(errorMessage(err, t('errors.registrationFailed')));
    } finally {
      setLoading(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5" data-testid="sign-up-form">
      <FormField id="signup-email" label={t('fields.email')}>
        <Input
          id="signup-email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder={t('fields.emailPlaceholder')}
        />
      </FormField>
      <FormField id="signup-username" label={t('fields.username')}>
        <Input
          id="signup-username"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          placeholder={t('fields.usernamePlaceholder')}
        />
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="signup-password" label={t('fields.password')} error={tooShort ? t('signUp.passwordTooShort', { count: MIN_PASSWORD_LENGTH }) : undefined}>
          <PasswordInput
            ref={passwordRef}
            id="signup-password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => updatePassword(e.target.value)}
            aria-invalid={tooShort || undefined}
            aria-describedby={tooShort ? 'signup-password-hint signup-password-error' : 'signup-password-hint'}
            className={cn(tooShort && 'border-destructive focus-visible:border-destructive focus-visible:ring-destructive/30')}
          />
          <p
            id="signup-password-hint"
            className="flex items-center gap-1.5 text-xs text-muted-foreground"
            data-testid="signup-password-hint"
            data-met={longEnough}
          >
            {longEnough ? <Check className="size-3.5 shrink-0 text-success" aria-hidden /> : <Info className="size-3.5 shrink-0" aria-hidden />}
            {t('signUp.passwordHint', { count: MIN_PASSWORD_LENGTH })}
          </p>
        </FormField>
        <FormField id="signup-confirm" label={t('fields.confirmPassword')} error={mismatch ? t('passwordsDontMatch') : undefined}>
          <PasswordInput
            id="signup-confirm"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            aria-invalid={mismatch || undefined}
            aria-describedby={mismatch ? 'signup-confirm-error' : undefined}
            className={cn(mismatch && 'border-destructive focus-visible:border-destructive focus-visible:ring-destructive/30')}
          />
        </FormField>
      </div>
      <FormField id="signup-timezone" label={t('fields.timezone')}>
        <TimezoneCombobox id="signup-timezone" value={timezone} onChange={setTimezone} />
      </FormField>
      <Button type="submit" className="w-full" size="lg" disabled={!complete || loading} data-testid="sign-up-submit">
        {loading && <Spinner />}
        {loading ? t('signUp.submitting') : t('signUp.submit')}
      </Button>
    </form>
  );
}
