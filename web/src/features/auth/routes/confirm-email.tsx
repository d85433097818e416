import { AlertCircle, CheckCircle2, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { usePageTitle } from '@/lib/use-page-title';
import { confirmEmailAddress } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { Spinner } from '@/components/ui/spinner';

/**
 * The page a confirmation link opens (/confirm-email?token=...). Confirming takes a click, not
 * the page load: mail scanners that open links must not confirm an address for its reader.
 */
export default function ConfirmEmailPage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('common:pageTitle.confirmEmail'));
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  const [state, setState] = useState<{ status: 'idle' | 'sending' } | { status: 'done'; address: string } | { status: 'error'; message: string }>({ status: 'idle' });

  async function confirm() {
    setState({ status: 'sending' });
    try {
      const { address } = await confirmEmailAddress(token);
      setState({ status: 'done', address });
    } catch (err) {
      setState({ status: 'error', message: errorMessage(err) });
    }
  }

  return (
    <AuthCard title={t('confirmEmail.title')} description={state.status === 'done' ? undefined : t('confirmEmail.subtitle')} back={{ href: '/', label: t('confirmEmail.home') }} testId="confirm-email">
      {state.status === 'done' ? (
        <Alert variant="success" data-testid="confirm-email-done">
          <CheckCircle2 />
          <span>{t('confirmEmail.done', { address: state.address })}</span>
        </Alert>
      ) : (
        <>
          {state.status === 'error' && (
            <Alert variant="destructive" data-testid="auth-error">
              <AlertCircle />
              <span>{state.message}</span>
            </Alert>
          )}
          {!token && (
            <Alert variant="destructive" data-testid="auth-error">
              <AlertCircle />
              <span>{t('confirmEmail.noToken')}</span>
            </Alert>
          )}
          <p className="text-sm text-muted-foreground">{t('confirmEmail.ignore')}</p>
          <Button type="button" className="w-full" size="lg" disabled={!token || state.status === 'sending'} onClick={() => void confirm()} data-testid="confirm-email-submit">
            {state.status === 'sending' ? <Spinner /> : <MailCheck />}
            {t('confirmEmail.submit')}
          </Button>
        </>
      )}
    </AuthCard>
  );
}
