import { Bell, BellRing, Hash, type LucideIcon, Mail, MessageCircle, MessagesSquare, MonitorSmartphone, Send, Smartphone, Webhook } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DestinationInput } from '@/lib/api/reminders';
import { countByType, DESTINATION_CAPS, type EditableDestination } from '../api/destinations';
import { AvailabilityHint } from './availability-hint';
import type { Availability } from './use-destination-availability';

/**
 * The kinds the editor offers; a kind's name is also the stem of its test ids (`option-dm`). Text
 * keys are spelled out, not built from the name: the locale test finds used keys as literals.
 */
export const OPTION_KINDS = {
  dm: { icon: MessageCircle, type: 'discord_dm', title: 'dm.title', description: 'dm.description' },
  channel: { icon: Hash, type: 'discord_channel', title: 'channel.title', description: 'channel.description' },
  webhook: { icon: Webhook, type: 'webhook', title: 'webhook.title', description: 'webhook.description' },
  email: { icon: Mail, type: 'email', title: 'email.title', description: 'email.description' },
  ntfy: { icon: Bell, type: 'ntfy', title: 'notifications:services.ntfy', description: 'notifications:form.ntfy.description' },
  gotify: { icon: BellRing, type: 'gotify', title: 'notifications:services.gotify', description: 'notifications:form.gotify.description' },
  pushover: { icon: Smartphone, type: 'pushover', title: 'notifications:services.pushover', description: 'notifications:form.pushover.description' },
  matrix: { icon: MessagesSquare, type: 'matrix', title: 'matrix:service', description: 'matrix:form.description' },
  telegram: { icon: Send, type: 'telegram', title: 'telegram:service', description: 'telegram:form.description' },
  webPush: { icon: MonitorSmartphone, type: 'web_push', title: 'webpush:service', description: 'webpush:form.description' },
} as const satisfies Record<string, { icon: LucideIcon; type: DestinationInput['type']; title: string; description: string }>;

export type OptionKind = keyof typeof OPTION_KINDS;

interface DestinationOptionRowProps {
  kind: OptionKind;
  /** The destinations in the list, counted against the kind's cap. */
  destinations: readonly EditableDestination[];
  availability: Availability;
  action: ReactNode;
  children?: ReactNode;
}

/** One way to add a destination: its icon, title, usage against the cap, description, why it is unavailable, and its button. */
export function DestinationOptionRow({ kind, destinations, availability, action, children }: DestinationOptionRowProps) {
  const { t } = useTranslation('destinations');
  const { icon: Icon, type, title, description } = OPTION_KINDS[kind];
  const count = countByType(destinations, type);
  const cap = DESTINATION_CAPS[type];
  return (
    <div className="p-4" data-testid={`option-${kind}`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:gap-4">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary dark:bg-primary/20">
            <Icon className="size-4.5" aria-hidden />
          </span>
          <div className="min-w-0 flex-1 space-y-0.5">
            <p className="flex flex-wrap items-center gap-x-2 text-sm font-semibold">
              {t(title)}
              <span className="text-xs font-normal tabular-nums text-muted-foreground" title={t('editor.usage', { used: count, cap })}>
                <span aria-hidden>
                  {count}/{cap}
                </span>
                <span className="sr-only">{t('editor.usage', { used: count, cap })}</span>
              </span>
            </p>
            <p className="text-xs text-muted-foreground">{t(description)}</p>
            <AvailabilityHint availability={availability} testId={`${kind}-hint`} />
          </div>
        </div>
        <div className="shrink-0 sm:w-auto">{action}</div>
      </div>
      {children}
    </div>
  );
}
