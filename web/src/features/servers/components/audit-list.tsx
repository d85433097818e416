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

/** The server's audit log, newest first. */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  const { t, i18n } = useTranslation('servers');
  if (entries.length === 0) return <p className="text-muted-foreground">{t('audit.empty')}</p>;
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <ul className="divide-y rounded-md border" data-testid="server-audit">
      {entries.map((e, i) => (
        <li key={`${e.at}-${i}`} className="flex flex-col gap-0.5 p-3 text-sm sm:flex-row sm:gap-4" data-testid="audit-entry" data-action={e.action}>
          <time dateTime={e.at} className="shrink-0 text-muted-foreground">
            {format.format(new Date(e.at))}
          </time>
          <span className="shrink-0 font-medium">{e.actor.username ?? e.actor.discord_user_id ?? t('audit.someone')}</span>
          <span className="shrink-0">{t(ACTION[e.action])}</span>
          <span className="min-w-0 break-words text-muted-foreground">{e.summary}</span>
        </li>
      ))}
    </ul>
  );
}
