import { CheckCircle2, CirclePause, CircleDot } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { DisplayStatus } from './reminder-meta';

const STATUS = {
  active: { key: 'status.active', variant: 'success', Icon: CircleDot },
  paused: { key: 'status.paused', variant: 'warning', Icon: CirclePause },
  completed: { key: 'status.completed', variant: 'secondary', Icon: CheckCircle2 },
} as const;

export function StatusBadge({ status, className }: { status: DisplayStatus; className?: string }) {
  const { t } = useTranslation('details');
  const { key, variant, Icon } = STATUS[status];
  return (
    <Badge variant={variant} className={className} data-testid="status-badge" data-status={status}>
      <Icon />
      {t(key)}
    </Badge>
  );
}
