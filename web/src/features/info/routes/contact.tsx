import { Bug, ExternalLink, GitPullRequest, MessagesSquare } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { type PublicLinks, usePublicLinks } from '@/lib/public-config';
import { usePageTitle } from '@/lib/use-page-title';

/** Each section leads to the address the server's owner set (SUPPORT_URL, COMMUNITY_URL); without one it is not shown. */
const SECTIONS: readonly {
  id: string;
  link: keyof PublicLinks;
  icon: typeof Bug;
  titleKey: string;
  textKey: string;
  actionKey: string;
}[] = [
  { id: 'issues', link: 'support', icon: Bug, titleKey: 'contact.issues.title', textKey: 'contact.issues.description', actionKey: 'contact.issues.action' },
  { id: 'community', link: 'community', icon: MessagesSquare, titleKey: 'contact.community.title', textKey: 'contact.community.description', actionKey: 'contact.community.action' },
  { id: 'contribute', link: 'community', icon: GitPullRequest, titleKey: 'contact.contribute.title', textKey: 'contact.contribute.description', actionKey: 'contact.contribute.action' },
];

export default function ContactPage() {
  const { t } = useTranslation('landing');
  usePageTitle(t('common:pageTitle.contact'));
  const { links, loaded } = usePublicLinks();
  const shown = SECTIONS.filter((section) => links[section.link]);
  return (
    <PageContainer size="md">
      <PageHeader title={t('contact.title')} description={t('contact.subtitle')} />
      <div className="grid gap-5" data-testid="contact-sections">
        {shown.map(({ id, link, icon: Icon, titleKey, textKey, actionKey }) => (
          <Card key={id} id={id} className="scroll-mt-24" data-testid={`contact-${id}`}>
            <CardHeader className="flex-row items-start gap-4">
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" />
              </span>
              <div className="space-y-3">
                <div className="space-y-1.5">
                  <CardHeading>{t(titleKey)}</CardHeading>
                  <CardDescription className="leading-relaxed">{t(textKey)}</CardDescription>
                </div>
                <Button asChild variant="outline" size="sm">
                  <a href={links[link] ?? undefined} target="_blank" rel="noreferrer noopener" data-testid={`contact-${id}-link`}>
                    {t(actionKey)}
                    <ExternalLink aria-hidden />
                  </a>
                </Button>
              </div>
            </CardHeader>
          </Card>
        ))}
        {loaded && shown.length === 0 && (
          <Card className="shadow-none" data-testid="contact-no-links">
            <CardContent className="text-sm text-muted-foreground">{t('contact.noLinks')}</CardContent>
          </Card>
        )}
        <Card className="border-dashed bg-muted/30 shadow-none">
          <CardContent className="text-sm text-muted-foreground">{t('contact.tip')}</CardContent>
        </Card>
      </div>
    </PageContainer>
  );
}
