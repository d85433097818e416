import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { Alert } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-client';
import { usePageTitle } from '@/lib/use-page-title';
import { useGuildChannels, useGuildRoles, useServerAudit, useServerReminders, useServerSettings, useServers } from '../api/servers-api';
import { AuditList } from '../components/audit-list';
import { ServerReminders } from '../components/server-reminders';
import { SettingsForm } from '../components/settings-form';

/** /servers/:guildId: for managers, the server's reminders, its settings and its audit log. */
export default function ServerPage() {
  const { t } = useTranslation('servers');
  const { guildId = '' } = useParams<{ guildId: string }>();
  const servers = useServers();
  const server = servers.data?.find((s) => s.id === guildId);
  usePageTitle(server?.name ?? t('title'));
  const manager = server?.role === 'manager';
  const reminders = useServerReminders(guildId, manager);
  const settings = useServerSettings(guildId, manager);
  const audit = useServerAudit(guildId, manager);
  const roles = useGuildRoles(guildId, manager);
  const channels = useGuildChannels(guildId, manager);

  if (servers.isLoading) return <PageContainer><Skeleton className="h-48 w-full rounded-xl" /></PageContainer>;
  if (servers.error) return <PageContainer><Alert variant="destructive">{errorMessage(servers.error)}</Alert></PageContainer>;
  if (!server) {
    return (
      <PageContainer>
        <Alert variant="destructive" data-testid="server-not-found">{t('server.notFound')}</Alert>
        <Link href="/servers" className="mt-4 inline-block underline">{t('server.back')}</Link>
      </PageContainer>
    );
  }
  return (
    <PageContainer>
      <PageHeader title={server.name} description={t(manager ? 'server.managerDescription' : 'server.memberDescription')} />
      {!manager ? (
        <p className="text-muted-foreground" data-testid="server-member-note">{t('server.memberNote')}</p>
      ) : (
        <Tabs defaultValue="reminders">
          <TabsList>
            <TabsTrigger value="reminders" data-testid="tab-reminders">{t('tabs.reminders')}</TabsTrigger>
            <TabsTrigger value="settings" data-testid="tab-settings">{t('tabs.settings')}</TabsTrigger>
            <TabsTrigger value="audit" data-testid="tab-audit">{t('tabs.audit')}</TabsTrigger>
          </TabsList>
          <TabsContent value="reminders" className="pt-4">
            {reminders.error && <Alert variant="destructive">{errorMessage(reminders.error)}</Alert>}
            {reminders.data ? (
              <ServerReminders
                guildId={guildId}
                reminders={reminders.data.reminders}
                onChanged={() => {
                  void reminders.mutate();
                  void audit.mutate();
                  void servers.mutate();
                }}
              />
            ) : (
              !reminders.error && <Skeleton className="h-32 w-full rounded-xl" />
            )}
          </TabsContent>
          <TabsContent value="settings" className="pt-4">
            {settings.error && <Alert variant="destructive">{errorMessage(settings.error)}</Alert>}
            {settings.data ? (
              <SettingsForm
                key={JSON.stringify(settings.data)}
                guildId={guildId}
                settings={settings.data}
                roles={roles.data ?? []}
                channels={channels.data ?? []}
                onSaved={(saved) => {
                  void settings.mutate(saved, { revalidate: false });
                  void audit.mutate();
                }}
              />
            ) : (
              !settings.error && <Skeleton className="h-32 w-full rounded-xl" />
            )}
          </TabsContent>
          <TabsContent value="audit" className="pt-4">
            {audit.error && <Alert variant="destructive">{errorMessage(audit.error)}</Alert>}
            {audit.data ? <AuditList entries={audit.data.entries} /> : !audit.error && <Skeleton className="h-32 w-full rounded-xl" />}
          </TabsContent>
        </Tabs>
      )}
    </PageContainer>
  );
}
