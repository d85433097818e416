import { CheckCircle2, KeyRound, Link2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { prepareDiscordLink } from '@/lib/discord-link';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { DiscordIcon } from '@/components/ui/discord-icon';
import type { Account, Capabilities } from '@/lib/api/reminders';
import { errorDetail } from '@/lib/api-client';

function IdentityRow({ icon, title, status, detail, action, testId }: { icon: ReactNode; title: string; status: ReactNode; detail: ReactNode; action?: ReactNode; testId: string }) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center" data-testid={testId}>
      <div className="flex min-w-0 flex-1 items-start gap-3">
        {icon}
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{title}</span>
            {status}
          </div>
          <p className="mt-0.5 text-sm break-words text-muted-foreground">{detail}</p>
        </div>
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </li>
  );
}

export function IdentitiesCard({ account, capabilities }: { account: Account; capabilities: Capabilities | undefined }) {
  const { t } = useTranslation('account');
  const [connecting, setConnecting] = useState(false);
  const app = account.identities.find((i) => i.provider === 'app');
  const discord = account.identities.find((i) => i.provider === 'discord');
  const discordConfigured = capabilities?.discordConfigured ?? true;

  async function connect() {
    setConnecting(true);
    try {
      window.location.href = await prepareDiscordLink(account.id);
    } catch (err) {
      console.error('Discord link failed', err);
      toast.error(t('identities.connectFailed'), { description: errorDetail(err) ?? undefined });
      setConnecting(false);
    }
  }

  const connected = (
    <Badge variant="success" className="text-green-800 dark:text-success">
      <CheckCircle2 />
      {t('identities.connected')}
    </Badge>
  );
  const notConnected = <Badge variant="secondary">{t('identities.notConnected')}</Badge>;

  return (
    <Card className="gap-5" data-testid="identities-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <Link2 className="size-4 text-primary" />
          {t('identities.title')}
        </CardHeading>
        <CardDescription>{t('identities.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3">
          <IdentityRow
            testId="identity-app"
            icon={
              <span className="grid size-9 shrink-0 place-items-center rounded-md bg-primary/10 text-primary">
                <KeyRound className="size-4" />
              </span>
            }
            title={t('identities.app')}
            status={app ? connected : notConnected}
            detail={app ? t('identities.appConnected', { email: account.email ?? app.external_id }) : t('identities.appMissing')}
          />
          <IdentityRow
            testId="identity-discord"
            icon={
              <span className="grid size-9 shrink-0 place-items-center rounded-md bg-[#5865F2]/12 text-[#5865F2] dark:text-[#8891f7]">
                <DiscordIcon />
              </span>
            }
            title={t('identities.discord')}
            status={discord ? connected : notConnected}
            detail={
              discord
                ? t('identities.discordConnected', { name: discord.username ?? discord.external_id })
                : discordConfigured
                  ? t('identities.discordMissing')
                  : t('identities.discordUnavailable')
            }
            action={
              discord ? undefined : (
                <Button
                  variant="discord"
                  onClick={() => void connect()}
                  disabled={!discordConfigured || connecting}
                  className="w-full sm:w-auto"
                  data-testid="discord-connect"
                  aria-describedby={discordConfigured ? undefined : 'discord-unavailable'}
                >
                  <DiscordIcon />
                  {connecting ? t('identities.redirecting') : t('identities.connect')}
                </Button>
              )
            }
          />
        </ul>
        {!discord && !discordConfigured && (
          <p id="discord-unavailable" className="sr-only" data-testid="discord-unavailable">
            {t('identities.discordUnavailable')}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
