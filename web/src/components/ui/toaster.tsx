import type * as React from 'react';
import { useLayoutEffect } from 'react';
import { Toaster as Sonner, toast, type ToasterProps } from 'sonner';
import { useLocation, useSearch } from 'wouter';
import { isSessionExpiredSearch } from '@/lib/return-to';
import { useTheme } from '@/lib/use-theme';

/**
 * Mounted once in AppProviders (as a lazy chunk, right after the first render). Use
 * `import { toast } from 'sonner'` anywhere.
 */
export function Toaster(props: ToasterProps) {
  const { resolvedTheme } = useTheme();
  const [location] = useLocation();
  const search = useSearch();
  // When a session expires, the action that found out fails too, and its toast ("Failed to
  // update reminder") would show on the login page next to "Your session has expired". No toaster
  // there; when the user leaves, whatever was raised meanwhile is dismissed before it comes back
  // (sonner replays the toasts still active to a new toaster).
  const quiet = location === '/login' && isSessionExpiredSearch(search);
  useLayoutEffect(() => {
    if (!quiet) return;
    return () => void toast.dismiss();
  }, [quiet]);
  if (quiet) return null;
  return (
    <Sonner
      theme={resolvedTheme}
      position="bottom-right"
      richColors
      closeButton
      toastOptions={{ classNames: { toast: 'font-sans' } }}
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
          // Sonner's light rich colours are below WCAG AA (4.25:1 for success); darker text, same hues.
          ...(resolvedTheme === 'light'
            ? { '--success-text': 'hsl(140, 100%, 22%)', '--error-text': 'hsl(360, 100%, 37%)', '--warning-text': 'hsl(31, 92%, 28%)', '--info-text': 'hsl(210, 92%, 33%)' }
            : {}),
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export default Toaster;
