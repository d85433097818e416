import type { ReactNode } from 'react';
import { BookOpen, LifeBuoy, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Logo } from './logo';

export function Footer() {
  const { t } = useTranslation('common');
  const year = new Date().getFullYear();
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
          <FooterLink href="/contact#issues">{t('footer.reportIssue')}</FooterLink>
        </FooterColumn>
        <FooterColumn icon={<Users className="size-4" />} title={t('footer.community')}>
          <FooterLink href="/contact#community">{t('footer.discussions')}</FooterLink>
          <FooterLink href="/contact#contribute">{t('footer.contribute')}</FooterLink>
        </FooterColumn>
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

function FooterLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <li>
      <Link href={href} className="text-muted-foreground transition-colors hover:text-foreground">
        {children}
      </Link>
    </li>
  );
}
