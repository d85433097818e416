import { useTranslation } from 'react-i18next';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { Alert } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { usePageTitle } from '@/lib/use-page-title';
import { useServers } from '../api/servers-api';
import { ServerList } from '../components/server-list';

/** /servers: the Discord servers where the account and Chime's bot both are. */
export default function ServersPage() {
  const { t } = useTranslation('servers');
  usePageTitle(t('title'));
  const { data, error, isLoading } = useServers();
  return (
    <PageContainer>
      <PageHeader title={t('title')} description={t('description')} />
      {isLoading && <Skeleton className="h-24 w-full rounded-xl" />}
      {error && <Alert variant="destructive">{errorMessage(error)}</Alert>}
      {data && data.length === 0 && (
        <p className="text-muted-foreground" data-testid="servers-empty">
          {t('list.empty')}
        </p>
      )}
      {data && data.length > 0 && <ServerList servers={data} />}
    </PageContainer>
  );
}
