import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect } from 'wouter';
import { useAuth } from '@/lib/auth';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * Landing spot after any successful sign-in (docs/dashboard.md "Session"). It used to hold a
 * "you're signed in" screen for 1.2 s on a timer before moving on; now it goes to the dashboard at
 * once and says hello there, in a toast.
 */
export default function WelcomePage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('common:pageTitle.welcome'));
  const { user } = useAuth();
  const greeted = useRef(false);

  useEffect(() => {
    if (greeted.current) return;
    greeted.current = true;
    const greeting = user?.username ? t('welcome.greeting', { name: user.username }) : t('welcome.greetingAnonymous');
    // sonner comes with the lazily loaded toaster: keep it out of the first page load.
    void import('sonner').then(({ toast }) => toast.success(greeting, { id: 'welcome', description: t('welcome.title'), testId: 'welcome' }));
  }, [t, user?.username]);

  return <Redirect to="/home" replace />;
}
