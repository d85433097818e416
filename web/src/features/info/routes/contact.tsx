import { Bug, GitPullRequest, MessagesSquare } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const SECTIONS = [
  { id: 'issues', icon: Bug, titleKey: 'contact.issues.title', textKey: 'contact.issues.description' },
  { id: 'community', icon: MessagesSquare, titleKey: 'contact.community.title', textKey: 'contact.community.description' },
  { id: 'contribute', icon: GitPullRequest, titleKey: 'contact.contribute.title', textKey: 'contact.contribute.description' },
] as const;

export default function ContactPage() {
  const { t } = useTranslation('landing');
  return (
    <PageContainer size="md">
      <PageHeader title={t('contact.title')} description={t('contact.subtitle')} />
      <div className="grid gap-5">
        {SECTIONS.map(({ id, icon: Icon, titleKey, textKey }) => (
          <Card key={id} id={id} className="scroll-mt-24">
            <CardHeader className="flex-row items-start gap-4">
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" />
              </span>
              <div className="space-y-1.5">
                <CardTitle>{t(titleKey)}</CardTitle>
                <CardDescription className="leading-relaxed">{t(textKey)}</CardDescription>
              </div>
            </CardHeader>
          </Card>
        ))}
        <Card className="border-dashed bg-muted/30 shadow-none">
          <CardContent className="text-sm text-muted-foreground">{t('contact.tip')}</CardContent>
        </Card>
      </div>
    </PageContainer>
  );
}
