import { Construction } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '@/components/layout/page-shell';

/** Temporary screen for routes whose feature is still being built. */
export function PlaceholderPage({ title }: { title: string }) {
  const { t } = useTranslation('common');
  return (
    <PageContainer size="md">
      <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed p-12 text-center">
        <Construction className="size-10 text-muted-foreground" />
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="text-muted-foreground">{t('status.underConstruction')}</p>
      </div>
    </PageContainer>
  );
}
