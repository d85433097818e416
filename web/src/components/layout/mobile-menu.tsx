import { LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Dialog, DialogDescription, DialogTitle, SheetContent } from '@/components/ui/dialog';
import { Separator } from '@/components/ui/separator';
import { cn } from '@/lib/utils';
import { Logo } from './logo';
import type { NavLink } from './nav-links';

export interface MobileMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  links: readonly NavLink[];
  isActive: (href: string) => boolean;
  isAuthenticated: boolean;
  onLogout: () => void;
}

/**
 * The phone menu sheet. Loaded on first use (see header.tsx) so the dialog code stays out of the
 * first page load; closing it returns focus to the hamburger button (Radix focus scope).
 */
export default function MobileMenu({ open, onOpenChange, links, isActive, isAuthenticated, onLogout }: MobileMenuProps) {
  const { t } = useTranslation('common');
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
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
              onClick={close}
              aria-current={isActive(link.href) ? 'page' : undefined}
              className={cn(
                'rounded-md px-3 py-2.5 text-base font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground',
                isActive(link.href) && 'bg-accent text-foreground',
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
                close();
                onLogout();
              }}
            >
              <LogOut />
              {t('actions.logout')}
            </Button>
          ) : (
            <Button variant="brand" asChild>
              <Link href="/login" onClick={close}>
                {t('actions.startNow')}
              </Link>
            </Button>
          )}
        </div>
      </SheetContent>
    </Dialog>
  );
}
