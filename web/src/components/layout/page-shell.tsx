import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { Footer } from './footer';
import { Header } from './header';

/** Header + content + footer. Every route renders inside it (see app/router.tsx). */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
    </div>
  );
}

export interface PageContainerProps {
  children: ReactNode;
  className?: string;
  /** max width: 'md' (forms), 'lg' (default), 'xl' (dashboard) */
  size?: 'md' | 'lg' | 'xl';
}

/** Centered content column with the standard page padding. */
export function PageContainer({ children, className, size = 'lg' }: PageContainerProps) {
  const width = size === 'md' ? 'max-w-3xl' : size === 'lg' ? 'max-w-5xl' : 'max-w-7xl';
  return <div className={cn('mx-auto w-full px-4 py-8 sm:px-6 sm:py-12 lg:px-8', width, className)}>{children}</div>;
}

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right (stacked under the title on mobile). */
  actions?: ReactNode;
  className?: string;
}

export function PageHeader({ title, description, actions, className }: PageHeaderProps) {
  return (
    <div className={cn('mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div className="space-y-1.5">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        {description && <p className="text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** Full-page loading placeholder (auth check, lazy route loading). */
export function PageLoader() {
  const { t } = useTranslation('common');
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status" aria-live="polite" data-testid="page-loader">
      <span className="size-8 animate-spin rounded-full border-2 border-primary/25 border-t-primary" />
      <span className="sr-only">{t('status.loading')}</span>
    </div>
  );
}
