import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { DEFAULT_AFTER_LOGIN, rememberReturnPath, returnPathFromSearch } from '@/lib/return-to';
import { sleep } from '@/lib/utils';
import { loginRequest } from '../api/auth-api';
import { DiscordButton } from './discord-button';
import { FormField } from './form-field';
import { Spinner } from '@/components/ui/spinner';

export const POST_LOGIN_DELAY_MS = 100;

export function SignInForm({ initialEmail = '', onError }: { initialEmail?: string; onError: (message: string | null) => void }) {
  const { t } = useTranslation('auth');
  const { login } = useAuth();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [loading, setLoading] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    onError(null);
    setLoading(true);
    try {
      const response = await loginRequest({ email: email.trim(), password, remember_me: rememberMe });
      login(response);
      // Back to the page an expired session interrupted (/login?next=...), else the greeting.
      const back = returnPathFromSearch(window.location.search);
      rememberReturnPath(null);
      await sleep(POST_LOGIN_DELAY_MS);
      if (back) navigate(back, { replace: true });
      else navigate(DEFAULT_AFTER_LOGIN);
    } catch (err) {
      console.error('Login failed', err);
      onError(errorMessage(err, t('errors.loginFailed')));
      setLoading(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5" data-testid="sign-in-form">
      <FormField id="signin-email" label={t('fields.email')}>
        <Input
          id="signin-email"
          type="email"
          autoComplete="email"
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
          placeholder="••••••••"
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
      <DiscordButton onError={onError} />
    </form>
  );
}
