import { cn } from '@/lib/utils';

/** The small busy ring shown in buttons and status lines while something is sent or saved. Decorative: the text beside it says what is happening. */
export function Spinner({ className }: { className?: string }) {
  return <span className={cn('size-4 animate-spin rounded-full border-2 border-current border-t-transparent', className)} aria-hidden="true" />;
}
