import { Hash } from 'lucide-react';
import type { Channel, Guild } from '@/lib/api/reminders';
import { GuildAvatar } from './picker-options';

/** What is chosen so far: the server, then (on the role step) the channel. */
export function PickerBreadcrumb({ guild, channel }: { guild: Guild; channel: Channel | null }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground" data-testid="picker-breadcrumb">
      <GuildAvatar guild={guild} size="sm" />
      <span className="font-medium text-foreground">{guild.name}</span>
      {channel && (
        <>
          <span aria-hidden>›</span>
          <Hash className="size-3.5" aria-hidden />
          <span className="font-medium text-foreground">{channel.name}</span>
        </>
      )}
    </div>
  );
}
