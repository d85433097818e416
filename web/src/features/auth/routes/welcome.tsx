import { ArrowRight, CheckCircle2 } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { PageContainer } from '@/components/layout/page-shell';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';

/** Landing spot after any successful sign-in: confirms it, then moves on to the dashboard. */
export const WELCOME_REDIRECT_MS = 1200;

export default function WelcomePage() {
  const { t } = useTranslation('auth');
  const { user } = useAuth();
  const [, setLocation] = useLocation();

  useEffect(() => {
    const timer = setTimeout(() => setLocation('/home', { replace: true }), WELCOME_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [setLocation]);

  return (
    <PageContainer size="md" className="flex min-h-[60vh] items-center justify-center">
      <div className="flex max-w-md flex-col items-center text-center animate-fade-in" data-testid="welcome">
        <span className="mb-6 grid size-16 place-items-center rounded-full bg-success/15 text-success">
          <CheckCircle2 className="size-8" />
        </span>
        <h1 className="text-3xl font-semibold tracking-tight">{t('welcome.title')}</h1>
        <p className="mt-3 text-muted-foreground">
          {user?.username ? t('welcome.greeting', { name: user.username }) : t('welcome.greetingAnonymous')}
        </p>
        <p className="mt-1 text-sm text-muted-foreground">{t('welcome.redirecting')}</p>
        <div className="mt-6 h-1 w-48 overflow-hidden rounded-full bg-muted">
          <div className="h-full origin-left animate-[grow_1.2s_linear_forwards] bg-primary" />
        </div>
        <Button asChild variant="outline" className="mt-8">
          <Link href="/home" replace>
            {t('welcome.goNow')}
            <ArrowRight />
          </Link>
        </Button>
      </div>
    </PageContainer>
  );
}
