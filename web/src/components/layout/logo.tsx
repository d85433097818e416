import { BellRing } from 'lucide-react';
import { cn } from '@/lib/utils';

/** Brand mark + product name. */
export function Logo({ className, showName = true }: { className?: string; showName?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <span className="grid size-8 place-items-center rounded-lg bg-brand-gradient text-white shadow-sm shadow-primary/30">
        <BellRing className="size-4" strokeWidth={2.25} />
      </span>
      {showName && <span className="text-lg">Chime</span>}
    </span>
  );
}
