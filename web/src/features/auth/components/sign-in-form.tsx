import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { loginRequest, twoFactorLoginRequest } from '../api/auth-api';
import { DiscordButton } from './discord-button';
import { PasskeyButton } from './passkey-sign-in';
import { FormField } from './form-field';
import { useFinishSignIn } from './use-finish-sign-in';
import { Spinner } from '@/components/ui/spinner';

export function SignInForm({ initialEmail = '', onError }: { initialEmail?: string; onError: (message: string | null) => void }) {
  const { t } = useTranslation('auth');
  const { t: ts } = useTranslation('security');
  const signedIn = useFinishSignIn();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [loading, setLoading] = useState(false);
  // Two-factor codes on: the password was right, the code is asked next (docs/security.md).
  const [ticket, setTicket] = useState<string | null>(null);
  const [code, setCode] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    onError(null);
    setLoading(true);
    try {
      const response = await loginRequest({ email: email.trim(), password, remember_me: rememberMe });
      if ('two_factor_required' in response) {
        setTicket(response.ticket);
        setLoading(false);
        return;
      }
      await signedIn(response);
    } catch (err) {
      console.error('Login failed', err);
      onError(errorMessage(err, t('errors.loginFailed')));
      setLoading(false);
    }
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    if (!ticket) return;
    onError(null);
    setLoading(true);
    try {
      await signedIn(await twoFactorLoginRequest(ticket, code.trim()));
    } catch (err) {
      onError(errorMessage(err, t('errors.loginFailed')));
      setLoading(false);
    }
  }

  if (ticket) {
    return (
      <form onSubmit={(e) => void submitCode(e)} className="space-y-5" data-testid="two-factor-form">
        <p className="text-sm text-muted-foreground">{ts('signIn.codeHint')}</p>
        <FormField id="signin-code" label={ts('signIn.code')}>
          <Input
            id="signin-code"
            autoComplete="one-time-code"
            required
            autoFocus
            maxLength={40}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="123456"
            data-testid="two-factor-code"
          />
        </FormField>
        <Button type="submit" className="w-full" size="lg" disabled={loading} data-testid="two-factor-submit">
          {loading && <Spinner />}
          {ts('signIn.verify')}
        </Button>
        <Button
          type="button"
          variant="ghost"
          className="w-full"
          onClick={() => {
            setTicket(null);
            setCode('');
            onError(null);
          }}
        >
          {ts('signIn.back')}
        </Button>
      </form>
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5" data-testid="sign-in-form">
      <FormField id="signin-email" label={t('fields.email')}>
        <Input
          id="signin-email"
          type="email"
          // "webauthn": the browser offers this site's passkeys in the field's suggestions (conditional UI).
          autoComplete="username webauthn"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder={t('fields.emailPlaceholder')}
        />
      </FormField>
      <FormField
        id="signin-password"
        label={t('fields.password')}
        aside={
          <Link href="/forgot-password" className="text-xs font-medium text-primary underline-offset-4 hover:underline" data-testid="forgot-password-link">
            {t('signIn.forgotPassword')}
          </Link>
        }
      >
        <PasswordInput
          id="signin-password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </FormField>
      <div className="flex items-center gap-2">
        <Checkbox id="signin-remember" checked={rememberMe} onCheckedChange={(v) => setRememberMe(v === true)} />
        <Label htmlFor="signin-remember" className="font-normal text-muted-foreground">
          {t('signIn.rememberMe')}
        </Label>
      </div>
      <Button type="submit" className="w-full" size="lg" disabled={loading} data-testid="sign-in-submit">
        {loading && <Spinner />}
        {loading ? t('signIn.submitting') : t('signIn.submit')}
      </Button>
      <div className="relative flex items-center py-1 text-xs text-muted-foreground uppercase">
        <span className="h-px flex-1 bg-border" />
        <span className="px-3">{t('signIn.or')}</span>
        <span className="h-px flex-1 bg-border" />
      </div>
      <PasskeyButton onError={onError} />
      <DiscordButton onError={onError} />
    </form>
  );
}
