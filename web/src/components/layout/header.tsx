import { LogOut, Menu } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/utils';
import { Logo } from './logo';
import { NAV_LINKS } from './nav-links';

/*
 * The menus (Radix dropdowns and the phone sheet) are separate chunks: the first page load only
 * needs the header's links and buttons. The preference menus load right after the first render,
 * the phone sheet on first use.
 */
const PreferenceMenus = lazy(() => import('./preference-menus'));
const MobileMenu = lazy(() => import('./mobile-menu'));
const loadMobileMenu = () => void import('./mobile-menu');

function isActive(location: string, href: string) {
  return location === href || (href !== '/' && location.startsWith(`${href}/`));
}

/** Keeps the header from shifting while the menus load: same size as the two menu buttons. */
function PreferenceMenusPlaceholder() {
  return <span aria-hidden className="inline-block h-8 w-24" />;
}

export function Header() {
  const { t } = useTranslation('common');
  const { isAuthenticated, logout, user } = useAuth();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuUsed, setMenuUsed] = useState(false);
  const links = NAV_LINKS.filter((link) => !link.auth || isAuthenticated);

  // Nearly opaque rather than a frosted blur: a backdrop blur repaints what scrolls under the header
  // on every frame, which in Chromium's software renderer was 40 % of the compositor's work.
  return (
    <header className="sticky top-0 z-40 w-full border-b border-border/60 bg-background/95">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Link href="/" className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" aria-label={t('header.homeLink')}>
          <Logo />
        </Link>

        <nav className="ml-4 hidden items-center gap-1 lg:flex" aria-label={t('header.navigation')}>
          {links.map((link) => (
            <Link
              key={link.href}
              href={link.href}
              aria-current={isActive(location, link.href) ? 'page' : undefined}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground',
                isActive(location, link.href) && 'bg-accent text-foreground',
              )}
            >
              {t(link.labelKey)}
            </Link>
          ))}
        </nav>

        <div className="ml-auto flex items-center gap-1">
          <Suspense fallback={<PreferenceMenusPlaceholder />}>
            <PreferenceMenus />
          </Suspense>
          <div className="hidden items-center gap-2 pl-2 lg:flex">
            {isAuthenticated ? (
              <>
                {user?.username && <span className="max-w-40 truncate text-sm text-muted-foreground">{user.username}</span>}
                <Button variant="outline" size="sm" onClick={() => void logout()} data-testid="logout-button">
                  <LogOut />
                  {t('actions.logout')}
                </Button>
              </>
            ) : (
              <Button variant="brand" size="sm" asChild>
                <Link href="/login" data-testid="start-now">
                  {t('actions.startNow')}
                </Link>
              </Button>
            )}
          </div>

          <Button
            variant="ghost"
            size="icon-sm"
            className="lg:hidden"
            aria-label={t('header.openMenu')}
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            data-testid="mobile-menu-button"
            onPointerEnter={loadMobileMenu}
            onFocus={loadMobileMenu}
            onClick={() => {
              setMenuUsed(true);
              setMenuOpen(true);
            }}
          >
            <Menu className="size-5" />
          </Button>
          {menuUsed && (
            <Suspense fallback={null}>
              <MobileMenu
                open={menuOpen}
                onOpenChange={setMenuOpen}
                links={links}
                isActive={(href) => isActive(location, href)}
                isAuthenticated={isAuthenticated}
                onLogout={() => void logout()}
              />
            </Suspense>
          )}
        </div>
      </div>
    </header>
  );
}
