import { LogOut, Monitor, Smartphone, Tablet, HelpCircle, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatRelative } from '@/lib/format';
import { type AccountSession, signOutOtherSessions, signOutSession, useSessions } from './sessions-api';

const DEVICE_ICONS = { desktop: Monitor, mobile: Smartphone, tablet: Tablet, unknown: HelpCircle } as const;

/** "Firefox 132 on Windows", or what is known of it. */
function useDeviceName() {
  const { t } = useTranslation('security');
  return (session: AccountSession) => {
    if (session.browser && session.os) return t('sessions.browserOn', { browser: session.browser, os: session.os });
    return session.browser ?? session.os ?? t('sessions.unknownDevice');
  };
}

function SessionRow({ session, onSignOut }: { session: AccountSession; onSignOut: (session: AccountSession) => void }) {
  const { t } = useTranslation('security');
  const deviceName = useDeviceName();
  const Icon = DEVICE_ICONS[session.device];
  const kinds = { desktop: t('sessions.kind.desktop'), mobile: t('sessions.kind.mobile'), tablet: t('sessions.kind.tablet'), unknown: t('sessions.kind.unknown') };
  const details = [
    kinds[session.device],
    session.network ? t('sessions.network', { network: session.network }) : t('sessions.networkUnknown'),
    t('sessions.firstSeen', { date: formatDateTime(session.created_at) }),
    t('sessions.lastSeen', { when: formatRelative(session.last_seen_at) }),
  ];
  return (
    <li className="flex items-start justify-between gap-3 py-3 first:pt-0 last:pb-0" data-testid="session-row">
      <div className="flex min-w-0 gap-3">
        <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="truncate font-medium" data-testid="session-device">
              {deviceName(session)}
            </span>
            {session.current && (
              <Badge variant="secondary" data-testid="session-current">
                {t('sessions.thisOne')}
              </Badge>
            )}
          </div>
          <p className="text-sm text-muted-foreground" data-testid="session-details">
            {details.join(' · ')}
          </p>
        </div>
      </div>
      {!session.current && (
        <Button variant="ghost" size="sm" aria-label={t('sessions.signOutLabel', { device: deviceName(session) })} onClick={() => onSignOut(session)} data-testid="session-sign-out">
          <LogOut />
          <span className="max-sm:sr-only">{t('sessions.signOut')}</span>
        </Button>
      )}
    </li>
  );
}

/** Where the account is signed in: one row per session, sign one out, or every other one (docs/security.md). */
export function SessionsCard() {
  const { t } = useTranslation('security');
  const deviceName = useDeviceName();
  const { data: sessions, mutate } = useSessions();
  const [ending, setEnding] = useState<AccountSession | 'others' | null>(null);
  const others = sessions?.filter((s) => !s.current).length ?? 0;

  async function end(target: AccountSession | 'others') {
    try {
      if (target === 'others') {
        const { signed_out } = await signOutOtherSessions();
        toast.success(t('sessions.othersSignedOut', { count: signed_out }));
      } else {
        await signOutSession(target.id);
        toast.success(t('sessions.signedOut'));
      }
    } catch (err) {
      toast.error(errorMessage(err, t('sessions.failed')));
    }
    await mutate();
  }

  return (
    <Card className="gap-4" data-testid="sessions-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <ShieldCheck className="size-4" />
          {t('sessions.title')}
        </CardHeading>
        <CardDescription>{t('sessions.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {sessions && (
          <ul className="divide-y" aria-label={t('sessions.listLabel')} data-testid="session-list">
            {sessions.map((session) => (
              <SessionRow key={session.id} session={session} onSignOut={setEnding} />
            ))}
          </ul>
        )}
        <Button variant="outline" size="sm" disabled={others === 0} onClick={() => setEnding('others')} data-testid="sessions-sign-out-others">
          <LogOut />
          {t('sessions.signOutOthers')}
        </Button>
      </CardContent>
      <AlertDialog open={ending !== null} onOpenChange={(open) => !open && setEnding(null)}>
        <AlertDialogContent data-testid="session-sign-out-dialog">
          <AlertDialogHeader>
            <AlertDialogTitle>
              {ending === 'others' ? t('sessions.signOutOthersTitle', { count: others }) : t('sessions.signOutTitle', { device: ending ? deviceName(ending) : '' })}
            </AlertDialogTitle>
            <AlertDialogDescription>{ending === 'others' ? t('sessions.signOutOthersDescription') : t('sessions.signOutDescription')}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('sessions.cancel')}</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                if (ending) void end(ending);
                setEnding(null);
              }}
              data-testid="session-sign-out-confirm"
            >
              {t('sessions.signOut')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
