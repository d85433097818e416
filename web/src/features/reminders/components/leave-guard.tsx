import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { buttonVariants } from '@/components/ui/button';

/** Marks the extra history entry that catches the browser's Back button. */
const GUARD_KEY = 'chimeLeaveGuard';

const onGuardEntry = () => Boolean((window.history.state as Record<string, unknown> | null)?.[GUARD_KEY]);

/** Where the user asked to go: an in-app link, or one step back in the browser's history. */
type Pending = { kind: 'link'; to: string } | { kind: 'back' };

/**
 * Asks before a half-filled form is left inside the app: any same-origin link (the header, "Back to
 * dashboard") and the browser's Back button. A reload or a closed tab gets the browser's own
 * prompt (beforeunload), the only one a page may show there.
 *
 * Back is caught with one extra history entry of the same address, pushed while the form holds
 * input: Back pops it (the address does not change, so the router stays put) and the dialog asks.
 */
export function useLeaveGuard(active: boolean) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [, navigate] = useLocation();
  const leaving = useRef(false);

  useEffect(() => {
    if (!active) return;
    leaving.current = false;
    if (!onGuardEntry()) window.history.pushState({ ...(window.history.state as object | null), [GUARD_KEY]: true }, '', window.location.href);

    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      // Before the router's own handler (React listens on its root, below document).
      event.preventDefault();
      event.stopPropagation();
      setPending({ kind: 'link', to: url.pathname + url.search + url.hash });
    };
    const onPopState = () => {
      if (leaving.current || onGuardEntry()) return;
      setPending({ kind: 'back' });
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!leaving.current) event.preventDefault();
    };
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onPopState);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onPopState);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active]);

  /** Leaves for `to` without asking (the form was saved): the guard entry, if any, is replaced. */
  const leaveTo = useCallback(
    (to: string) => {
      leaving.current = true;
      navigate(to, { replace: onGuardEntry() });
    },
    [navigate],
  );

  /** Leaves the app for `url` (a sign-in provider) without asking: what the form holds was kept. */
  const leaveForUrl = useCallback((url: string) => {
    leaving.current = true;
    window.location.assign(url);
  }, []);

  function stay() {
    // Back already popped the guard entry: put it back for the next Back.
    if (pending?.kind === 'back' && !onGuardEntry()) window.history.pushState({ ...(window.history.state as object | null), [GUARD_KEY]: true }, '', window.location.href);
    setPending(null);
  }

  function leave() {
    const target = pending;
    setPending(null);
    if (!target) return;
    leaving.current = true;
    if (target.kind === 'back') window.history.back();
    else navigate(target.to, { replace: onGuardEntry() });
  }

  return { pending: pending !== null, stay, leave, leaveTo, leaveForUrl };
}

/** "Leave without creating the reminder?" with Keep editing (the default) and Leave. */
export function LeaveDialog({ open, onStay, onLeave }: { open: boolean; onStay: () => void; onLeave: () => void }) {
  const { t } = useTranslation('reminders');
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && onStay()}>
      <AlertDialogContent data-testid="leave-confirm">
        <AlertDialogHeader>
          <AlertDialogTitle>{t('wizard.leave.title')}</AlertDialogTitle>
          <AlertDialogDescription>{t('wizard.leave.description')}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel data-testid="leave-stay">{t('wizard.leave.stay')}</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: closing through onOpenChange means "stay". */}
          <button type="button" className={buttonVariants({ variant: 'destructive' })} onClick={onLeave} data-testid="leave-confirm-button">
            {t('wizard.leave.confirm')}
          </button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
