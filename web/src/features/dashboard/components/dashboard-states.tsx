import { AlertCircle, BellPlus, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/** Placeholder shaped like the loaded dashboard, so nothing jumps when data arrives. */
export function DashboardSkeleton() {
  const { t } = useTranslation('dashboard');
  return (
    <div className="space-y-6" role="status" aria-live="polite" data-testid="dashboard-loading">
      <span className="sr-only">{t('loading')}</span>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Card key={i} className="gap-3 px-5 py-5">
            <div className="flex items-center justify-between">
              <Skeleton className="h-4 w-28" />
              <Skeleton className="size-9 rounded-lg" />
            </div>
            <Skeleton className="h-8 w-16" />
            <Skeleton className="h-4 w-40" />
          </Card>
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(320px,400px)]">
        <Card className="hidden gap-0 py-0 lg:flex">
          <div className="flex items-center justify-between border-b px-4 py-3">
            <Skeleton className="h-7 w-40" />
            <Skeleton className="h-8 w-52" />
          </div>
          <div className="grid grid-cols-7 gap-px p-2">
            {Array.from({ length: 42 }, (_, i) => (
              <Skeleton key={i} className="h-24 rounded-sm opacity-60" />
            ))}
          </div>
        </Card>
        <Card className="gap-3 px-4 py-4">
          <Skeleton className="h-6 w-36" />
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="space-y-2.5 rounded-lg border p-3.5">
              <div className="flex justify-between gap-3">
                <Skeleton className="h-5 w-3/5" />
                <Skeleton className="h-5 w-14 rounded-full" />
              </div>
              <Skeleton className="h-4 w-4/5" />
              <Skeleton className="h-5 w-24 rounded-full" />
            </div>
          ))}
        </Card>
      </div>
    </div>
  );
}

/** The server's message, or "Failed to fetch data", in a red card (docs/dashboard.md "Errors"). */
export function DashboardError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card className="items-center gap-4 border-destructive/40 bg-destructive/5 px-6 py-10 text-center dark:bg-destructive/10" role="alert" data-testid="dashboard-error">
      <span className="flex size-12 items-center justify-center rounded-full bg-destructive/12 text-destructive">
        <AlertCircle className="size-6" aria-hidden />
      </span>
      <div className="space-y-1">
        <p className="text-lg font-semibold text-destructive" data-testid="dashboard-error-message">
          {message}
        </p>
        <p className="text-sm text-muted-foreground">{t('error.hint')}</p>
      </div>
      <Button variant="outline" onClick={onRetry}>
        <RotateCw />
        {t('error.retry')}
      </Button>
    </Card>
  );
}

export function EmptyState() {
  const { t } = useTranslation('dashboard');
  return (
    <Card className="items-center gap-5 border-dashed bg-card/60 px-6 py-14 text-center" data-testid="dashboard-empty">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-brand-gradient text-white shadow-lg shadow-primary/25">
        <BellPlus className="size-7" aria-hidden />
      </span>
      <div className="max-w-sm space-y-2">
        <h2 className="text-xl font-semibold tracking-tight">{t('empty.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('empty.description')}</p>
      </div>
      <Button variant="brand" size="lg" asChild>
        <Link href="/reminders/create" data-testid="empty-create">
          <BellPlus />
          {t('empty.create')}
        </Link>
      </Button>
    </Card>
  );
}
