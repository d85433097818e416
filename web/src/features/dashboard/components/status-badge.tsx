import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { DisplayStatus } from '../lib/reminder-display';

const KEYS = { active: 'status.active', paused: 'status.paused', completed: 'status.completed' } as const;
const VARIANTS = { active: 'success', paused: 'warning', completed: 'secondary' } as const;

export function StatusBadge({ status }: { status: DisplayStatus }) {
  const { t } = useTranslation('dashboard');
  return (
    <Badge variant={VARIANTS[status]} className={status === 'completed' ? 'text-muted-foreground' : undefined} data-testid="status-badge" data-status={status}>
      {status === 'active' && <span className="size-1.5 rounded-full bg-current" aria-hidden />}
      {t(KEYS[status])}
    </Badge>
  );
}
