import type { ReactNode } from 'react';
import { BookOpen, ExternalLink, LifeBuoy, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { usePublicLinks } from '@/lib/public-config';
import { Logo } from './logo';

export function Footer() {
  const { t } = useTranslation('common');
  const year = new Date().getFullYear();
  // SUPPORT_URL / COMMUNITY_URL of this server; a link without an address is not shown.
  const { links } = usePublicLinks();
  return (
    <footer className="border-t border-border/60 bg-muted/30">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.5fr_1fr_1fr_1fr] lg:px-8">
        <div className="space-y-3">
          <Logo />
          <p className="max-w-xs text-sm text-muted-foreground">{t('footer.tagline')}</p>
        </div>
        <FooterColumn icon={<BookOpen className="size-4" />} title={t('footer.documentation')}>
          <FooterLink href="/installation">{t('footer.installationGuide')}</FooterLink>
          <FooterLink href="/installation#discord">{t('footer.discordSetup')}</FooterLink>
        </FooterColumn>
        <FooterColumn icon={<LifeBuoy className="size-4" />} title={t('footer.support')}>
          <FooterLink href="/contact">{t('footer.contact')}</FooterLink>
          {links.support && (
            <FooterLink href={links.support} external testId="footer-report-issue">
              {t('footer.reportIssue')}
            </FooterLink>
          )}
        </FooterColumn>
        {links.community && (
          <FooterColumn icon={<Users className="size-4" />} title={t('footer.community')}>
            <FooterLink href={links.community} external testId="footer-discussions">
              {t('footer.discussions')}
            </FooterLink>
            <FooterLink href={links.community} external testId="footer-contribute">
              {t('footer.contribute')}
            </FooterLink>
          </FooterColumn>
        )}
      </div>
      <div className="border-t border-border/60">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-5 text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
          <span>{t('footer.copyright', { year })}</span>
          <span>{t('footer.selfHosted')}</span>
        </div>
      </div>
    </footer>
  );
}

function FooterColumn({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="mb-3 flex items-center gap-2 text-sm font-semibold">
        <span className="text-primary">{icon}</span>
        {title}
      </h3>
      <ul className="space-y-2 text-sm">{children}</ul>
    </div>
  );
}

function FooterLink({ href, children, external, testId }: { href: string; children: ReactNode; external?: boolean; testId?: string }) {
  const className = 'text-muted-foreground transition-colors hover:text-foreground';
  return (
    <li>
      {external ? (
        <a href={href} target="_blank" rel="noreferrer noopener" className={`${className} inline-flex items-center gap-1`} data-testid={testId}>
          {children}
          <ExternalLink className="size-3" aria-hidden />
        </a>
      ) : (
        <Link href={href} className={className} data-testid={testId}>
          {children}
        </Link>
      )}
    </li>
  );
}
