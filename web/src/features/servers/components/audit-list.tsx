import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../api/servers-api';

// Literal keys, so the locale check sees each one used.
const ACTION = {
  create: 'audit.action.create',
  edit: 'audit.action.edit',
  pause: 'audit.action.pause',
  resume: 'audit.action.resume',
  delete: 'audit.action.delete',
  take_over: 'audit.action.take_over',
  settings: 'audit.action.settings',
} as const;

const DETAIL = {
  created: 'audit.detail.created',
  edited: 'audit.detail.edited',
  paused: 'audit.detail.paused',
  resumed: 'audit.detail.resumed',
  deleted: 'audit.detail.deleted',
  pausedHere: 'audit.detail.pausedHere',
  resumedHere: 'audit.detail.resumedHere',
  formerMemberPaused: 'audit.detail.formerMemberPaused',
  removed: 'audit.detail.removed',
  removedEnded: 'audit.detail.removedEnded',
  tookOver: 'audit.detail.tookOver',
  settings: 'audit.detail.settings',
  formerMemberPausedAll: 'audit.detail.formerMemberPausedAll',
} as const satisfies Record<NonNullable<AuditEntry['detail']>['kind'], string>;

/** A changed setting by the label its form gives it. */
const SETTING_LABEL: Record<string, string> = {
  manager_role_id: 'settings.managerRole',
  default_timezone: 'settings.defaultTimezone',
  who_can_create: 'settings.whoCanCreate',
  creator_role_id: 'audit.fields.creatorRole',
  role_mentions: 'settings.roleMentions',
  everyone_mention: 'audit.fields.everyoneMention',
  allowed_channel_ids: 'settings.channels',
  max_reminders: 'settings.maxReminders',
  former_members: 'settings.formerMembers',
  allow_remind_me_too: 'audit.fields.remindMeToo',
};

/** The server's audit log, newest first. */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  const { t, i18n } = useTranslation('servers');
  if (entries.length === 0) return <p className="text-muted-foreground">{t('audit.empty')}</p>;
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  // In the reader's language when the entry says what changed as data; else the server's English.
  const what = (e: AuditEntry) => {
    if (!e.detail) return e.summary;
    const params = { ...e.detail.params };
    if (e.detail.kind === 'settings') params.fields = list.format((params.fields ?? '').split(',').map((f) => (SETTING_LABEL[f] ? t(SETTING_LABEL[f]) : f)));
    return t(DETAIL[e.detail.kind], params);
  };
  return (
    <ul className="divide-y rounded-md border" data-testid="server-audit">
      {entries.map((e, i) => (
        <li key={`${e.at}-${i}`} className="flex flex-col gap-0.5 p-3 text-sm sm:flex-row sm:gap-4" data-testid="audit-entry" data-action={e.action}>
          <time dateTime={e.at} className="shrink-0 text-muted-foreground">
            {format.format(new Date(e.at))}
          </time>
          <span className="shrink-0 font-medium">{e.actor.username ?? e.actor.discord_user_id ?? t('audit.someone')}</span>
          <span className="shrink-0">{t(ACTION[e.action])}</span>
          <span className="min-w-0 break-words text-muted-foreground">{what(e)}</span>
        </li>
      ))}
    </ul>
  );
}
