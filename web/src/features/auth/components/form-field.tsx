import type { ReactNode } from 'react';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

export function FormField({
  id,
  label,
  children,
  error,
  className,
  aside,
}: {
  id: string;
  label: ReactNode;
  children: ReactNode;
  error?: ReactNode;
  className?: string;
  aside?: ReactNode;
}) {
  return (
    <div className={cn('space-y-2', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {aside}
      </div>
      {children}
      {error && (
        <p className="text-sm text-destructive" id={`${id}-error`} data-testid={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
