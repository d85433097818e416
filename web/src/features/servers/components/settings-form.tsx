import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { type GuildChannel, type GuildRole, saveServerSettings, type ServerSettings } from '../api/servers-api';

interface Props {
  guildId: string;
  settings: ServerSettings;
  roles: GuildRole[];
  channels: GuildChannel[];
  onSaved: (settings: ServerSettings) => void;
}

const select = 'h-9 w-full max-w-sm rounded-md border bg-background px-2 text-sm';

/** The server's rules (docs/servers.md "Settings and rules"). */
export function SettingsForm({ guildId, settings, roles, channels, onSaved }: Props) {
  const { t } = useTranslation('servers');
  const [draft, setDraft] = useState<ServerSettings>(settings);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof ServerSettings>(key: K, value: ServerSettings[K]) => setDraft((d) => ({ ...d, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      const saved = await saveServerSettings(guildId, draft);
      toast.success(t('settings.saved'));
      onSaved(saved);
    } catch (error) {
      toast.error(errorMessage(error, t('settings.failed')));
    } finally {
      setSaving(false);
    }
  }

  const roleSelect = (id: string, value: string | null, onChange: (v: string | null) => void, testId: string) => (
    <select id={id} className={select} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)} data-testid={testId}>
      <option value="">{t('settings.none')}</option>
      {roles.map((r) => (
        <option key={r.id} value={r.id}>
          @{r.name}
        </option>
      ))}
    </select>
  );

  const limited = draft.allowed_channel_ids !== null;
  return (
    <form className="max-w-2xl space-y-6" onSubmit={(e) => void submit(e)} data-testid="server-settings-form">
      <div className="space-y-1.5">
        <Label htmlFor="manager-role">{t('settings.managerRole')}</Label>
        {roleSelect('manager-role', draft.manager_role_id, (v) => set('manager_role_id', v), 'settings-manager-role')}
        <p className="text-sm text-muted-foreground">{t('settings.managerRoleHelp')}</p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="who-can-create">{t('settings.whoCanCreate')}</Label>
        <select id="who-can-create" className={select} value={draft.who_can_create} onChange={(e) => set('who_can_create', e.target.value as ServerSettings['who_can_create'])} data-testid="settings-who-can-create">
          <option value="everyone">{t('settings.who.everyone')}</option>
          <option value="role">{t('settings.who.role')}</option>
          <option value="managers">{t('settings.who.managers')}</option>
        </select>
        {draft.who_can_create === 'role' && roleSelect('creator-role', draft.creator_role_id, (v) => set('creator_role_id', v), 'settings-creator-role')}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="role-mentions">{t('settings.roleMentions')}</Label>
        <select id="role-mentions" className={select} value={draft.role_mentions} onChange={(e) => set('role_mentions', e.target.value as ServerSettings['role_mentions'])} data-testid="settings-role-mentions">
          <option value="everyone">{t('settings.mentions.everyone')}</option>
          <option value="managers">{t('settings.mentions.managers')}</option>
          <option value="nobody">{t('settings.mentions.nobody')}</option>
        </select>
      </div>
      <div className="space-y-1.5">
        <div className="flex items-center gap-2">
          <Checkbox
            id="everyone-mention"
            checked={draft.everyone_mention}
            onCheckedChange={(v) => set('everyone_mention', v === true)}
            aria-describedby="everyone-mention-help"
            data-testid="settings-everyone-mention"
          />
          <Label htmlFor="everyone-mention">{t('settings.everyoneMention')}</Label>
        </div>
        <p id="everyone-mention-help" className="text-sm text-muted-foreground">
          {t('settings.everyoneMentionHelp')}
        </p>
      </div>
      <div className="space-y-1.5">
        <div className="flex items-center gap-2">
          <Checkbox
            id="remind-me-too"
            checked={draft.allow_remind_me_too !== false}
            onCheckedChange={(v) => set('allow_remind_me_too', v === true)}
            aria-describedby="remind-me-too-help"
            data-testid="settings-remind-me-too"
          />
          <Label htmlFor="remind-me-too">{t('settings.remindMeToo')}</Label>
        </div>
        <p id="remind-me-too-help" className="text-sm text-muted-foreground">
          {t('settings.remindMeTooHelp')}
        </p>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t('settings.channels')}</legend>
        <div className="flex items-center gap-2">
          <Checkbox id="limit-channels" checked={limited} onCheckedChange={(v) => set('allowed_channel_ids', v === true ? [] : null)} data-testid="settings-limit-channels" />
          <Label htmlFor="limit-channels">{t('settings.limitChannels')}</Label>
        </div>
        {limited && (
          <ul className="grid gap-1 pl-6 sm:grid-cols-2">
            {channels.map((c) => {
              const checked = draft.allowed_channel_ids?.includes(c.id) ?? false;
              return (
                <li key={c.id} className="flex items-center gap-2">
                  <Checkbox
                    id={`channel-${c.id}`}
                    checked={checked}
                    onCheckedChange={(v) => set('allowed_channel_ids', v === true ? [...(draft.allowed_channel_ids ?? []), c.id] : (draft.allowed_channel_ids ?? []).filter((id) => id !== c.id))}
                    data-testid={`settings-channel-${c.id}`}
                  />
                  <Label htmlFor={`channel-${c.id}`}>#{c.name}</Label>
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>
      <div className="space-y-1.5">
        <Label htmlFor="max-reminders">{t('settings.maxReminders')}</Label>
        <Input
          id="max-reminders"
          type="number"
          min={0}
          max={10000}
          className="max-w-40"
          value={draft.max_reminders ?? ''}
          onChange={(e) => set('max_reminders', e.target.value === '' ? null : Math.max(0, Math.floor(Number(e.target.value))))}
          data-testid="settings-max-reminders"
        />
        <p className="text-sm text-muted-foreground">{t('settings.maxRemindersHelp')}</p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="former-members">{t('settings.formerMembers')}</Label>
        <select id="former-members" className={select} value={draft.former_members} onChange={(e) => set('former_members', e.target.value as ServerSettings['former_members'])} data-testid="settings-former-members">
          <option value="keep">{t('settings.former.keep')}</option>
          <option value="pause">{t('settings.former.pause')}</option>
        </select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="default-timezone">{t('settings.defaultTimezone')}</Label>
        <Input id="default-timezone" className="max-w-sm" value={draft.default_timezone ?? ''} placeholder="Europe/Paris" onChange={(e) => set('default_timezone', e.target.value.trim() || null)} aria-describedby="default-timezone-help" data-testid="settings-default-timezone" />
        <p id="default-timezone-help" className="text-sm text-muted-foreground">
          {t('settings.defaultTimezoneHelp')}
        </p>
      </div>
      <Button type="submit" disabled={saving} aria-busy={saving} data-testid="settings-save">
        {t('settings.save')}
      </Button>
    </form>
  );
}
