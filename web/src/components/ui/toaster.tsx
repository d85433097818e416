import type * as React from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { useTheme } from '@/lib/use-theme';

/**
 * Mounted once in AppProviders (as a lazy chunk, right after the first render). Use
 * `import { toast } from 'sonner'` anywhere.
 */
export function Toaster(props: ToasterProps) {
  const { resolvedTheme } = useTheme();
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
