import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { AppLayout, PageLoader } from '@/components/layout/page-shell';
// Eager: /welcome only forwards to /home, so it must not cost a chunk download of its own.
import Welcome from '@/features/auth/routes/welcome';
import { useAuth } from '@/lib/auth';
import { currentReturnPath, expiredLoginPath } from '@/lib/return-to';

/*
 * Routes (docs/dashboard.md "Screens and routes"). Each screen is a lazily loaded chunk so the landing page ships only
 * what it needs. Feature helpers: replace the route file, keep its default export.
 */
const Landing = lazy(() => import('@/features/landing/routes/landing'));
const Installation = lazy(() => import('@/features/info/routes/installation'));
const Contact = lazy(() => import('@/features/info/routes/contact'));
const Login = lazy(() => import('@/features/auth/routes/login'));
const ForgotPassword = lazy(() => import('@/features/auth/routes/forgot-password'));
const ResetPassword = lazy(() => import('@/features/auth/routes/reset-password'));
const ConfirmEmail = lazy(() => import('@/features/auth/routes/confirm-email'));
const Home = lazy(() => import('@/features/dashboard/routes/home'));
const CreateReminder = lazy(() => import('@/features/reminders/routes/create-reminder'));
const ReminderDetails = lazy(() => import('@/features/reminders/routes/reminder-details'));
const Account = lazy(() => import('@/features/account/routes/account'));
const Servers = lazy(() => import('@/features/servers/routes/servers'));
const Server = lazy(() => import('@/features/servers/routes/server'));
const DiscordCallback = lazy(() => import('@/features/callback/routes/discord-callback'));

/**
 * Signed-in only: anonymous visitors go to the landing page; a user whose session just expired
 * goes to /login, told why, and comes back here after signing in.
 */
function Protected({ children }: { children: ReactNode }) {
  const { isAuthenticated, isChecking, isLoggingOut, sessionExpired } = useAuth();
  if (isChecking || isLoggingOut) return <PageLoader />;
  if (!isAuthenticated) return <Redirect to={sessionExpired ? expiredLoginPath(currentReturnPath()) : '/'} replace />;
  return <>{children}</>;
}

/** Public, but an authenticated user is sent to the dashboard (the login page). */
function GuestOnly({ children }: { children: ReactNode }) {
  const { isAuthenticated, isChecking } = useAuth();
  // Only an already signed-in visitor is bounced: a fresh sign-in on this page moves on to
  // /welcome by itself after its 100 ms wait.
  const [authedOnArrival] = useState(isAuthenticated);
  if (isChecking) return <PageLoader />;
  if (authedOnArrival && isAuthenticated) return <Redirect to="/home" replace />;
  return <>{children}</>;
}

function Fallback() {
  const { isAuthenticated, isChecking } = useAuth();
  if (isChecking) return <PageLoader />;
  return <Redirect to={isAuthenticated ? '/home' : '/'} replace />;
}

function page(Component: ComponentType, guard?: 'auth' | 'guest') {
  return function RoutePage() {
    const content = (
      <Suspense fallback={<PageLoader />}>
        <Component />
      </Suspense>
    );
    if (guard === 'auth') return <Protected>{content}</Protected>;
    if (guard === 'guest') return <GuestOnly>{content}</GuestOnly>;
    return content;
  };
}

const LandingPage = page(Landing);
const InstallationPage = page(Installation);
const ContactPage = page(Contact);
const LoginPage = page(Login, 'guest');
const ForgotPasswordPage = page(ForgotPassword, 'guest');
// Open signed in or not: a reset link signs every session out anyway; an address is confirmed by
// whoever reads its mailbox.
const ResetPasswordPage = page(ResetPassword);
const ConfirmEmailPage = page(ConfirmEmail);
const WelcomePage = page(Welcome, 'auth');
const HomePage = page(Home, 'auth');
const CreateReminderPage = page(CreateReminder, 'auth');
const ReminderDetailsPage = page(ReminderDetails, 'auth');
const AccountPage = page(Account, 'auth');
const ServersPage = page(Servers, 'auth');
const ServerPage = page(Server, 'auth');
const DiscordCallbackPage = page(DiscordCallback);

/** New page starts at the top, or at its #anchor. */
function ScrollReset() {
  const [location] = useLocation();
  useEffect(() => {
    const id = window.location.hash.slice(1);
    const target = id ? document.getElementById(id) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location]);
  return null;
}

export function AppRouter() {
  return (
    <AppLayout>
      <ScrollReset />
      <Switch>
        <Route path="/" component={LandingPage} />
        <Route path="/home" component={HomePage} />
        <Route path="/dashboard">
          <Redirect to="/home" replace />
        </Route>
        <Route path="/reminders/create" component={CreateReminderPage} />
        <Route path="/reminders/:reminderId" component={ReminderDetailsPage} />
        <Route path="/installation" component={InstallationPage} />
        <Route path="/contact" component={ContactPage} />
        <Route path="/account" component={AccountPage} />
        <Route path="/servers" component={ServersPage} />
        <Route path="/servers/:guildId" component={ServerPage} />
        <Route path="/login" component={LoginPage} />
        <Route path="/forgot-password" component={ForgotPasswordPage} />
        <Route path="/reset-password" component={ResetPasswordPage} />
        <Route path="/confirm-email" component={ConfirmEmailPage} />
        <Route path="/auth/callback/discord" component={DiscordCallbackPage} />
        <Route path="/welcome" component={WelcomePage} />
        <Route component={Fallback} />
      </Switch>
    </AppLayout>
  );
}
