import { Bot, Globe, Rocket, Server, SlidersHorizontal } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { PageContainer, PageHeader } from '@/components/layout/page-shell';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { usePageTitle } from '@/lib/use-page-title';
import { CodeBlock } from '../components/code-block';

/* The setup steps of the README, in the dashboard: keep both saying the same thing. */

const SETTINGS_ENV = `PORT=3000
HOST=127.0.0.1
PUBLIC_URL=http://localhost:3000
DATABASE_URL=./data/chime.db
# Optional: where "Report an issue" and "Discussions" lead (empty hides them)
SUPPORT_URL=https://github.com/your-org/chime/issues
COMMUNITY_URL=https://github.com/your-org/chime/discussions`;

const DISCORD_ENV = `DISCORD_CLIENT_ID=123456789012345678
DISCORD_CLIENT_SECRET=your-oauth2-client-secret
DISCORD_TOKEN=your-bot-token`;

const PROXY_ENV = `PUBLIC_URL=https://chime.example.com
TRUST_PROXY=true
HOST=127.0.0.1`;

const CADDYFILE = `chime.example.com {
  reverse_proxy 127.0.0.1:3000
}`;

const DISCORD_STEPS = [
  'installation.discord.step1',
  'installation.discord.step2',
  'installation.discord.step3',
  'installation.discord.step4',
  'installation.discord.step5',
  'installation.discord.step6',
] as const;

const code = <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs break-all" />;

export default function InstallationPage() {
  const { t } = useTranslation('landing');
  usePageTitle(t('common:pageTitle.installation'));
  const text = (key: string) => <Trans t={t} i18nKey={key} components={{ code }} />;
  return (
    <PageContainer size="md">
      <PageHeader title={t('installation.title')} description={t('installation.subtitle')} />
      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardHeading className="flex items-center gap-2">
              <Server className="size-5 text-primary" />
              {t('installation.requirements.title')}
            </CardHeading>
            <CardDescription className="leading-relaxed">{t('installation.requirements.description')}</CardDescription>
          </CardHeader>
        </Card>

        <Card>
          <CardHeader>
            <CardHeading className="flex items-center gap-2">
              <Rocket className="size-5 text-primary" />
              {t('installation.quickStart.title')}
            </CardHeading>
            <CardDescription>{t('installation.quickStart.description')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <CodeBlock code="npm install && npm start" />
            <p className="text-sm leading-relaxed text-muted-foreground">{text('installation.quickStart.open')}</p>
          </CardContent>
        </Card>

        <Card id="settings" className="scroll-mt-24" data-testid="installation-settings">
          <CardHeader>
            <CardHeading className="flex items-center gap-2">
              <SlidersHorizontal className="size-5 text-primary" />
              {t('installation.settings.title')}
            </CardHeading>
            <CardDescription className="leading-relaxed">{text('installation.settings.description')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <CodeBlock code={SETTINGS_ENV} />
            <p className="text-sm text-muted-foreground">{t('installation.settings.note')}</p>
          </CardContent>
        </Card>

        <Card id="discord" className="scroll-mt-24" data-testid="installation-discord">
          <CardHeader>
            <CardHeading className="flex items-center gap-2">
              <Bot className="size-5 text-primary" />
              {t('installation.discord.title')}
            </CardHeading>
            <CardDescription>{t('installation.discord.description')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <ol className="list-decimal space-y-2 pl-5 text-sm leading-relaxed">
              {DISCORD_STEPS.map((key) => (
                <li key={key}>{text(key)}</li>
              ))}
            </ol>
            <CodeBlock code={DISCORD_ENV} />
            <p className="text-sm text-muted-foreground">{t('installation.discord.note')}</p>
          </CardContent>
        </Card>

        <Card id="reverse-proxy" className="scroll-mt-24" data-testid="installation-proxy">
          <CardHeader>
            <CardHeading className="flex items-center gap-2">
              <Globe className="size-5 text-primary" />
              {t('installation.production.title')}
            </CardHeading>
            <CardDescription className="leading-relaxed">{t('installation.production.description')}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <CodeBlock code={PROXY_ENV} />
            <p className="text-sm text-muted-foreground">{t('installation.production.proxy')}</p>
            <CodeBlock code={CADDYFILE} />
            <p className="text-sm leading-relaxed text-muted-foreground">{text('installation.production.service')}</p>
          </CardContent>
        </Card>
      </div>
    </PageContainer>
  );
}
