import { Hash, type LucideIcon, Mail, MessageCircle, Plus, Trash2, Webhook, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAccount, useCapabilities } from '@/lib/api/reminders';
import { useEmailConfigured } from '@/lib/public-config';
import { getUser } from '@/lib/session';
import { cn } from '@/lib/utils';
import { atCap, countByType, DESTINATION_CAPS, type EditableDestination } from '../api/destinations';
import { DestinationCheckStatus } from './destination-check-status';
import { DestinationSummary, useDescribeDestination } from './destination-summary';
import { EmailForm } from './email-form';
import { ServerPickerDialog } from './server-picker-dialog';
import type { DestinationChecks } from './use-destination-checks';
import { WebhookForm } from './webhook-form';

export type { EditableDestination } from '../api/destinations';

export interface DestinationsEditorProps {
  value: EditableDestination[];
  onChange: (next: EditableDestination[]) => void;
  disabled?: boolean;
  /** Prefix for element ids, so two editors can live on one page. */
  idPrefix?: string;
  /** Each new destination's check (useDestinationChecks), shown under it. */
  checks?: DestinationChecks;
}

type Availability = { enabled: true } | { enabled: false; reason: 'loading' | 'notConfigured' | 'noIdentity' | 'unavailable' | 'limit' | 'emailNotConfigured' };

/**
 * The list of a reminder's destinations with remove buttons, and the three ways to add one: a DM,
 * a server channel (server-picker dialog), a webhook, an email address. Caps: 1 DM, 5 channels,
 * 5 webhooks, 5 addresses.
 * Controlled: shared by the create wizard and the details page's edit mode.
 */
