import { bareRoleName } from '@/lib/delivery-text';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { ServerRulesNote } from '@/components/server-rules-note';
import type { Role } from '@/lib/api/reminders';
import { rulesRefuseChannel, useServerRules } from '@/lib/api/server-rules';
import { ANNOUNCEMENT_CHANNEL, CHANNEL_KIND_KEYS, channelKind, channelReady, type EditableDestination, pickerChannelMetadata, toggleForumTag } from '../api/destinations';
import { PickerBreadcrumb } from './picker-breadcrumb';
import { PickerChannelStep } from './picker-channel-step';
import { PickerFooter } from './picker-footer';
import { PickerGuildStep } from './picker-guild-step';
import { PickerHeader } from './picker-header';
import { PickerRoleStep } from './picker-role-step';
import { useServerPicker } from './use-server-picker';

export interface ServerPickerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Account id sent in the body (the server uses the session anyway). */
  accountId: string;
  onCreate: (destination: EditableDestination) => void;
}

/**
 * Three steps: server, text channel, optional role to mention (docs/dashboard.md "Destinations").
 * Guilds load each time the dialog opens; everything resets when it closes.
 */
export function ServerPickerDialog({ open, onOpenChange, accountId, onCreate }: ServerPickerDialogProps) {
  const { t } = useTranslation('destinations');
  const picker = useServerPicker(open, accountId);
  const { t: tc } = useTranslation('channels');
  const { mode, guild, channel, loading } = picker;
  const [publish, setPublish] = useState(false);
  const [tags, setTags] = useState<string[]>([]);
  // Asked afresh for each announcement channel or forum chosen.
  useEffect(() => {
    setPublish(false);
    setTags([]);
  }, [channel?.id, open]);
  const [remindMeToo, setRemindMeToo] = useState(false);
  useEffect(() => setRemindMeToo(false), [open]);
  // The rules note below says why Create is off (the same request: swr shares it).
  const { data: rules } = useServerRules(guild && mode !== 'guild' ? guild.id : null);
  const refusedByRules = rulesRefuseChannel(rules, channel?.id ?? null);

  function create(withRole: Role | null) {
    if (!guild || !channel) return;
    const named = withRole
      ? t('channelLabelWithRole', { channel: channel.name, guild: guild.name, role: bareRoleName(withRole.name) })
      : t('channelLabel', { channel: channel.name, guild: guild.name });
    const published = publish && channel.type === ANNOUNCEMENT_CHANNEL;
    const kind = channelKind(channel.type);
    const label = published ? tc('label.published', { label: named }) : kind === 'text' ? named : tc('label.kind', { label: named, kind: tc(CHANNEL_KIND_KEYS[kind]) });
    onCreate({
      type: 'discord_channel',
      metadata: pickerChannelMetadata(guild.id, channel, { roleId: withRole?.id ?? null, publish, tags, remindMeToo }),
      label,
    });
    onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="gap-5 sm:max-w-lg" data-testid="server-picker" data-mode={mode} aria-describedby="server-picker-description">
        <PickerHeader mode={mode} guild={guild} channel={channel} />

        {guild && mode !== 'guild' && <PickerBreadcrumb guild={guild} channel={mode === 'role' ? channel : null} />}

        <div className="min-h-40">
          {picker.error && (
            <Alert variant="destructive" className="mb-3" data-testid="picker-error">
              <span className="flex-1">{picker.error}</span>
            </Alert>
          )}

          {mode === 'guild' && (
            <PickerGuildStep
              guilds={picker.guilds}
              guild={guild}
              loading={loading}
              botMissing={picker.botMissing}
              onSelect={picker.chooseGuild}
              onActivate={picker.activateGuild}
              onInvite={picker.openInvite}
              onRecheck={() => void picker.recheck()}
            />
          )}
          {mode === 'channel' && (
            <PickerChannelStep
              channels={picker.channels}
              channel={channel}
              onSelect={picker.setChannel}
              publish={publish}
              onPublishChange={setPublish}
              tags={tags}
              onToggleTag={(id) => channel && setTags((chosen) => toggleForumTag(channel, chosen, id))}
              archivedOf={picker.archivedOf}
              onShowArchived={(c) => void picker.loadArchived(c)}
              loading={loading}
              remindMeToo={remindMeToo}
              onRemindMeTooChange={setRemindMeToo}
            />
          )}
          {/* The server's rules for this account, before a save they would refuse (docs/servers.md). */}
          {mode === 'channel' && guild && <ServerRulesNote guildId={guild.id} channelId={channel?.id ?? null} />}
          {mode === 'role' && <PickerRoleStep roles={picker.roles} role={picker.role} channel={channel} loading={loading} onSelect={picker.setRole} />}
        </div>

        <PickerFooter
          mode={mode}
          guild={guild}
          channel={channel}
          channelReady={channelReady(channel, tags) && !refusedByRules}
          role={picker.role}
          loading={loading}
          botMissing={picker.botMissing}
          onBack={picker.back}
          onNext={picker.next}
          onAddRole={() => void picker.loadRoles()}
          onCreate={create}
        />
      </DialogContent>
    </Dialog>
  );
}
