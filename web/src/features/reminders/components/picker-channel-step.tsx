import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import type { Channel } from '@/lib/api/reminders';
import { ANNOUNCEMENT_CHANNEL } from '../api/destinations';
import { ChannelOption } from './picker-options';
import { PickerStepList } from './picker-step-list';

interface PickerChannelStepProps {
  channels: Channel[] | null;
  channel: Channel | null;
  onSelect: (channel: Channel) => void;
  /** Publish (crosspost) each reminder to the servers following the chosen announcement channel. */
  publish: boolean;
  onPublishChange: (publish: boolean) => void;
  /** A "Remind me too" button under each delivery (docs/discord.md), if the server's rules allow it. */
  remindMeToo: boolean;
  onRemindMeTooChange: (remindMeToo: boolean) => void;
}

/**
 * Step 2: the channels of the chosen server (nothing until they loaded: the step opens once they
 * have): text, announcement, and the chat of voice and stage channels. An announcement channel
 * offers to publish its reminders to the servers following it.
 */
export function PickerChannelStep({ channels, channel, onSelect, publish, onPublishChange, remindMeToo, onRemindMeTooChange }: PickerChannelStepProps) {
  const { t } = useTranslation('destinations');
  const { t: tc } = useTranslation('channels');
  return (
    <>
      <PickerStepList items={channels} loading={false} empty={t('picker.channel.empty')} label={t('picker.channel.title')} testId="channel-list">
        {(c) => <ChannelOption key={c.id} channel={c} selected={channel?.id === c.id} onSelect={() => onSelect(c)} />}
      </PickerStepList>
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
