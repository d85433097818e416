import { ArrowLeft, Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import type { Channel, Guild, Role } from '@/lib/api/reminders';
import type { PickerMode } from './use-server-picker';

interface PickerFooterProps {
  mode: PickerMode;
  guild: Guild | null;
  channel: Channel | null;
  /** The chosen channel can be saved as it is (a forum that requires a tag has one, and the server's rules allow it). */
  channelReady: boolean;
  role: Role | null;
  loading: boolean;
  botMissing: boolean;
  onBack: () => void;
  onNext: () => void;
  onAddRole: () => void;
  /** Creates the destination, mentioning the role given (null: no mention). */
  onCreate: (role: Role | null) => void;
}

/** The picker's buttons: Back, then Next on step 1, Add a role or Create on step 2, Skip or Create on step 3. */
export function PickerFooter({ mode, guild, channel, channelReady, role, loading, botMissing, onBack, onNext, onAddRole, onCreate }: PickerFooterProps) {
  const { t } = useTranslation('destinations');
  return (
    <DialogFooter className="gap-2 sm:justify-between">
      <div className="flex gap-2">
        {mode !== 'guild' && (
          <Button type="button" variant="ghost" onClick={onBack} data-testid="picker-back">
            <ArrowLeft />
            {t('picker.actions.back')}
          </Button>
        )}
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row">
        {mode === 'guild' && (
          <Button type="button" onClick={onNext} disabled={!guild || botMissing || loading} data-testid="picker-next">
            {loading && guild ? <Spinner /> : null}
            {t('picker.actions.next')}
          </Button>
        )}
        {mode === 'channel' && (
          <>
            <Button type="button" variant="outline" onClick={onAddRole} disabled={!channel || !channelReady} data-testid="picker-add-role">
              {t('picker.actions.addRole')}
            </Button>
            <Button type="button" onClick={() => onCreate(null)} disabled={!channel || !channelReady} data-testid="picker-create">
              <Check />
              {t('picker.actions.create')}
            </Button>
          </>
        )}
        {mode === 'role' && (
          <>
            <Button type="button" variant="outline" onClick={() => onCreate(null)} disabled={!channelReady} data-testid="picker-skip-role">
              {t('picker.actions.skipRole')}
            </Button>
            <Button type="button" onClick={() => onCreate(role)} disabled={!role || !channelReady} data-testid="picker-create">
              <Check />
              {t('picker.actions.create')}
            </Button>
          </>
        )}
      </div>
    </DialogFooter>
  );
}
