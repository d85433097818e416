import { Bot, Globe, Rocket, Server } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CodeBlock } from '../components/code-block';

const DISCORD_ENV = `DISCORD_CLIENT_ID=123456789012345678
DISCORD_CLIENT_SECRET=your-oauth2-client-secret
DISCORD_TOKEN=your-bot-token
PUBLIC_URL=https://chime.example.com`;

const DISCORD_STEPS = ['installation.discord.step1', 'installation.discord.step2', 'installation.discord.step3', 'installation.discord.step4'] as const;

export default function InstallationPage() {
  const { t } = useTranslation('landing');
  return (
    <PageContainer size="md">
      <PageHeader title={t('installation.title')} description={t('installation.subtitle')} />
      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Server className="size-5 text-primary" />
              {t('installation.requirements.title')}
            </CardTitle>
            <CardDescription>{t('installation.requirements.description')}</CardDescription>
          </CardHeader>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Rocket className="size-5 text-primary" />
              {t('installation.quickStart.title')}
            </CardTitle>
            <CardDescription>{t('installation.quickStart.description')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <CodeBlock code="npm install && npm start" />
            <p className="text-sm text-muted-foreground">
              <Trans t={t} i18nKey="installation.quickStart.open" components={{ code: <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs" /> }} />
            </p>
          </CardContent>
        </Card>

        <Card id="discord" className="scroll-mt-24">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Bot className="size-5 text-primary" />
              {t('installation.discord.title')}
            </CardTitle>
            <CardDescription>{t('installation.discord.description')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <ol className="list-decimal space-y-2 pl-5 text-sm">
              {DISCORD_STEPS.map((key) => (
                <li key={key}>{t(key)}</li>
              ))}
            </ol>
            <CodeBlock code={DISCORD_ENV} />
            <p className="text-sm text-muted-foreground">{t('installation.discord.note')}</p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Globe className="size-5 text-primary" />
              {t('installation.production.title')}
            </CardTitle>
            <CardDescription>{t('installation.production.description')}</CardDescription>
          </CardHeader>
        </Card>
      </div>
    </PageContainer>
  );
}
