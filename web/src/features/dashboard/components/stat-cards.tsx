import { Activity, BellRing, Globe2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card';
import type { Account, Reminder } from '@/lib/api/reminders';
import { formatDate } from '@/lib/format';
import { timeZoneLabel } from '@/lib/time-zone-label';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';
import { useNow } from '../lib/use-now';

interface StatCardsProps {
  reminders: Reminder[];
  account: Account | undefined;
  zone: string;
}

/** The three cards above the calendar; rendered only when at least one reminder exists. */
export function StatCards({ reminders, account, zone }: StatCardsProps) {
  const { t } = useTranslation('dashboard');
  const now = useNow();
  // "Active" counts what will still fire; the API's status says exactly that (not paused, a next
  // firing exists; docs/dashboard.md "Dashboard and calendar").
  const active = reminders.filter((r) => reminderStatus(r) === 'active').length;
  const paused = reminders.filter((r) => reminderStatus(r) === 'paused').length;
  const discord = account?.identities?.some((i) => i.provider === 'discord') ?? false;

  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3" data-testid="stat-cards">
      <StatCard
        icon={<BellRing />}
        label={t('stats.total')}
        value={reminders.length}
        testId="stat-total"
        detail={
          <span className="flex flex-wrap gap-x-2">
            <span>{t('stats.activeCount', { count: active })}</span>
            {paused > 0 && <span>· {t('stats.pausedCount', { count: paused })}</span>}
          </span>
        }
      />
      <StatCard
        icon={<Activity />}
        label={t('stats.active')}
        value={active}
        testId="stat-active"
        detail={
          <span className="flex flex-col gap-0.5 sm:flex-row sm:flex-wrap sm:gap-x-3">
            <span className="inline-flex items-center gap-1.5" data-testid="stat-account-status">
              <span className="size-2 rounded-full bg-success" aria-hidden />
              {t('stats.accountActive')}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <span className={cn('size-2 rounded-full', discord ? 'bg-[#5865F2]' : 'bg-muted-foreground/40')} aria-hidden />
              {discord ? t('stats.discordConnected') : t('stats.discordNotConnected')}
            </span>
          </span>
        }
      />
      <StatCard
        icon={<Globe2 />}
        label={t('stats.timezone')}
        value={
          <span className="text-xl break-words lg:text-2xl" title={zone}>
            {timeZoneLabel(zone, new Date(now))}
          </span>
        }
        testId="stat-timezone"
        className="col-span-2 lg:col-span-1"
        detail={
          <span data-testid="stat-today">{formatDate(now, zone, 'full')}</span>
        }
      />
    </div>
  );
}

function StatCard({
  icon,
  label,
  value,
  detail,
  testId,
  className,
}: {
  icon: ReactNode;
  label: string;
  value: ReactNode;
  detail: ReactNode;
  testId: string;
  className?: string;
}) {
  return (
    <Card className={cn('relative gap-2 overflow-hidden px-4 py-4 sm:gap-3 sm:px-5 sm:py-5', className)} data-testid={testId}>
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:size-9 [&>svg]:size-4" aria-hidden>
          {icon}
        </span>
      </div>
      <div className="text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl" data-testid={`${testId}-value`}>
        {value}
      </div>
      <div className="text-sm text-muted-foreground">{detail}</div>
    </Card>
  );
}
