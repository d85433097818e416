import { useTranslation } from 'react-i18next';
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { Channel, Guild } from '@/lib/api/reminders';
import type { PickerMode } from './use-server-picker';

/** The picker's "Step n of 3", with the title and description of the current step. */
export function PickerHeader({ mode, guild, channel }: { mode: PickerMode; guild: Guild | null; channel: Channel | null }) {
  const { t } = useTranslation('destinations');
  const stepIndex = mode === 'guild' ? 1 : mode === 'channel' ? 2 : 3;
  const titles: Record<PickerMode, string> = {
    guild: t('picker.guild.title'),
    channel: t('picker.channel.title'),
    role: t('picker.role.title'),
  };
  const descriptions: Record<PickerMode, string> = {
    guild: t('picker.guild.description'),
    channel: t('picker.channel.description', { guild: guild?.name ?? '' }),
    role: t('picker.role.description', { channel: channel?.name ?? '' }),
  };
  return (
    <DialogHeader className="pr-6 text-left">
      <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase" data-testid="picker-step">
        {t('picker.step', { current: stepIndex, total: 3 })}
      </p>
      <DialogTitle>{titles[mode]}</DialogTitle>
      <DialogDescription id="server-picker-description">{descriptions[mode]}</DialogDescription>
    </DialogHeader>
  );
}
