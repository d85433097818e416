import { CheckCircle2, CirclePause, CircleDot } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import type { DisplayStatus } from './reminder-meta';

const STATUS = {
  // The kit's success/warning text colours are too pale on their tint in light mode (WCAG AA).
  active: { key: 'status.active', variant: 'success', Icon: CircleDot, tone: 'text-green-800 dark:text-success' },
  paused: { key: 'status.paused', variant: 'warning', Icon: CirclePause, tone: 'text-amber-800 dark:text-warning' },
  completed: { key: 'status.completed', variant: 'secondary', Icon: CheckCircle2, tone: '' },
} as const;

export function StatusBadge({ status, className }: { status: DisplayStatus; className?: string }) {
  const { t } = useTranslation('details');
  const { key, variant, Icon, tone } = STATUS[status];
  return (
    <Badge variant={variant} className={cn(tone, className)} data-testid="status-badge" data-status={status}>
      <Icon />
      {t(key)}
    </Badge>
  );
}
