import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import type { Channel } from '@/lib/api/reminders';
import { Button } from '@/components/ui/button';
import { ANNOUNCEMENT_CHANNEL, hasThreads, isForumKind, MAX_FORUM_TAGS } from '../api/destinations';
import { ChannelOption } from './picker-options';
import { PickerStepList } from './picker-step-list';

interface PickerChannelStepProps {
  channels: Channel[] | null;
  channel: Channel | null;
  onSelect: (channel: Channel) => void;
  /** Publish (crosspost) each reminder to the servers following the chosen announcement channel. */
  publish: boolean;
  onPublishChange: (publish: boolean) => void;
  /** Tags of each new post in the chosen forum or media channel. */
  tags: readonly string[];
  onToggleTag: (tagId: string) => void;
  /** Channels whose archived threads are listed already, with the cursor of their next page (null: all listed). */
  archivedOf: ReadonlyMap<string, string | null>;
  onShowArchived: (channel: Channel) => void;
  loading: boolean;
  /** A "Remind me too" button under each delivery (docs/discord.md), if the server's rules allow it. */
  remindMeToo: boolean;
  onRemindMeTooChange: (remindMeToo: boolean) => void;
}

/**
 * Step 2: the channels of the chosen server (nothing until they loaded: the step opens once they
 * have): text, announcement, the chat of voice and stage channels, forums, and active threads
 * under their channel. An announcement channel offers to publish its reminders to the servers
 * following it; a forum or media channel offers the tags of the post each reminder opens.
 */
export function PickerChannelStep({ channels, channel, onSelect, publish, onPublishChange, tags, onToggleTag, archivedOf, onShowArchived, loading, remindMeToo, onRemindMeTooChange }: PickerChannelStepProps) {
  const { t } = useTranslation('destinations');
  const { t: tc } = useTranslation('channels');
  return (
    <>
      <PickerStepList items={channels} loading={false} empty={t('picker.channel.empty')} label={t('picker.channel.title')} testId="channel-list">
        {(c) => <ChannelOption key={c.id} channel={c} selected={channel?.id === c.id} onSelect={() => onSelect(c)} />}
      </PickerStepList>
      {channel && hasThreads(channel.type) && archivedOf.get(channel.id) !== null && (
        <Button type="button" variant="link" size="sm" className="mt-1 px-0" disabled={loading} onClick={() => onShowArchived(channel)} data-testid="picker-show-archived">
          {archivedOf.has(channel.id) ? tc('archived.more', { channel: channel.name }) : tc('archived.show', { channel: channel.name })}
        </Button>
      )}
      {channel?.type === ANNOUNCEMENT_CHANNEL && (
        <div className="mt-3 flex items-start gap-2 rounded-lg border px-3 py-2" data-testid="picker-publish">
          <Checkbox id="picker-publish" checked={publish} onCheckedChange={(v) => onPublishChange(v === true)} aria-describedby="picker-publish-hint" className="mt-0.5" />
          <div className="grid gap-0.5">
            <label htmlFor="picker-publish" className="text-sm font-medium">
              {tc('publish.label')}
            </label>
            <p id="picker-publish-hint" className="text-xs text-muted-foreground">
              {tc('publish.hint')}
            </p>
          </div>
        </div>
      )}
      {channel && isForumKind(channel.type) && (
        <fieldset className="mt-3 grid gap-1.5 rounded-lg border px-3 py-2" data-testid="picker-forum-tags" aria-describedby="picker-forum-hint">
          <legend className="px-1 text-sm font-medium">{tc('forum.tags')}</legend>
          <p id="picker-forum-hint" className="text-xs text-muted-foreground">
            {channel.require_tag ? tc('forum.hintRequired', { max: MAX_FORUM_TAGS }) : tc('forum.hint', { max: MAX_FORUM_TAGS })}
          </p>
          {(channel.tags ?? []).length === 0 && <p className="text-xs text-muted-foreground">{tc('forum.noTags')}</p>}
          {(channel.tags ?? []).map((tag) => (
            <div key={tag.id} className="flex items-center gap-2">
              <Checkbox
                id={`picker-tag-${tag.id}`}
                checked={tags.includes(tag.id)}
                disabled={!tags.includes(tag.id) && tags.length >= MAX_FORUM_TAGS}
                onCheckedChange={() => onToggleTag(tag.id)}
                data-testid={`picker-tag-${tag.id}`}
              />
              <label htmlFor={`picker-tag-${tag.id}`} className="text-sm">
                {tag.name}
              </label>
            </div>
          ))}
        </fieldset>
      )}
      {channel && (
        <div className="mt-3 flex items-start gap-2 rounded-lg border px-3 py-2" data-testid="picker-remind-me-too">
          <Checkbox id="picker-remind-me-too" checked={remindMeToo} onCheckedChange={(v) => onRemindMeTooChange(v === true)} aria-describedby="picker-remind-me-too-hint" className="mt-0.5" />
          <div className="grid gap-0.5">
            <label htmlFor="picker-remind-me-too" className="text-sm font-medium">
              {tc('remindMeToo.label')}
            </label>
            <p id="picker-remind-me-too-hint" className="text-xs text-muted-foreground">
              {tc('remindMeToo.hint')}
            </p>
          </div>
        </div>
      )}
    </>
  );
}
