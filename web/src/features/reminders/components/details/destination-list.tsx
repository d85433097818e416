import { AlertTriangle, KeyRound, Mail, MessageCircle, Power, Send, Webhook } from 'lucide-react';
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
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { CopyButton } from '@/components/ui/copy-button';
import { type Destination, enableDestination, rotateDestinationSecret, testDestination } from '@/lib/api/reminders';
import { errorDetail } from '@/lib/api-client';
import { bareRoleName, useDeliveryText } from '@/lib/delivery-text';
import { cn } from '@/lib/utils';
import { CHANNEL_KIND_KEYS, channelKind, maskWebhookUrl } from '../../api/destinations';
import { OPTION_KINDS } from '../destination-option-row';
import { CHANNEL_ICONS } from '../picker-options';
import { pushPlace, webPushLabel } from '../destination-summary';
import { EmailConfirmationStatus } from '../email-status';
import { Spinner } from '@/components/ui/spinner';

const PLATFORM_KEYS = {
  generic: 'destinations.platform.generic',
  discord: 'destinations.platform.discord',
  slack: 'destinations.platform.slack',
} as const;

/** Send test for every destination; a webhook can also get a new signing secret. */
function DestinationActions({ reminderId, destination, onTested }: { reminderId: string; destination: Destination; onTested: () => void }) {
  const { t } = useTranslation('details');
  const text = useDeliveryText();
  const [testing, setTesting] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  async function sendTest() {
    setTesting(true);
    try {
      const result = await testDestination(reminderId, destination.id);
      if (result.ok) {
        toast.success(result.http_status ? t('destinations.testOk', { status: result.http_status }) : t('destinations.testOkNoStatus'));
      } else {
        // By its code in the user's language (an unconfirmed address, a channel the bot cannot post in), else the server's words.
        const reason = result.code ? text.codeText(result.code, { metadata: destination.metadata, fallback: result.error ?? null }) : null;
        toast.error(t('destinations.testFailed', { error: reason ?? result.error ?? (result.http_status ? `HTTP ${result.http_status}` : '—') }));
      }
      onTested();
    } catch (err) {
      // The server's reason when there is one; "could not be sent" for an empty 500 or no answer.
      const detail = errorDetail(err);
      toast.error(detail ? t('destinations.testFailed', { error: detail }) : t('destinations:webhook.test.requestFailed'));
    } finally {
      setTesting(false);
    }
  }

  async function rotate() {
    setConfirmOpen(false);
    setRotating(true);
    try {
      const result = await rotateDestinationSecret(reminderId, destination.id);
      setSecret(result.secret);
    } catch (err) {
      toast.error(t('destinations.rotateFailed'), { description: errorDetail(err) ?? undefined });
    } finally {
      setRotating(false);
    }
  }

  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void sendTest()} disabled={testing} data-testid={destination.type === 'webhook' ? 'webhook-test' : 'destination-test'}>
          {testing ? <Spinner className="size-3.5" /> : <Send />}
          {testing ? t('destinations.sending') : t('destinations.sendTest')}
        </Button>
        {destination.type === 'webhook' && (
          <Button variant="outline" size="sm" onClick={() => setConfirmOpen(true)} disabled={rotating} data-testid="webhook-rotate">
            {rotating ? <Spinner className="size-3.5" /> : <KeyRound />}
            {rotating ? t('destinations.rotating') : t('destinations.rotate')}
          </Button>
        )}
      </div>
      {secret && (
        <Alert variant="info" className="flex-col gap-2 [&>svg]:hidden" data-testid="new-secret">
          <div className="flex w-full items-center gap-2 font-medium">
            <KeyRound className="size-4 text-primary" />
            {t('destinations.newSecretTitle')}
          </div>
          <div className="flex w-full min-w-0 items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded-md border bg-background px-2.5 py-1.5 font-mono text-xs" data-testid="new-secret-value">
              {secret}
            </code>
            <CopyButton value={secret} copiedLabel={t('actions.copied')} label={t('actions.copy')} data-testid="new-secret-copy" />
          </div>
          <div className="flex w-full flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-muted-foreground">{t('destinations.newSecretHint')}</p>
            <Button variant="ghost" size="sm" onClick={() => setSecret(null)}>
              {t('destinations.hideSecret')}
            </Button>
          </div>
        </Alert>
      )}
      <AlertDialog open={confirmOpen} onOpenChange={setConfirmOpen}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('destinations.rotateTitle')}</AlertDialogTitle>
            <AlertDialogDescription>{t('destinations.rotateText')}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('actions.cancel')}</AlertDialogCancel>
            <AlertDialogAction onClick={() => void rotate()} data-testid="webhook-rotate-confirm">
              {t('destinations.rotateConfirm')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** Why deliveries to it stopped (translated by its code), and "Re-enable". */
function DisabledNotice({ reminderId, destination, onChanged }: { reminderId: string; destination: Destination; onChanged: () => void }) {
  const { t } = useTranslation('details');
  const text = useDeliveryText();
  const [busy, setBusy] = useState(false);
  const reason = text.codeText(destination.disabled_code, { metadata: destination.metadata, fallback: destination.disabled_reason });

  async function reenable() {
    setBusy(true);
    try {
      await enableDestination(reminderId, destination.id);
      toast.success(t('delivery:reenable.done'));
      onChanged();
    } catch (err) {
      toast.error(t('delivery:reenable.failed'), { description: text.errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-2 text-sm text-amber-800 dark:text-warning"
      role="status"
      data-testid="destination-disabled"
      data-code={destination.disabled_code ?? ''}
    >
      <AlertTriangle className="size-4 shrink-0" />
      <span className="min-w-0 flex-1">{t('destinations.disabled', { reason })}</span>
      <Button variant="outline" size="sm" className="bg-background" onClick={() => void reenable()} disabled={busy} data-testid="destination-reenable">
        {busy ? <Spinner className="size-3.5" /> : <Power />}
        {busy ? t('delivery:reenable.busy') : t('delivery:reenable.action')}
      </Button>
    </div>
  );
}

function DestinationItem({ reminderId, destination, onChanged }: { reminderId: string; destination: Destination; onChanged: () => void }) {
  const { t } = useTranslation('details');
  const m = destination.metadata ?? {};
  let Icon = MessageCircle;
  let title = t('destinations.dm');
  let detail: string | null = t('destinations.dmDetail');
  let extra: string | null = null;
  if (destination.type === 'discord_channel') {
    // The kind Discord gave when it was saved: its icon, and its name but for plain text channels.
    const kind = channelKind(m.channel_type);
    Icon = CHANNEL_ICONS[kind];
    title = m.publish ? t('channels:summary.published') : kind === 'text' ? t('destinations.channel') : t('channels:summary.kind', { kind: t(CHANNEL_KIND_KEYS[kind]) });
    // Names recorded by the server when the destination was saved; ids for older destinations.
    detail = t('destinations.channelDetail', {
      // A thread after its channel: "#general › plans".
      channel: m.channel_name ? (m.parent_name ? `#${m.parent_name} › ${m.channel_name}` : `#${m.channel_name}`) : (m.channel_id ?? '?'),
      guild: m.guild_name ?? m.guild_id ?? '?',
    });
    extra = m.mention_role_id ? t('destinations.mentionRole', { role: m.mention_role_name ? `@${bareRoleName(m.mention_role_name)}` : m.mention_role_id }) : null;
  } else if (destination.type === 'webhook') {
    Icon = Webhook;
    title = t('destinations.webhook');
    detail = maskWebhookUrl(m.url);
    extra = m.username
      ? t('destinations.postAs', { name: m.username })
      : m.body_template
        ? t(m.body_format === 'text' ? 'destinations.customBodyText' : 'destinations.customBodyJson')
        : null;
  } else if (destination.type === 'email') {
    Icon = Mail;
    title = t('destinations.email');
    detail = m.address ?? '';
  } else if (destination.type === 'web_push') {
    Icon = OPTION_KINDS.webPush.icon;
    title = t(OPTION_KINDS.webPush.title);
    detail = webPushLabel(t, m);
  } else if (destination.type === 'telegram') {
    Icon = OPTION_KINDS.telegram.icon;
    title = t(OPTION_KINDS.telegram.title);
    detail = m.label ?? m.chat_id ?? '';
  } else if (destination.type === 'ntfy' || destination.type === 'gotify' || destination.type === 'pushover' || destination.type === 'matrix') {
    Icon = OPTION_KINDS[destination.type].icon;
    title = t(OPTION_KINDS[destination.type].title);
    // The Pushover user key is the account's address at Pushover: this page does not show it.
    detail = destination.type === 'pushover' ? null : pushPlace(destination.type, m);
  }
  const platform = destination.type === 'webhook' ? (m.platform ?? 'generic') : null;

  return (
    <li
      className={cn('space-y-3 rounded-lg border p-4', (destination.disabled_reason || destination.disabled_code) && 'border-warning/60 bg-warning/5')}
      data-testid="destination-item"
      data-type={destination.type}
    >
      <div className="flex items-start gap-3">
        <span className="grid size-9 shrink-0 place-items-center rounded-md bg-primary/10 text-primary">
          <Icon className="size-4" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{title}</span>
            {platform && <Badge variant="secondary">{t(PLATFORM_KEYS[platform])}</Badge>}
          </div>
          {detail && <p className={cn('mt-0.5 truncate text-sm text-muted-foreground', destination.type !== 'discord_dm' && 'font-mono text-xs sm:text-sm')}>{detail}</p>}
          {extra && <p className="mt-0.5 text-sm text-muted-foreground">{extra}</p>}
        </div>
      </div>
      {(destination.disabled_reason || destination.disabled_code) && <DisabledNotice reminderId={reminderId} destination={destination} onChanged={onChanged} />}
      {destination.type === 'email' && m.address && <EmailConfirmationStatus address={m.address} saved />}
      <DestinationActions reminderId={reminderId} destination={destination} onTested={onChanged} />
    </li>
  );
}

export function DestinationList({ reminderId, destinations, onChanged }: { reminderId: string; destinations: Destination[]; onChanged: () => void }) {
  const { t } = useTranslation('details');
  return (
    <Card className="gap-5" data-testid="destinations-card">
      <CardHeader>
        <CardHeading className="text-base">{t('destinations.title')}</CardHeading>
        <CardDescription>{t('destinations.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {destinations.length === 0 ? (
          <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground" data-testid="destinations-empty">
            {t('destinations.empty')}
          </p>
        ) : (
          <ul className="space-y-3">
            {destinations.map((d) => (
              <DestinationItem key={d.id} reminderId={reminderId} destination={d} onChanged={onChanged} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
