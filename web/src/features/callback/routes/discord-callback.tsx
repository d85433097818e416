import { ArrowLeft, CircleAlert, UserRoundCog } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { navigate } from 'wouter/use-browser-location';
import { PageContainer } from '@/components/layout/page-shell';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { DiscordIcon } from '@/components/ui/discord-icon';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { DEFAULT_AFTER_LOGIN, takeReturnPath } from '@/lib/return-to';
import { getUser, isAuthenticated, type LoginResponse } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';
import { sleep } from '@/lib/utils';
import { DISCORD_LINK_MARKER } from '@/lib/discord-link';
import { exchangeCode, isSetupRequired, type SetupRequired } from '../api/callback-api';
import { ProfileCompletionForm } from '../components/profile-completion-form';

/** Wait 100 ms after a successful sign-in before going to /welcome, or back to the page an expired session left (docs/dashboard.md "Session"). */
const POST_LOGIN_DELAY_MS = 100;

/** `conflict`: a signed-in user tried to connect a Discord account another Chime account already has. */
type View = { kind: 'loading' } | { kind: 'error'; message: string; conflict?: boolean } | { kind: 'setup'; setup: SetupRequired };

function takeLinkMarker(): string | null {
  try {
    const value = sessionStorage.getItem(DISCORD_LINK_MARKER);
    sessionStorage.removeItem(DISCORD_LINK_MARKER);
    return value;
  } catch {
    return null;
  }
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="relative">
      <div className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-72 bg-grid [mask-image:linear-gradient(to_bottom,black,transparent)]" />
      <PageContainer size="md" className="flex min-h-[60vh] max-w-xl items-start justify-center sm:items-center">
        {children}
      </PageContainer>
    </div>
  );
}

export default function DiscordCallbackPage() {
  const { t } = useTranslation('callback');
  usePageTitle(t('common:pageTitle.discordSignIn'));
  const { login, isAuthenticated: authed } = useAuth();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const started = useRef(false);

  async function finish(response: LoginResponse, isLink: boolean) {
    login(response);
    // Kept by the login page before it left for Discord; taken either way so it cannot outlive this sign-in.
    const back = takeReturnPath();
    if (isLink) {
      toast.success(t('linked'));
      // Back where the link started (the wizard keeps its draft for this), else the account page.
      navigate(back ?? '/account', { replace: true });
      return;
    }
    await sleep(POST_LOGIN_DELAY_MS);
    navigate(back ?? DEFAULT_AFTER_LOGIN, { replace: true });
  }

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const params = new URLSearchParams(window.location.search);
    const oauthError = params.get('error');
    const code = params.get('code');
    if (oauthError) {
      takeLinkMarker();
      takeReturnPath();
      setView({ kind: 'error', message: t('errors.discordError', { error: oauthError }) });
      return;
    }
    if (!code) {
      takeLinkMarker();
      takeReturnPath();
      setView({ kind: 'error', message: t('errors.noCode') });
      return;
    }
    // A signed-in user who connected Discord gets a login answer for the same account: that is a link.
    const before = isAuthenticated() ? getUser() : null;
    const marker = takeLinkMarker();
    exchangeCode(code, params.get('state'))
      .then(async (response) => {
        if (isSetupRequired(response)) {
          setView({ kind: 'setup', setup: response });
          return;
        }
        if (!response?.token) throw new Error(t('errors.authFailed'));
        const isLink = (marker !== null && marker === response.id) || (before !== null && before.user_id === response.id);
        await finish(response, isLink);
      })
      .catch((err: unknown) => {
        console.error('Discord authentication failed', err);
        if (err instanceof ApiError && err.code === 'DISCORD_ALREADY_LINKED' && isAuthenticated()) {
          setView({ kind: 'error', message: t('conflict.description'), conflict: true });
          return;
        }
        setView({ kind: 'error', message: errorMessage(err, t('errors.authFailed')) });
      });
    // Runs once per visit: the code is single-use.
  }, []);

  if (view.kind === 'loading') {
    return (
      <Shell>
        <div className="flex flex-col items-center gap-5 text-center animate-fade-in" role="status" aria-live="polite" data-testid="callback-loading">
          <span className="relative grid size-16 place-items-center rounded-2xl bg-[#5865F2] text-white shadow-lg shadow-[#5865F2]/30">
            <DiscordIcon className="size-8" />
            <span className="absolute -inset-1.5 animate-spin rounded-[1.2rem] border-2 border-transparent border-t-[#5865F2]/70" aria-hidden="true" />
          </span>
          <div className="space-y-1">
            <h1 className="text-xl font-semibold tracking-tight">{t('loading.title')}</h1>
            <p className="text-sm text-muted-foreground">{t('loading.description')}</p>
          </div>
        </div>
      </Shell>
    );
  }

  if (view.kind === 'error') {
    return (
      <Shell>
        <Card className="w-full gap-5 text-center animate-fade-in" data-testid="callback-error">
          <CardHeader className="items-center">
            <span className="mb-2 grid size-14 place-items-center rounded-full bg-destructive/10 text-destructive">
              <CircleAlert className="size-7" />
            </span>
            <CardHeading level={1} className="text-xl" data-testid="callback-error-title">
              {view.conflict ? t('conflict.title') : t('error.title')}
            </CardHeading>
            <CardDescription className="text-base text-foreground/80" data-testid="callback-error-message">
              {view.message}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 sm:flex-row sm:justify-center">
            {/* A signed-in user came from the account page: that is where they go back to. */}
            {authed ? (
              <Button onClick={() => navigate('/account', { replace: true })} data-testid="back-to-account">
                <ArrowLeft />
                {t('error.backToAccount')}
              </Button>
            ) : (
              <Button onClick={() => navigate('/login', { replace: true })} data-testid="back-to-login">
                <ArrowLeft />
                {t('error.backToLogin')}
              </Button>
            )}
          </CardContent>
        </Card>
      </Shell>
    );
  }

  return (
    <Shell>
      <Card className="w-full gap-6 animate-fade-in shadow-lg shadow-black/5" data-testid="callback-setup">
        <CardHeader className="gap-3">
          <div className="flex items-center gap-3">
            <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-[#5865F2] text-white">
              <DiscordIcon className="size-6" />
            </span>
            <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
              <UserRoundCog className="size-5" />
            </span>
          </div>
          <CardHeading level={1} className="text-2xl">{t('setup.title')}</CardHeading>
          <CardDescription>{t('setup.subtitle', { name: view.setup.discord_username })}</CardDescription>
        </CardHeader>
        <CardContent>
          <ProfileCompletionForm setup={view.setup} onDone={(response) => finish(response, false)} />
        </CardContent>
      </Card>
    </Shell>
  );
}
