import { AlertCircle, CheckCircle2, Info } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/layout/page-shell';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { usePageTitle } from '@/lib/use-page-title';
import { requestPasswordReset, usePublicConfig } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { FormField } from '../components/form-field';
import { Spinner } from '@/components/ui/spinner';

/**
 * "Forgot password?": asks for the email and mails a link, with the same answer whether an
 * account uses it. A server without SMTP cannot mail: the page says to ask its administrator.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('common:pageTitle.forgotPassword'));
  const config = usePublicConfig();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [noMail, setNoMail] = useState(false);
  const [loading, setLoading] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setLoading(true);
    try {
      await requestPasswordReset(email.trim());
      setSentTo(email.trim());
    } catch (err) {
      // The server lost its SMTP settings since the page loaded: same explanation as without them.
      if (err instanceof ApiError && err.code === 'MAIL_NOT_CONFIGURED') setNoMail(true);
      else setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  }

  if (!config.data && !config.error) return <PageLoader />;
  const back = { href: '/login', label: t('forgot.back') };

  if (noMail || config.data?.email?.configured === false) {
    return (
      <AuthCard title={t('forgot.title')} back={back} testId="forgot-password">
        <Alert variant="info" data-testid="forgot-no-mail">
          <Info />
          <div className="space-y-2">
            <p className="font-medium">{t('forgot.noMail.title')}</p>
            <p>{t('forgot.noMail.body')}</p>
          </div>
        </Alert>
      </AuthCard>
    );
  }

  if (sentTo) {
    return (
      <AuthCard title={t('forgot.sentTitle')} back={back} testId="forgot-password">
        <Alert variant="success" data-testid="forgot-sent">
          <CheckCircle2 />
          <div className="space-y-2">
            <p>{t('forgot.sent', { email: sentTo })}</p>
            <p className="text-foreground/80">{t('forgot.sentHint')}</p>
          </div>
        </Alert>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('forgot.title')} description={t('forgot.subtitle')} back={back} testId="forgot-password">
      {error && (
        <Alert variant="destructive" data-testid="auth-error">
          <AlertCircle />
          <span>{error}</span>
        </Alert>
      )}
      <form onSubmit={(e) => void submit(e)} className="space-y-5" data-testid="forgot-form">
        <FormField id="forgot-email" label={t('fields.email')}>
          <Input
            id="forgot-email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder={t('fields.emailPlaceholder')}
          />
        </FormField>
        <Button type="submit" className="w-full" size="lg" disabled={loading || !email.trim()} data-testid="forgot-submit">
          {loading && <Spinner />}
          {loading ? t('forgot.submitting') : t('forgot.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
