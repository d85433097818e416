import { Ban, Check, Hash, Image, Lock, type LucideIcon, Megaphone, MessageSquare, MessagesSquare, Radio, Volume2 } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import type { Channel } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import { cn } from '@/lib/utils';
import { CHANNEL_KIND_KEYS, type ChannelKind, channelKind, guildIconUrl, initials } from '../api/destinations';

/* The server picker's building blocks: the radio-group lists and their options. */

export function GuildAvatar({ guild, size = 'md' }: { guild: { id: string; name: string; icon: string | null }; size?: 'sm' | 'md' }) {
  const [failed, setFailed] = useState(false);
  const src = guildIconUrl(guild);
  const box = size === 'sm' ? 'size-6 text-[10px]' : 'size-9 text-xs';
  if (src && !failed) {
    return <img src={src} alt="" className={cn('shrink-0 rounded-full object-cover', box)} onError={() => setFailed(true)} data-testid="guild-icon" />;
  }
  return (
    <span className={cn('flex shrink-0 items-center justify-center rounded-full bg-primary/15 font-semibold text-primary', box)} data-testid="guild-initials" aria-hidden>
      {initials(guild.name)}
    </span>
  );
}

export function ListSkeleton() {
  const { t } = useTranslation('common');
  return (
    <div className="space-y-2" role="status" aria-label={t('status.loading')} data-testid="picker-loading">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-12 w-full rounded-lg" />
      ))}
    </div>
  );
}

export function EmptyText({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">{children}</p>;
}

/**
 * A single-choice list (ARIA radio group): one tab stop (the chosen item, else the first), arrow
 * keys move and choose, Home/End jump.
 */
export function OptionList({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (!['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    const items = Array.from(ref.current?.querySelectorAll<HTMLButtonElement>('[role="radio"]:not(:disabled)') ?? []);
    if (items.length === 0) return;
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    const forward = e.key === 'ArrowDown' || e.key === 'ArrowRight';
    const nextIndex = e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1 : forward ? (index + 1) % items.length : (index - 1 + items.length) % items.length;
    const target = items[nextIndex];
    target?.focus();
    target?.click();
    e.preventDefault();
  }
  // Roving tab stop: computed from the DOM after each render.
  useEffect(() => {
    const items = Array.from(ref.current?.querySelectorAll<HTMLButtonElement>('[role="radio"]:not(:disabled)') ?? []);
    const chosen = items.findIndex((el) => el.getAttribute('aria-checked') === 'true');
    items.forEach((el, i) => {
      el.tabIndex = i === (chosen >= 0 ? chosen : 0) ? 0 : -1;
    });
  });
  return (
    <div ref={ref} role="radiogroup" aria-label={label} onKeyDown={onKeyDown} className="max-h-72 space-y-1.5 overflow-y-auto p-0.5" data-testid={testId}>
      {children}
    </div>
  );
}

export function Option({
  selected,
  onSelect,
  onActivate,
  testId,
  disabled = false,
  describedBy,
  children,
}: {
  selected: boolean;
  onSelect: () => void;
  onActivate?: () => void;
  testId: string;
  disabled?: boolean;
  describedBy?: string | undefined;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={onSelect}
      onDoubleClick={onActivate}
      data-testid={testId}
      className={cn(
        'flex min-h-12 w-full items-center gap-3 rounded-lg border px-3 py-2 text-left text-sm transition-colors outline-none',
        'focus-visible:ring-[3px] focus-visible:ring-ring/50',
        'disabled:cursor-not-allowed disabled:bg-muted/50 disabled:text-muted-foreground',
        selected ? 'border-primary bg-primary/10 ring-1 ring-primary dark:bg-primary/20' : 'bg-background enabled:hover:bg-accent dark:bg-input/20',
      )}
    >
      {children}
      <Check className={cn('size-4 shrink-0 text-primary', selected ? 'opacity-100' : 'opacity-0')} aria-hidden />
    </button>
  );
}

/** Each kind of channel with the icon Discord shows it with. */
export const CHANNEL_ICONS: Record<ChannelKind, LucideIcon> = {
  text: Hash,
  announcement: Megaphone,
  voice: Volume2,
  stage: Radio,
  thread: MessageSquare,
  privateThread: Lock,
  forum: MessagesSquare,
  media: Image,
};

/**
 * A channel (text, announcement, the chat of a voice or stage channel, a forum, or a thread shown
 * indented under its channel), with its kind's icon and, but for plain text channels, the kind in
 * words; one where the bot cannot post is shown but not choosable, with the reason.
 */
export function ChannelOption({ channel, selected, onSelect }: { channel: Channel; selected: boolean; onSelect: () => void }) {
  const text = useDeliveryText();
  const { t } = useTranslation('channels');
  const unusable = channel.bot_can_send === false;
  const reasonId = `picker-channel-reason-${channel.id}`;
  const kind = channelKind(channel.type);
  const Icon = CHANNEL_ICONS[kind];
  return (
    <Option selected={selected} onSelect={onSelect} testId={`channel-${channel.id}`} disabled={unusable} describedBy={unusable ? reasonId : undefined}>
      {channel.parent_id && <span className="w-4 shrink-0" aria-hidden data-testid="thread-indent" />}
      {unusable ? <Ban className="size-4 shrink-0 text-muted-foreground" aria-hidden /> : <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden data-kind={kind} />}
      <span className="min-w-0 flex-1">
        <span className="block truncate">{channel.name}</span>
        {kind !== 'text' && (
          <span className="block text-xs text-muted-foreground" data-testid="channel-kind">
            {channel.archived ? t('archived.kind', { kind: t(CHANNEL_KIND_KEYS[kind]) }) : t(CHANNEL_KIND_KEYS[kind])}
          </span>
        )}
        {unusable && (
          <span id={reasonId} className="block text-xs whitespace-normal text-muted-foreground" data-testid="channel-unusable-reason">
            {text.codeText(channel.reason ?? (channel.parent_id ? 'DISCORD_CANNOT_POST_IN_THREAD' : 'DISCORD_CANNOT_POST'), { params: { channel: channel.name, who: 'bot' } })}
          </span>
        )}
      </span>
    </Option>
  );
}
