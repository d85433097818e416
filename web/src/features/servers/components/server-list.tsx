import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import type { Server } from '../api/servers-api';

function ServerIcon({ server }: { server: Server }) {
  if (server.icon) return <img src={`https://cdn.discordapp.com/icons/${server.id}/${server.icon}.png?size=64`} alt="" className="size-10 rounded-full" />;
  return (
    <span className="flex size-10 items-center justify-center rounded-full bg-muted text-sm font-semibold" aria-hidden>
      {server.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The servers the account is in, each linking to its page. */
export function ServerList({ servers }: { servers: Server[] }) {
  const { t } = useTranslation('servers');
  return (
    <ul className="grid gap-3 sm:grid-cols-2" data-testid="server-list">
      {servers.map((server) => (
        <li key={server.id}>
          <Card className="p-4">
            <Link href={`/servers/${server.id}`} className="flex items-center gap-3 rounded-md focus-visible:outline-2" data-testid={`server-${server.id}`}>
              <ServerIcon server={server} />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">{server.name}</span>
                <span className="block text-sm text-muted-foreground">{t('list.reminderCount', { count: server.reminder_count })}</span>
              </span>
              <Badge variant={server.role === 'manager' ? 'default' : 'secondary'}>{t(server.role === 'manager' ? 'role.manager' : 'role.member')}</Badge>
            </Link>
          </Card>
        </li>
      ))}
    </ul>
  );
}
