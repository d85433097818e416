import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { Link, useParams } from 'wouter';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { ServerRulesNote } from '@/components/server-rules-note';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-client';
import { remindersKey as accountRemindersKey } from '@/lib/api/reminders';
import { serverRulesKey } from '@/lib/api/server-rules';
import { usePageTitle } from '@/lib/use-page-title';
import { useGuildChannels, useGuildRoles, useMyServerReminders, useServerAudit, useServerReminders, useServerSettings, useServers } from '../api/servers-api';
import { AuditList } from '../components/audit-list';
import { MyServerReminders } from '../components/my-server-reminders';
import { ServerReminders } from '../components/server-reminders';
import { SettingsForm } from '../components/settings-form';

/**
 * /servers/:guildId: for managers, the server's reminders (100 at a time, "Load more"), their own
 * reminders there, its settings and its audit log; for members, the server's rules as they hold
 * them and their own reminders there.
 */
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
  const mine = useMyServerReminders(guildId, !!server);
  const { mutate } = useSWRConfig();
  const mineChanged = () => {
    void mine.mutate();
    void mutate(accountRemindersKey);
    void mutate(serverRulesKey(guildId));
    void servers.mutate();
    if (manager) {
      void reminders.mutate();
      void audit.mutate();
    }
  };
  const mineSection = (
    <section className="space-y-3" aria-labelledby="my-server-reminders-title">
      <h2 id="my-server-reminders-title" className="text-lg font-semibold">
        {t('mine.title')}
      </h2>
      {mine.error && <Alert variant="destructive">{errorMessage(mine.error)}</Alert>}
      {mine.data ? <MyServerReminders guildId={guildId} reminders={mine.data.flatMap((p) => p.reminders)} onChanged={mineChanged} /> : !mine.error && <Skeleton className="h-24 w-full rounded-xl" />}
      {mine.hasMore && (
        <Button variant="outline" className="w-full" onClick={mine.loadMore} disabled={mine.loadingMore} data-testid="my-server-reminders-more">
          {t('reminders.loadMore')}
        </Button>
      )}
    </section>
  );

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
        <div className="space-y-6">
          <p className="text-muted-foreground" data-testid="server-member-note">{t('server.memberNote')}</p>
          <ServerRulesNote guildId={guildId} className="mt-0" />
          {mineSection}
        </div>
      ) : (
        <Tabs defaultValue="reminders">
          <TabsList>
            <TabsTrigger value="reminders" data-testid="tab-reminders">{t('tabs.reminders')}</TabsTrigger>
            <TabsTrigger value="mine" data-testid="tab-mine">{t('tabs.mine')}</TabsTrigger>
            <TabsTrigger value="settings" data-testid="tab-settings">{t('tabs.settings')}</TabsTrigger>
            <TabsTrigger value="audit" data-testid="tab-audit">{t('tabs.audit')}</TabsTrigger>
          </TabsList>
          <TabsContent value="reminders" className="pt-4">
            {reminders.error && <Alert variant="destructive">{errorMessage(reminders.error)}</Alert>}
            {reminders.data ? (
              <ServerReminders
                guildId={guildId}
                reminders={reminders.data.flatMap((p) => p.reminders)}
                hasMore={reminders.hasMore}
                loadingMore={reminders.loadingMore}
                onLoadMore={reminders.loadMore}
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
          <TabsContent value="mine" className="pt-4">
            {mineSection}
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
