import { AlertCircle, BellRing, Clock, CalendarClock, CheckCircle2, Globe2, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { PasswordStrength } from '@/components/password-strength';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { isSessionExpiredSearch } from '@/lib/return-to';
import { usePageTitle } from '@/lib/use-page-title';
import { SignInForm } from '../components/sign-in-form';
import { SignUpForm } from '../components/sign-up-form';

type Tab = 'signin' | 'signup';

const HIGHLIGHTS = [
  { icon: BellRing, key: 'panel.point1' },
  { icon: CalendarClock, key: 'panel.point2' },
  { icon: Globe2, key: 'panel.point3' },
] as const;

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const search = useSearch();
  // Sent here because the session ended by itself (not by a sign-out): say so.
  const expired = isSessionExpiredSearch(search);
  // "Get started" links here with ?tab=signup.
  const [tab, setTab] = useState<Tab>(() => (new URLSearchParams(search).get('tab') === 'signup' ? 'signup' : 'signin'));
  const [error, setShownError] = useState<string | null>(null);
  // Back from a password reset (/login?reset=done): say it worked.
  const [success, setSuccess] = useState<string | null>(() => (new URLSearchParams(window.location.search).get('reset') === 'done' ? t('signIn.resetDone') : null));
  const [registeredEmail, setRegisteredEmail] = useState('');
  const [password, setPassword] = useState('');
  // One message at a time: a failed sign-in replaces "your account is ready".
  const setError = (message: string | null) => {
    setShownError(message);
    if (message) setSuccess(null);
  };
  usePageTitle(tab === 'signin' ? t('common:pageTitle.signIn') : t('common:pageTitle.signUp'));

  function switchTo(next: Tab) {
    setTab(next);
    setError(null);
    if (next === 'signup') setSuccess(null);
  }

  return (
    <div className="relative">
      <div className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-80 bg-grid [mask-image:linear-gradient(to_bottom,black,transparent)]" />
      <div className="mx-auto grid max-w-6xl items-start gap-10 px-4 py-10 sm:px-6 sm:py-16 lg:grid-cols-[minmax(0,1fr)_380px] lg:px-8">
        <Card className="mx-auto w-full max-w-xl gap-4 shadow-lg shadow-black/5 lg:mx-0 lg:justify-self-end">
          <CardHeader>
            <CardTitle className="text-2xl">{tab === 'signin' ? t('signIn.title') : t('signUp.title')}</CardTitle>
            <CardDescription>{tab === 'signin' ? t('signIn.subtitle') : t('signUp.subtitle')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-5">
            <Tabs value={tab} onValueChange={(v) => switchTo(v as Tab)}>
              <TabsList className="grid w-full grid-cols-2">
                <TabsTrigger value="signin" data-testid="tab-signin">
                  {t('tabs.signIn')}
                </TabsTrigger>
                <TabsTrigger value="signup" data-testid="tab-signup">
                  {t('tabs.signUp')}
                </TabsTrigger>
              </TabsList>

              {expired && tab === 'signin' && (
                <Alert variant="info" data-testid="session-expired">
                  <Clock />
                  <span>{t('signIn.sessionExpired')}</span>
                </Alert>
              )}
              {error && (
                <Alert variant="destructive" data-testid="auth-error">
                  <AlertCircle />
                  <span>{error}</span>
                </Alert>
              )}
              {success && tab === 'signin' && (
                <Alert variant="success" data-testid="auth-success">
                  <CheckCircle2 />
                  <span>{success}</span>
                </Alert>
              )}

              <TabsContent value="signin" className="mt-1">
                <SignInForm key={registeredEmail} initialEmail={registeredEmail} onError={setError} />
              </TabsContent>
              <TabsContent value="signup" className="mt-1">
                <SignUpForm
                  onError={setError}
                  onPasswordChange={setPassword}
                  onRegistered={(email) => {
                    setRegisteredEmail(email);
                    setSuccess(t('signUp.success'));
                    setError(null);
                    setTab('signin');
                  }}
                />
              </TabsContent>
            </Tabs>
            <p className="text-center text-sm text-muted-foreground">
              {tab === 'signin' ? t('switch.noAccount') : t('switch.haveAccount')}{' '}
              <button
                type="button"
                className="font-medium text-primary underline-offset-4 hover:underline"
                onClick={() => switchTo(tab === 'signin' ? 'signup' : 'signin')}
                data-testid="switch-link"
              >
                {tab === 'signin' ? t('switch.toSignUp') : t('switch.toSignIn')}
              </button>
            </p>
          </CardContent>
        </Card>

        <aside className="hidden lg:block">
          {tab === 'signup' ? (
            <Card className="gap-4" data-testid="password-strength-panel">
              <CardHeader>
                <CardTitle className="flex items-center gap-2 text-base">
                  <ShieldCheck className="size-5 text-primary" />
                  {t('panel.strengthTitle')}
                </CardTitle>
                <CardDescription>{t('panel.strengthHint')}</CardDescription>
              </CardHeader>
              <CardContent>
                <PasswordStrength password={password} />
              </CardContent>
            </Card>
          ) : (
            <div className="relative overflow-hidden rounded-xl bg-brand-gradient p-8 text-white shadow-xl shadow-primary/20">
              <div className="pointer-events-none absolute inset-0 bg-grid opacity-15" />
              <h2 className="relative text-xl font-semibold">{t('panel.title')}</h2>
              <p className="relative mt-2 text-sm text-white/80">{t('panel.subtitle')}</p>
              <ul className="relative mt-6 space-y-4">
                {HIGHLIGHTS.map(({ icon: Icon, key }) => (
                  <li key={key} className="flex items-start gap-3 text-sm">
                    <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-white/15">
                      <Icon className="size-4" />
                    </span>
                    <span className="pt-1.5">{t(key)}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </aside>
      </div>
    </div>
  );
}
