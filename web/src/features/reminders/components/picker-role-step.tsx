import { Shield, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import type { Channel, Role } from '@/lib/api/reminders';
import { bareRoleName } from '@/lib/delivery-text';
import { cn } from '@/lib/utils';
import { roleColor } from '../api/destinations';
import { Option } from './picker-options';
import { PickerStepList } from './picker-step-list';

interface PickerRoleStepProps {
  /** The mentionable roles, or null until loaded. */
  roles: Role[] | null;
  role: Role | null;
  channel: Channel | null;
  loading: boolean;
  onSelect: (role: Role) => void;
}

/** Step 3: the role to mention, each in its colour; warns first when the bot may not mention in the channel. */
export function PickerRoleStep({ roles, role, channel, loading, onSelect }: PickerRoleStepProps) {
  const { t } = useTranslation('destinations');
  return (
    <>
      {channel?.bot_can_mention === false && (
        <Alert className="mb-3 border-warning/50 bg-warning/10 text-amber-800 dark:text-warning" data-testid="picker-mention-warning">
          <TriangleAlert />
          <span className="flex-1">{t('delivery:check.mentionWarning', { channel: channel.name })}</span>
        </Alert>
      )}
      <PickerStepList items={roles} loading={loading} empty={t('picker.role.empty')} label={t('picker.role.title')} testId="role-list">
        {(r) => {
          const color = roleColor(r.color);
          return (
            <Option key={r.id} selected={role?.id === r.id} onSelect={() => onSelect(r)} testId={`role-${r.id}`}>
              <span
                className={cn('size-3 shrink-0 rounded-full ring-1 ring-black/10 dark:ring-white/15', !color && 'bg-zinc-400 dark:bg-zinc-500')}
                style={color ? { backgroundColor: color } : undefined}
                data-testid="role-color"
                data-color={color ?? 'none'}
                aria-hidden
              />
              <Shield className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
              <span className="min-w-0 flex-1 truncate" style={color ? { color } : undefined}>
                @{bareRoleName(r.name)}
              </span>
            </Option>
          );
        }}
      </PickerStepList>
    </>
  );
}
