import { Bell, BellRing, Hash, Mail, MessageCircle, MessagesSquare, MonitorSmartphone, Send, Smartphone, Webhook } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { Destination } from '@/lib/api/reminders';
import { destinationCounts } from '../lib/reminder-display';

const ICONS = { discord_dm: MessageCircle, discord_channel: Hash, webhook: Webhook, email: Mail, ntfy: Bell, gotify: BellRing, pushover: Smartphone, matrix: MessagesSquare, telegram: Send, web_push: MonitorSmartphone } as const;
/** The short name of each destination type (badges, the list's filter). */
export const DESTINATION_LABEL_KEYS = { discord_dm: 'destinations.discord_dm', discord_channel: 'destinations.discord_channel', webhook: 'destinations.webhook', email: 'destinations.email', ntfy: 'notifications:services.ntfy', gotify: 'notifications:services.gotify', pushover: 'notifications:services.pushover', matrix: 'matrix:service', telegram: 'telegram:service', web_push: 'webpush:service' } as const;

/** DM / Channel / Webhook / Email badges, one per kind with a count when there are several. */
export function DestinationBadges({ destinations }: { destinations: Pick<Destination, 'type'>[] }) {
  const { t } = useTranslation('dashboard');
  const counts = destinationCounts(destinations ?? []);
  if (counts.length === 0) {
    return <span className="text-xs text-muted-foreground">{t('destinations.none')}</span>;
  }
  return (
    <>
      {counts.map(({ type, count }) => {
        const Icon = ICONS[type];
        return (
          <Badge key={type} variant="outline" className="gap-1 bg-background/60 text-muted-foreground" data-testid="destination-badge" data-type={type}>
            <Icon aria-hidden />
            {t(DESTINATION_LABEL_KEYS[type])}
            {count > 1 && <span className="tabular-nums">×{count}</span>}
          </Badge>
        );
      })}
    </>
  );
}
