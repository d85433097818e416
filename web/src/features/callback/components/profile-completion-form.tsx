import { AlertCircle, Lightbulb } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '@/components/password-input';
import { MIN_PASSWORD_LENGTH, PasswordStrength } from '@/components/password-strength';
import { TimezoneCombobox } from '@/components/timezone-combobox';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import type { LoginResponse } from '@/lib/session';
import { defaultTimezone } from '@/lib/timezones';
import { completeSetup, type SetupRequired } from '../api/callback-api';
import { Spinner } from '@/components/ui/spinner';

type Field = 'email' | 'username' | 'password';
type Errors = Partial<Record<Field, string>>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function FieldBlock({ id, label, error, children }: { id: string; label: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** First Discord sign-in: email, username, password and time zone (docs/dashboard.md "Forms"). */
export function ProfileCompletionForm({ setup, onDone }: { setup: SetupRequired; onDone: (response: LoginResponse) => Promise<void> }) {
  const { t } = useTranslation('callback');
  const [email, setEmail] = useState(setup.discord_email ?? '');
  const [username, setUsername] = useState(setup.discord_username ?? '');
  const [password, setPassword] = useState('');
  const [timezone, setTimezone] = useState(() => defaultTimezone());
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  function validate(): Errors {
    const found: Errors = {};
    if (!email.trim()) found.email = t('validation.emailRequired');
    else if (!EMAIL_PATTERN.test(email.trim())) found.email = t('validation.emailInvalid');
    if (!username.trim()) found.username = t('validation.usernameRequired');
    if (!password) found.password = t('validation.passwordRequired');
    else if (password.length < MIN_PASSWORD_LENGTH) found.password = t('validation.passwordTooShort');
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      document.getElementById(`setup-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const response = await completeSetup({ account_id: setup.account_id, email: email.trim(), username: username.trim(), password, timezone });
      await onDone(response);
    } catch (err) {
      console.error('Setup failed', err);
      setFormError(errorMessage(err, t('errors.setupFailed')));
      setSaving(false);
    }
  }

  const aria = (field: Field) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `setup-${field}-error` : undefined,
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5" data-testid="setup-form">
      {formError && (
        <Alert variant="destructive" data-testid="setup-error">
          <AlertCircle />
          <span>{formError}</span>
        </Alert>
      )}
      <FieldBlock id="setup-email" label={t('setup.email')} error={errors.email}>
        <Input
          id="setup-email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={saving}
          placeholder={t('setup.emailPlaceholder')}
          {...aria('email')}
        />
      </FieldBlock>
      <FieldBlock id="setup-username" label={t('setup.username')} error={errors.username}>
        <Input id="setup-username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} disabled={saving} {...aria('username')} />
      </FieldBlock>
      <FieldBlock id="setup-password" label={t('setup.password')} error={errors.password}>
        <PasswordInput id="setup-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} disabled={saving} {...aria('password')} />
      </FieldBlock>
      <PasswordStrength password={password} className="rounded-lg border bg-muted/30 p-4" />
      <div className="space-y-2">
        <Label htmlFor="setup-timezone">{t('setup.timezone')}</Label>
        <TimezoneCombobox id="setup-timezone" value={timezone} onChange={setTimezone} disabled={saving} />
      </div>
      <Alert variant="info" data-testid="setup-tip">
        <Lightbulb />
        <span>{t('setup.tip')}</span>
      </Alert>
      <Button type="submit" size="lg" className="w-full" disabled={saving} data-testid="setup-submit">
        {saving && <Spinner />}
        {saving ? t('setup.submitting') : t('setup.submit')}
      </Button>
    </form>
  );
}
