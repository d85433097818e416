import { AlertCircle, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { navigate } from 'wouter/use-browser-location';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { type Account, useAccount, useCapabilities } from '@/lib/api/reminders';
import { clearSession, WAS_AUTHENTICATED_KEY } from '@/lib/session';
import { normalizeTimezone } from '@/lib/timezones';
import { sleep } from '@/lib/utils';
import { ACCOUNT_DELETED_REDIRECT_MS } from '../api/account-api';
import { ApiTokensCard } from '../api-tokens/api-tokens-card';
import { PasskeysCard } from '../passkeys/passkeys-card';
import { SessionsCard } from '../sessions/sessions-card';
import { TwoFactorCard } from '../two-factor/two-factor-card';
import { AccountInfoCard } from '../components/account-info-card';
import { CalendarFeedCard } from '../components/calendar-feed-card';
import { ChangePasswordCard } from '../components/change-password-card';
import { DeleteAccountCard } from '../components/delete-account-card';
import { IdentitiesCard } from '../components/identities-card';
import { ImportExportCard } from '../components/import-export-card';
import { TimezoneCard } from '../components/timezone-card';
import { usePageTitle } from '@/lib/use-page-title';

function AccountSkeleton() {
  const { t } = useTranslation('common');
  return (
    <div className="space-y-6" role="status" aria-live="polite" data-testid="account-loading">
      <span className="sr-only">{t('status.loading')}</span>
      <Skeleton className="h-56 w-full rounded-xl" />
      <Skeleton className="h-36 w-full rounded-xl" />
      <Skeleton className="h-48 w-full rounded-xl" />
    </div>
  );
}

export default function AccountPage() {
  const { t } = useTranslation('account');
  usePageTitle(t('common:pageTitle.account'));
  const { data: account, error, isLoading, mutate } = useAccount();
  const { data: capabilities, mutate: mutateCapabilities } = useCapabilities();

  const onUpdated = (next: Account | undefined) => {
    void mutate(next ?? undefined, { revalidate: !next });
  };

  async function onDeleted() {
    toast.success(t('danger.deleted'));
    // Log out and go to the landing page after 1 s (docs/dashboard.md "Forms"). The session is already gone
    // on the server; clear it here without the "signed out elsewhere" redirect to /login.
    await sleep(ACCOUNT_DELETED_REDIRECT_MS);
    try {
      sessionStorage.removeItem(WAS_AUTHENTICATED_KEY);
    } catch {
      /* ignore */
    }
    clearSession();
    navigate('/', { replace: true });
  }

  const hasApp = Boolean(capabilities?.hasAppIdentity ?? account?.identities.some((i) => i.provider === 'app'));
  const timezone = normalizeTimezone(account?.timezone);

  return (
    <PageContainer size="md">
      <PageHeader title={t('title')} description={t('subtitle')} />
      {error && !account ? (
        <Alert variant="destructive" className="items-center" data-testid="account-error">
          <AlertCircle />
          <span className="flex-1">{t('errors.load')}</span>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              void mutate();
              void mutateCapabilities();
            }}
          >
            <RotateCw />
            {t('actions.retry')}
          </Button>
        </Alert>
      ) : isLoading || !account ? (
        <AccountSkeleton />
      ) : (
        <div className="space-y-6 animate-fade-in" data-testid="account-page">
          <AccountInfoCard account={account} timezone={timezone} onUpdated={onUpdated} />
          <TimezoneCard timezone={timezone} onUpdated={onUpdated} />
          <IdentitiesCard account={account} capabilities={capabilities} />
          {hasApp && <ChangePasswordCard />}
          {hasApp && <TwoFactorCard />}
          <PasskeysCard />
          <CalendarFeedCard />
          <ImportExportCard />
          <SessionsCard />
          <ApiTokensCard />
          <DeleteAccountCard onDeleted={() => void onDeleted()} />
        </div>
      )}
    </PageContainer>
  );
}
