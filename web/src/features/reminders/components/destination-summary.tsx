import { bareRoleName } from '@/lib/delivery-text';
import type { TFunction } from 'i18next';
import { AtSign, Bell, BellRing, type LucideIcon, Mail, MessageCircle, MessagesSquare, MonitorSmartphone, Send, Smartphone, Webhook } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { CHANNEL_KIND_KEYS, channelKind, type EditableDestination, maskWebhookUrl } from '../api/destinations';
import { CHANNEL_ICONS } from './picker-options';
import { EmailConfirmationStatus } from './email-status';
import { usePlatformLabels } from './webhook-form';

export interface DestinationText {
  icon: LucideIcon;
  /** Main line: "#general in My Server (@Team)", "hooks.slack.com/services/…", "Direct message". */
  title: string;
  /** Kind and details: "Server channel", "Slack webhook · as Chime". */
  subtitle: string;
}

type PushType = 'ntfy' | 'gotify' | 'pushover' | 'matrix';

/**
 * Where a push notification goes: the ntfy server and topic, the Gotify server, the start of the
 * Pushover user key (and its device), the Matrix room as typed (id or alias).
 */
export function pushPlace(type: PushType, m: { server?: string; topic?: string; user_key?: string; device?: string; room?: string }): string {
  if (type === 'matrix') return m.room ?? '';
  let host = '';
  try {
    host = m.server ? new URL(m.server).host : '';
  } catch {
    /* shown without it */
  }
  if (type === 'ntfy') return `${host}/${m.topic ?? ''}`;
  if (type === 'gotify') return host;
  return `${(m.user_key ?? '').slice(0, 4)}…${m.device ? ` (${m.device})` : ''}`;
}

/** A browser destination as "Firefox on Android" (the names the server gave from the user agent). */
export function webPushLabel(t: TFunction, m: { browser?: string; os?: string }): string {
  const browser = m.browser ?? 'Browser';
  return m.os && m.os !== 'Unknown' ? t('webpush:label', { browser, os: m.os }) : browser;
}

/** Text for a destination, from its local label when known (the picker sets one), else its metadata. */
export function useDescribeDestination(discordName?: string | null): (d: EditableDestination) => DestinationText {
  const { t } = useTranslation('destinations');
  const platforms = usePlatformLabels();
  const { t: tn } = useTranslation('notifications');
  return (d) => {
    // The chat's title or @username, as Telegram said when the destination was checked.
    if (d.type === 'telegram') return { icon: Send, title: d.label ?? d.metadata.label ?? d.metadata.chat_id ?? '', subtitle: t('telegram:service') };
    if (d.type === 'web_push') return { icon: MonitorSmartphone, title: d.label ?? webPushLabel(t, d.metadata), subtitle: t('webpush:service') };
    if (d.type === 'matrix') return { icon: MessagesSquare, title: d.label ?? pushPlace('matrix', d.metadata), subtitle: t('matrix:service') };
    if (d.type === 'ntfy' || d.type === 'gotify' || d.type === 'pushover') {
      const m = d.metadata;
      const icon = d.type === 'ntfy' ? Bell : d.type === 'gotify' ? BellRing : Smartphone;
      const title = pushPlace(d.type, m);
      const service = tn(d.type === 'ntfy' ? 'services.ntfy' : d.type === 'gotify' ? 'services.gotify' : 'services.pushover');
      const hint = m.token_hint ?? (m.access_token || m.app_token ? `…${String(m.access_token ?? m.app_token).slice(-4)}` : null);
      return { icon, title: d.label ?? title, subtitle: hint ? tn('summary.withToken', { service, hint }) : service };
    }
    if (d.type === 'discord_dm') {
      return {
        icon: MessageCircle,
        title: d.label ?? t('dm.title'),
        subtitle: discordName ? t('dm.subtitleWithName', { name: discordName }) : t('dm.subtitle'),
      };
    }
    if (d.type === 'discord_channel') {
      const m = d.metadata;
      // Saved destinations carry the names the server recorded; older ones only their ids.
      const named =
        m.channel_name && m.guild_name
          ? m.mention_role_name
            ? t('channelLabelWithRole', { channel: m.channel_name, guild: m.guild_name, role: bareRoleName(m.mention_role_name) })
            : t('channelLabel', { channel: m.channel_name, guild: m.guild_name })
          : null;
      // The kind (announcement, voice or stage chat) as Discord gave it when the destination was saved.
      const kind = channelKind(m.channel_type);
      return {
        icon: CHANNEL_ICONS[kind],
        title: d.label ?? named ?? t('channel.fallbackLabel', { channel: m.channel_id ?? '?' }),
        subtitle: m.publish ? t('channels:summary.published') : kind === 'text' ? t('channel.subtitle') : t('channels:summary.kind', { kind: t(CHANNEL_KIND_KEYS[kind]) }),
      };
    }
    if (d.type === 'email') {
      return { icon: Mail, title: d.label ?? (d.metadata.address || t('email.title')), subtitle: t('email.subtitle') };
    }
    const platform = platforms[d.metadata.platform ?? 'generic'] ?? platforms.generic;
    return {
      icon: Webhook,
      title: d.label ?? (maskWebhookUrl(d.metadata.url) || t('webhook.title')),
      subtitle: d.metadata.username
        ? t('webhook.subtitleWithName', { platform, name: d.metadata.username })
        : d.metadata.body_template
          ? t('webhook.subtitleCustomBody')
          : t('webhook.subtitle', { platform }),
    };
  };
}

/** One line per destination: icon, label, kind; an email address also shows whether it is confirmed. */
export function DestinationSummary({
  destination,
  discordName,
  saved = false,
  className,
}: {
  destination: EditableDestination;
  discordName?: string | null;
  /** The destination is stored on a reminder (its confirmation mail went out when it was saved). */
  saved?: boolean;
  className?: string;
}) {
  const describe = useDescribeDestination(discordName);
  const { icon: Icon, title, subtitle } = describe(destination);
  const role = destination.type === 'discord_channel' && destination.metadata.mention_role_id && !destination.label && !destination.metadata.mention_role_name;
  return (
    <div className={cn('flex items-center gap-3', className)}>
      <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" data-testid="destination-title" title={title}>
          {title}
        </p>
        <p className="flex items-center gap-1.5 truncate text-xs text-muted-foreground">
          {subtitle}
          {role && (
            <Badge variant="outline" className="px-1.5 py-0">
              <AtSign aria-hidden />
              {destination.metadata.mention_role_id}
            </Badge>
          )}
        </p>
        {destination.type === 'email' && destination.metadata.address && (
          <div className="pt-1.5">
            <EmailConfirmationStatus address={destination.metadata.address} saved={saved} />
          </div>
        )}
      </div>
    </div>
  );
}
