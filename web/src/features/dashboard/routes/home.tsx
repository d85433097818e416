import { Plus, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { Button } from '@/components/ui/button';
import { errorMessage, isNetworkError } from '@/lib/api-client';
import { Alert } from '@/components/ui/alert';
import { useAccount, useDeliveryErrors, useReminders } from '@/lib/api/reminders';
import { MonthCalendar } from '../components/calendar/month-calendar';
import { DashboardError, DashboardSkeleton, EmptyState } from '../components/dashboard-states';
import { DeliveryProblems } from '../components/delivery-problems';
import { ReminderList } from '../components/reminder-list';
import { StatCards } from '../components/stat-cards';
import { accountZone } from '../lib/reminder-display';
import { usePageTitle } from '@/lib/use-page-title';
import { useOnline } from '@/lib/use-online';

/** /home (docs/dashboard.md "Dashboard and calendar"). */
export default function HomePage() {
  const { t } = useTranslation('dashboard');
  usePageTitle(t('common:pageTitle.dashboard'));
  const reminders = useReminders();
  const online = useOnline();
  const account = useAccount();
  // The delivery problems are empty on failure, so their error is never shown (docs/dashboard.md "Errors").
  const deliveryErrors = useDeliveryErrors();

  // Dates are shown in the account zone: wait for it (a failed account call falls back to UTC).
  const accountPending = account.data === undefined && account.error === undefined;
  const zone = accountZone(account.data);

  let content;
  if (reminders.error && !reminders.data) {
    content = <DashboardError message={errorMessage(reminders.error, isNetworkError(reminders.error) ? t('common:errors.NETWORK_ERROR') : t('error.fetchFailed'))} onRetry={() => void reminders.mutate()} />;
  } else if (!reminders.data || accountPending) {
    content = <DashboardSkeleton />;
  } else {
    const list = reminders.data;
    content = (
      <div className="space-y-6" data-testid="dashboard">
        {/* A refresh that failed keeps what was loaded: say it may be out of date. */}
        {(reminders.error || !online) && (
          <Alert data-testid="dashboard-stale" className="border-warning/40 bg-warning/10">
            <WifiOff className="text-amber-600 dark:text-warning" />
            <span>{!online || isNetworkError(reminders.error) ? t('stale.offline') : t('stale.failed')}</span>
          </Alert>
        )}
        {list.length > 0 && <StatCards reminders={list} account={account.data} zone={zone} />}
        <DeliveryProblems errors={deliveryErrors.data ?? []} reminders={list} zone={zone} />
        {/* One column below lg that never grows past the screen: a long rule in words truncates instead. */}
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(320px,400px)] lg:items-start">
          {/* Below lg the list (the main content) comes first and the calendar becomes a day list. */}
          <MonthCalendar reminders={list} zone={zone} className="order-2 min-w-0 lg:order-1" />
          <div className="order-1 min-w-0 lg:order-2">{list.length > 0 ? <ReminderList reminders={list} zone={zone} /> : <EmptyState />}</div>
        </div>
      </div>
    );
  }

  return (
    <PageContainer size="xl" className="sm:py-10">
      <PageHeader
        title={t('title')}
        description={t('subtitle')}
        className="mb-6"
        actions={
          <Button variant="brand" asChild>
            <Link href="/reminders/create" data-testid="new-reminder">
              <Plus />
              {t('newReminder')}
            </Link>
          </Button>
        }
      />
      {content}
    </PageContainer>
  );
}
