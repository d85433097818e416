import { CheckCircle2, CirclePause, CircleDot } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { type ReminderStatus, STATUS_LABEL_KEYS } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';

const LOOK = {
  // The kit's success/warning text colours are too pale on their tint in light mode (WCAG AA).
  active: { variant: 'success', Icon: CircleDot, tone: 'text-green-800 dark:text-success' },
  paused: { variant: 'warning', Icon: CirclePause, tone: 'text-amber-800 dark:text-warning' },
  completed: { variant: 'secondary', Icon: CheckCircle2, tone: 'text-muted-foreground' },
} as const;

/** The status badge of a reminder, the same on the dashboard and the details page. */
export function ReminderStatusBadge({ status, className }: { status: ReminderStatus; className?: string }) {
  const { t } = useTranslation('common');
  const { variant, Icon, tone } = LOOK[status];
  return (
    <Badge variant={variant} className={cn(tone, className)} data-testid="status-badge" data-status={status}>
      <Icon aria-hidden />
      {t(STATUS_LABEL_KEYS[status])}
    </Badge>
  );
}
