import { useTranslation } from 'react-i18next';
import type { Channel } from '@/lib/api/reminders';
import { ChannelOption } from './picker-options';
import { PickerStepList } from './picker-step-list';

/** Step 2: the text channels of the chosen server (nothing until they loaded: the step opens once they have). */
export function PickerChannelStep({ channels, channel, onSelect }: { channels: Channel[] | null; channel: Channel | null; onSelect: (channel: Channel) => void }) {
  const { t } = useTranslation('destinations');
  return (
    <PickerStepList items={channels} loading={false} empty={t('picker.channel.empty')} label={t('picker.channel.title')} testId="channel-list">
      {(c) => <ChannelOption key={c.id} channel={c} selected={channel?.id === c.id} onSelect={() => onSelect(c)} />}
    </PickerStepList>
  );
}
