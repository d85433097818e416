import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { EditableDestination } from '../api/destinations';
import { DestinationCheckStatus } from './destination-check-status';
import { DestinationSummary, useDescribeDestination } from './destination-summary';
import type { CheckState } from './use-destination-checks';

interface EditableDestinationItemProps {
  destination: EditableDestination;
  discordName: string | null;
  /** Its check (useDestinationChecks); undefined when it is not checked. */
  check: CheckState | undefined;
  disabled?: boolean;
  onRemove: () => void;
}

/** One destination in the editor's list: what it is, how its check went, and a button to remove it. */
export function EditableDestinationItem({ destination, discordName, check, disabled, onRemove }: EditableDestinationItemProps) {
  const { t } = useTranslation('destinations');
  const describe = useDescribeDestination();
  return (
    <li className="flex items-center gap-3 rounded-lg border bg-card px-3 py-2.5 shadow-xs" data-testid="destination-item" data-type={destination.type}>
      <div className="min-w-0 flex-1 space-y-1">
        <DestinationSummary destination={destination} discordName={discordName} saved={Boolean(destination.id)} />
        <DestinationCheckStatus state={check} metadata={destination.metadata} />
      </div>
      <Button
        type="button"
        variant="ghost"
        size="icon-sm"
        className="shrink-0 text-muted-foreground hover:text-destructive"
        disabled={disabled}
        onClick={onRemove}
        aria-label={t('editor.removeNamed', { name: describe(destination).title })}
        title={t('editor.remove')}
        data-testid="destination-remove"
      >
        <Trash2 />
      </Button>
    </li>
  );
}
