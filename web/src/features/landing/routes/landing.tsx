import { ArrowRight, CalendarClock, Hash, MessageCircle, Webhook } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { DeliveryPreview } from '../components/delivery-preview';
import { usePageTitle } from '@/lib/use-page-title';

const FEATURES = [
  { icon: MessageCircle, titleKey: 'features.dm.title', textKey: 'features.dm.description' },
  { icon: Hash, titleKey: 'features.channel.title', textKey: 'features.channel.description' },
  { icon: Webhook, titleKey: 'features.webhook.title', textKey: 'features.webhook.description' },
  { icon: CalendarClock, titleKey: 'features.recurrence.title', textKey: 'features.recurrence.description' },
] as const;

const BENEFITS = [
  { titleKey: 'benefits.selfHosted.title', textKey: 'benefits.selfHosted.description' },
  { titleKey: 'benefits.precise.title', textKey: 'benefits.precise.description' },
  { titleKey: 'benefits.languages.title', textKey: 'benefits.languages.description' },
] as const;

export default function LandingPage() {
  const { t } = useTranslation('landing');
  usePageTitle(t('common:pageTitle.landing'));
  const { isAuthenticated } = useAuth();
  const ctaHref = isAuthenticated ? '/home' : '/login?tab=signup';

  return (
    <div className="overflow-x-clip">
      {/* Hero */}
      <section className="relative">
        <div className="pointer-events-none absolute inset-0 -z-10 bg-grid [mask-image:radial-gradient(ellipse_at_top,black_20%,transparent_70%)]" />
        <div className="pointer-events-none absolute top-[-10rem] left-1/2 -z-10 h-[28rem] w-[56rem] -translate-x-1/2 rounded-full bg-brand-gradient opacity-15 blur-3xl dark:opacity-20" />
        <div className="mx-auto grid max-w-7xl items-center gap-14 px-4 pt-16 pb-20 sm:px-6 md:pt-24 lg:grid-cols-[1.1fr_1fr] lg:px-8 lg:pb-28">
          <div className="space-y-7 animate-fade-in">
            <Badge variant="outline" className="gap-1.5 border-primary/30 bg-primary/5 px-3 py-1 text-primary">
              <span className="size-1.5 rounded-full bg-primary" />
              {t('hero.badge')}
            </Badge>
            <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-5xl lg:text-6xl" data-testid="hero-title">
              {t('hero.title')} <span className="text-gradient">{t('hero.titleHighlight')}</span>
            </h1>
            <p className="max-w-xl text-lg text-pretty text-muted-foreground">{t('hero.subtitle')}</p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button size="lg" variant="brand" asChild>
                <Link href={ctaHref} data-testid="hero-cta">
                  {t('hero.ctaPrimary')}
                  <ArrowRight />
                </Link>
              </Button>
              <Button size="lg" variant="outline" asChild>
                <Link href="/installation">{t('hero.ctaSecondary')}</Link>
              </Button>
            </div>
            <p className="text-sm text-muted-foreground">{t('hero.note')}</p>
          </div>
          <DeliveryPreview />
        </div>
      </section>

      {/* Features */}
      <section className="border-t bg-muted/30 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <div className="mx-auto mb-12 max-w-2xl text-center">
            <h2 className="text-3xl font-semibold tracking-tight sm:text-4xl">{t('features.title')}</h2>
            <p className="mt-3 text-muted-foreground">{t('features.subtitle')}</p>
          </div>
          <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {FEATURES.map(({ icon: Icon, titleKey, textKey }) => (
              <article
                key={titleKey}
                data-testid="feature-card"
                className="group rounded-xl border bg-card p-6 shadow-sm transition-all hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md"
              >
                <span className="mb-5 grid size-11 place-items-center rounded-lg bg-primary/10 text-primary transition-colors group-hover:bg-primary group-hover:text-primary-foreground">
                  <Icon className="size-5" />
                </span>
                <h3 className="mb-2 font-semibold">{t(titleKey)}</h3>
                <p className="text-sm leading-relaxed text-muted-foreground">{t(textKey)}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      {/* Benefits */}
      <section className="py-20 sm:py-24">
        <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[1fr_1.4fr] lg:px-8">
          <div className="space-y-3">
            <h2 className="text-3xl font-semibold tracking-tight sm:text-4xl">{t('benefits.title')}</h2>
            <p className="text-muted-foreground">{t('benefits.subtitle')}</p>
          </div>
          <ol className="space-y-8">
            {BENEFITS.map(({ titleKey, textKey }, index) => (
              <li key={titleKey} className="flex gap-5" data-testid="benefit">
                <span className="grid size-10 shrink-0 place-items-center rounded-full border border-primary/30 bg-primary/10 font-mono text-sm font-semibold text-primary">
                  {String(index + 1).padStart(2, '0')}
                </span>
                <div className="space-y-1.5 pt-1.5">
                  <h3 className="font-semibold">{t(titleKey)}</h3>
                  <p className="leading-relaxed text-muted-foreground">{t(textKey)}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      {/* Final call to action */}
      <section className="px-4 pb-20 sm:px-6 lg:px-8">
        <div className="relative mx-auto max-w-5xl overflow-hidden rounded-2xl bg-brand-gradient px-6 py-14 text-center text-white shadow-xl shadow-primary/20 sm:px-12">
          <div className="pointer-events-none absolute inset-0 bg-grid opacity-20 [mask-image:linear-gradient(to_bottom,black,transparent)]" />
          <h2 className="relative text-3xl font-semibold tracking-tight text-balance sm:text-4xl">{t('cta.title')}</h2>
          <p className="relative mx-auto mt-3 max-w-xl text-white/85">{t('cta.subtitle')}</p>
          <Button size="lg" asChild className="relative mt-8 bg-white text-indigo-700 shadow-lg hover:bg-white/90">
            <Link href={ctaHref}>
              {t('cta.button')}
              <ArrowRight />
            </Link>
          </Button>
        </div>
      </section>
    </div>
  );
}