export function DestinationsEditor({ value, onChange, disabled, idPrefix = 'destinations', checks }: DestinationsEditorProps) {
  const { t } = useTranslation('destinations');
  const capabilities = useCapabilities();
  const account = useAccount();
  const describe = useDescribeDestination();
  const [pickerOpen, setPickerOpen] = useState(false);
  const [webhookOpen, setWebhookOpen] = useState(false);
  const [emailOpen, setEmailOpen] = useState(false);
  const mail = useEmailConfigured();

  const accountId = account.data?.id ?? getUser()?.user_id ?? '';
  const discordName = account.data?.identities.find((i) => i.provider === 'discord')?.username ?? null;

  // Capabilities failing to load: logged, and Discord destinations are treated as unavailable (SPEC section 8).
  if (capabilities.error) console.error('Failed to load capabilities', capabilities.error);
  function discordAvailability(type: 'discord_dm' | 'discord_channel'): Availability {
    const caps = capabilities.data;
    if (!caps) return { enabled: false, reason: capabilities.error ? 'unavailable' : 'loading' };
    if (!caps.discordConfigured) return { enabled: false, reason: 'notConfigured' };
    if (!caps.hasDiscordIdentity) return { enabled: false, reason: 'noIdentity' };
    if (atCap(value, type)) return { enabled: false, reason: 'limit' };
    return { enabled: true };
  }
  const dm = discordAvailability('discord_dm');
  const channel = discordAvailability('discord_channel');
  const webhookFull = atCap(value, 'webhook');
  const webhookShown = webhookOpen && !webhookFull;
  // Email needs SMTP on the server (GET /api/config), like Discord needs its settings.
  const email: Availability = !mail.loaded ? { enabled: false, reason: 'loading' } : !mail.configured ? { enabled: false, reason: 'emailNotConfigured' } : atCap(value, 'email') ? { enabled: false, reason: 'limit' } : { enabled: true };
  const emailShown = emailOpen && email.enabled;
  const emailAddresses = value.filter((d) => d.type === 'email').map((d) => String(d.metadata.address ?? ''));

  const add = (d: EditableDestination) => onChange([...value, d]);
  const removeAt = (index: number) => onChange(value.filter((_, i) => i !== index));

  return (
    <div className="space-y-8" data-testid="destinations-editor">
      <section aria-labelledby={`${idPrefix}-list-title`} className="space-y-3">
        <div className="flex items-center justify-between gap-2">
          <h3 id={`${idPrefix}-list-title`} className="text-sm font-semibold">
            {t('editor.added')}
          </h3>
          <Badge variant="secondary" data-testid="destination-count">
            {value.length}
          </Badge>
        </div>
        {value.length === 0 ? (
          <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground" data-testid="destinations-empty">
            {t('editor.empty')}
          </p>
        ) : (
          <ul className="space-y-2" data-testid="destination-list">
            {value.map((d, index) => (
              <li
                key={`${d.id ?? 'new'}-${index}`}
                className="flex items-center gap-3 rounded-lg border bg-card px-3 py-2.5 shadow-xs"
                data-testid="destination-item"
                data-type={d.type}
              >
                <div className="min-w-0 flex-1 space-y-1">
                  <DestinationSummary destination={d} discordName={discordName} saved={Boolean(d.id)} />
                  <DestinationCheckStatus state={checks?.stateOf(d)} metadata={d.metadata} />
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon-sm"
                  className="shrink-0 text-muted-foreground hover:text-destructive"
                  disabled={disabled}
                  onClick={() => removeAt(index)}
                  aria-label={t('editor.removeNamed', { name: describe(d).title })}
                  title={t('editor.remove')}
                  data-testid="destination-remove"
                >
                  <Trash2 />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby={`${idPrefix}-add-title`} className="space-y-3">
        <h3 id={`${idPrefix}-add-title`} className="text-sm font-semibold">
          {t('editor.addTitle')}
        </h3>
        <div className="divide-y overflow-hidden rounded-xl border bg-card shadow-xs">
          <OptionRow
            icon={MessageCircle}
            title={t('dm.title')}
            description={t('dm.description')}
            count={countByType(value, 'discord_dm')}
            cap={DESTINATION_CAPS.discord_dm}
            hint={<AvailabilityHint availability={dm} testId="dm-hint" />}
            testId="option-dm"
            action={
              <Button type="button" variant="outline" size="sm" className="w-full sm:w-auto" disabled={disabled || !dm.enabled} onClick={() => add({ type: 'discord_dm', metadata: {} })} data-testid="add-dm">
                <Plus />
                {t('dm.add')}
              </Button>
            }
          />
          <OptionRow
            icon={Hash}
            title={t('channel.title')}
            description={t('channel.description')}
            count={countByType(value, 'discord_channel')}
            cap={DESTINATION_CAPS.discord_channel}
            hint={<AvailabilityHint availability={channel} testId="channel-hint" />}
            testId="option-channel"
            action={
              <Button type="button" variant="outline" size="sm" className="w-full sm:w-auto" disabled={disabled || !channel.enabled} onClick={() => setPickerOpen(true)} aria-haspopup="dialog" data-testid="add-channel">
                <Plus />
                {t('channel.add')}
              </Button>
            }
          />
          <OptionRow
            icon={Webhook}
            title={t('webhook.title')}
            description={t('webhook.description')}
            count={countByType(value, 'webhook')}
            cap={DESTINATION_CAPS.webhook}
            hint={webhookFull ? <AvailabilityHint availability={{ enabled: false, reason: 'limit' }} testId="webhook-hint" /> : null}
            testId="option-webhook"
            action={
              <Button
                type="button"
                variant={webhookShown ? 'ghost' : 'outline'}
                size="sm"
                className="w-full sm:w-auto"
                disabled={disabled || webhookFull}
                aria-expanded={webhookShown}
                aria-controls={`${idPrefix}-webhook-panel`}
                onClick={() => setWebhookOpen((o) => !o)}
                data-testid="toggle-webhook"
              >
                {webhookShown ? <X /> : <Plus />}
                {webhookShown ? t('webhook.cancel') : t('webhook.open')}
              </Button>
            }
          >
            {webhookShown && (
              <div id={`${idPrefix}-webhook-panel`} className="mt-4 rounded-lg border bg-muted/40 p-4" data-testid="webhook-panel">
                <WebhookForm
                  idPrefix={`${idPrefix}-webhook`}
                  disabled={disabled}
                  onAdd={(d) => {
                    add(d);
                    // Keep the form open while more webhooks fit.
                    if (countByType(value, 'webhook') + 1 >= DESTINATION_CAPS.webhook) setWebhookOpen(false);
                  }}
                />
              </div>
            )}
          </OptionRow>
          <OptionRow
            icon={Mail}
            title={t('email.title')}
            description={t('email.description')}
            count={countByType(value, 'email')}
            cap={DESTINATION_CAPS.email}
            hint={<AvailabilityHint availability={email} testId="email-hint" />}
            testId="option-email"
            action={
              <Button
                type="button"
                variant={emailShown ? 'ghost' : 'outline'}
                size="sm"
                className="w-full sm:w-auto"
                disabled={disabled || !email.enabled}
                aria-expanded={emailShown}
                aria-controls={`${idPrefix}-email-panel`}
                onClick={() => setEmailOpen((o) => !o)}
                data-testid="toggle-email"
              >
                {emailShown ? <X /> : <Plus />}
                {emailShown ? t('email.cancel') : t('email.open')}
              </Button>
            }
          >
            {emailShown && (
              <div id={`${idPrefix}-email-panel`} className="mt-4 rounded-lg border bg-muted/40 p-4" data-testid="email-panel">
                <EmailForm
                  idPrefix={`${idPrefix}-email`}
                  disabled={disabled}
                  existing={emailAddresses}
                  onAdd={(d) => {
                    add(d);
                    if (countByType(value, 'email') + 1 >= DESTINATION_CAPS.email) setEmailOpen(false);
                  }}
                />
              </div>
            )}
          </OptionRow>
        </div>
      </section>

      <ServerPickerDialog open={pickerOpen} onOpenChange={setPickerOpen} accountId={accountId} onCreate={add} />
    </div>
  );
}

function OptionRow({
  icon: Icon,
  title,
  description,
  count,
  cap,
  hint,
  action,
  testId,
  children,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  count: number;
  cap: number;
  hint: ReactNode;
  action: ReactNode;
  testId: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('destinations');
  return (
    <div className="p-4" data-testid={testId}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:gap-4">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary dark:bg-primary/20">
            <Icon className="size-4.5" aria-hidden />
          </span>
          <div className="min-w-0 flex-1 space-y-0.5">
            <p className="flex flex-wrap items-center gap-x-2 text-sm font-semibold">
              {title}
              <span className="text-xs font-normal tabular-nums text-muted-foreground" title={t('editor.usage', { used: count, cap })}>
                <span aria-hidden>
                  {count}/{cap}
                </span>
                <span className="sr-only">{t('editor.usage', { used: count, cap })}</span>
              </span>
            </p>
            <p className="text-xs text-muted-foreground">{description}</p>
            {hint}
          </div>
        </div>
        <div className="shrink-0 sm:w-auto">{action}</div>
      </div>
      {children}
    </div>
  );
}

function AvailabilityHint({ availability, testId }: { availability: Availability; testId: string }) {
  const { t } = useTranslation('destinations');
  if (availability.enabled || availability.reason === 'loading') return null;
  const text: Record<Exclude<typeof availability.reason, 'loading'>, ReactNode> = {
    limit: t('hints.limitReached'),
    notConfigured: t('hints.discordNotConfigured'),
    emailNotConfigured: t('hints.emailNotConfigured'),
    unavailable: t('hints.discordUnavailable'),
    noIdentity: (
      <Link href="/account" className="font-medium text-primary underline-offset-4 hover:underline">
        {t('hints.connectDiscord')}
      </Link>
    ),
  };
  return (
    <p className={cn('pt-1 text-xs font-medium', availability.reason === 'limit' ? 'text-amber-700 dark:text-warning' : 'text-muted-foreground')} data-testid={testId} data-reason={availability.reason}>
      {text[availability.reason]}
    </p>
  );
}
