import { ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useServerRules } from '@/lib/api/server-rules';
import { cn } from '@/lib/utils';

/**
 * A Discord server's rules in plain words, as they hold the signed-in account (docs/servers.md
 * "Settings and rules"): shown in the reminder form's channel step when a channel of the server is
 * picked, and on the server's page, so a member learns a rule before a save is refused. Only the
 * rules that limit something are listed; a manager is told none limits them. `channelId`: the
 * chosen channel, said plainly when the server's rules do not allow it.
 */
export function ServerRulesNote({ guildId, channelId, className }: { guildId: string; channelId?: string | null; className?: string }) {
  const { t } = useTranslation('servers');
  const { data: rules } = useServerRules(guildId);
  if (!rules) return null;
  const lines: Array<{ rule: string; text: string; blocking?: boolean }> = [];
  if (!rules.bound) lines.push({ rule: 'manager', text: t('rules.manager') });
  else {
    if (rules.who_can_create === 'managers') lines.push({ rule: 'who_can_create', text: t('rules.whoManagers'), blocking: true });
    if (rules.who_can_create === 'role' && rules.creator_role) {
      lines.push(
        rules.may_create
          ? { rule: 'who_can_create', text: t('rules.whoRoleYes', { role: rules.creator_role.name }) }
          : { rule: 'who_can_create', text: t('rules.whoRoleNo', { role: rules.creator_role.name }), blocking: true },
      );
    }
    if (rules.allowed_channels) {
      const names = rules.allowed_channels.map((c) => `#${c.name}`).join(', ');
      const outside = !!channelId && !rules.allowed_channels.some((c) => c.id === channelId);
      lines.push({ rule: 'allowed_channels', text: names ? t(outside ? 'rules.channelsNotThis' : 'rules.channels', { channels: names }) : t('rules.noChannel'), blocking: outside || !names });
    }
    if (rules.role_mentions === 'managers') lines.push({ rule: 'role_mentions', text: t('rules.roleMentionsManagers') });
    if (rules.role_mentions === 'nobody') lines.push({ rule: 'role_mentions', text: t('rules.roleMentionsNobody') });
    if (!rules.everyone_mention) lines.push({ rule: 'everyone_mention', text: t('rules.everyoneManagers') });
    if (rules.max_reminders !== null) {
      lines.push({ rule: 'max_reminders', text: t('rules.max', { max: rules.max_reminders, yours: rules.my_reminder_count }), blocking: rules.my_reminder_count >= rules.max_reminders });
    }
  }
  if (!rules.allow_remind_me_too) lines.push({ rule: 'allow_remind_me_too', text: t('rules.remindMeTooOff') });
  if (rules.default_timezone) lines.push({ rule: 'default_timezone', text: t('rules.zone', { zone: rules.default_timezone }) });
  if (rules.bound && lines.length === 0) lines.push({ rule: 'none', text: t('rules.none') });
  return (
    <div className={cn('mt-3 rounded-lg border px-3 py-2 text-sm', className)} data-testid="server-rules-note">
      <p className="flex items-center gap-1.5 font-medium">
        <ShieldCheck className="size-4 text-primary" aria-hidden />
        {t('rules.title')}
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs text-muted-foreground">
        {lines.map((line) => (
          <li key={line.rule} data-rule={line.rule} data-blocking={line.blocking ? 'true' : undefined} className={cn(line.blocking && 'font-medium text-destructive')}>
            {line.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
