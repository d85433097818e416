import { LogOut, Menu } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { Dialog, DialogDescription, DialogTitle, DialogTrigger, SheetContent } from '@/components/ui/dialog';
import { Separator } from '@/components/ui/separator';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/utils';
import { Logo } from './logo';
import { NAV_LINKS } from './nav-links';
import { LanguageMenu, ThemeMenu } from './preference-menus';

function isActive(location: string, href: string) {
  return location === href || (href !== '/' && location.startsWith(`${href}/`));
}

export function Header() {
  const { t } = useTranslation('common');
  const { isAuthenticated, logout, user } = useAuth();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const links = NAV_LINKS.filter((link) => !link.auth || isAuthenticated);

  return (
    <header className="sticky top-0 z-40 w-full border-b border-border/60 bg-background/75 backdrop-blur-xl supports-[backdrop-filter]:bg-background/60">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Link href="/" className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" aria-label={t('header.homeLink')}>
          <Logo />
        </Link>

        <nav className="ml-4 hidden items-center gap-1 md:flex" aria-label={t('header.navigation')}>
          {links.map((link) => (
            <Link
              key={link.href}
              href={link.href}
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
          <LanguageMenu />
          <ThemeMenu />
          <div className="hidden items-center gap-2 pl-2 md:flex">
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

          <Dialog open={menuOpen} onOpenChange={setMenuOpen}>
            <DialogTrigger asChild>
              <Button variant="ghost" size="icon-sm" className="md:hidden" aria-label={t('header.openMenu')} data-testid="mobile-menu-button">
                <Menu className="size-5" />
              </Button>
            </DialogTrigger>
            <SheetContent data-testid="mobile-menu">
              <DialogTitle asChild>
                <div>
                  <Logo />
                </div>
              </DialogTitle>
              <DialogDescription className="sr-only">{t('header.navigation')}</DialogDescription>
              <nav className="mt-4 flex flex-col gap-1" aria-label={t('header.navigation')}>
                {links.map((link) => (
                  <Link
                    key={link.href}
                    href={link.href}
                    onClick={() => setMenuOpen(false)}
                    className={cn(
                      'rounded-md px-3 py-2.5 text-base font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground',
                      isActive(location, link.href) && 'bg-accent text-foreground',
                    )}
                  >
                    {t(link.labelKey)}
                  </Link>
                ))}
              </nav>
              <Separator />
              <div className="mt-auto flex flex-col gap-2">
                {isAuthenticated ? (
                  <Button
                    variant="outline"
                    onClick={() => {
                      setMenuOpen(false);
                      void logout();
                    }}
                  >
                    <LogOut />
                    {t('actions.logout')}
                  </Button>
                ) : (
                  <Button variant="brand" asChild>
                    <Link href="/login" onClick={() => setMenuOpen(false)}>
                      {t('actions.startNow')}
                    </Link>
                  </Button>
                )}
              </div>
            </SheetContent>
          </Dialog>
        </div>
      </div>
    </header>
  );
}
