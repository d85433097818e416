import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from '@/lib/utils';

export const alertVariants = cva('relative flex w-full items-start gap-3 rounded-lg border px-4 py-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0', {
  variants: {
    variant: {
      default: 'bg-card text-card-foreground',
      destructive: 'border-destructive/30 bg-destructive/8 text-destructive dark:bg-destructive/15',
      success: 'border-success/30 bg-success/10 text-success',
      info: 'border-primary/25 bg-primary/8 text-foreground [&>svg]:text-primary',
    },
  },
  defaultVariants: { variant: 'default' },
});

/** Inline banner (e.g. the red error banner on the login screen). */
export function Alert({ className, variant, ...props }: React.ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  return <div data-slot="alert" role="alert" className={cn(alertVariants({ variant }), className)} {...props} />;
}
