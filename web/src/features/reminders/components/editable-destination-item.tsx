import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { EditableDestination } from '../api/destinations';
import { DestinationCheckStatus } from './destination-check-status';
import { DestinationSummary, useDescribeDestination } from './destination-summary';
import { PushForm } from './push-form';
import type { CheckState } from './use-destination-checks';
import { WebhookForm } from './webhook-form';

interface EditableDestinationItemProps {
  destination: EditableDestination;
  discordName: string | null;
  /** Its check (useDestinationChecks); undefined when it is not checked. */
  check: CheckState | undefined;
  disabled?: boolean;
  onRemove: () => void;
  /** Puts the edited destination in its place (after its form's check passed). */
  onReplace: (next: EditableDestination) => void;
  /** The saved reminder being edited, if any: a saved token left out is checked as the stored one. */
  reminderId?: string;
  /** Prefix for element ids of its edit form. */
  idPrefix: string;
}

/** What the edit form of a destination is; Discord destinations and email addresses are removed and added again. */
const editable = (d: EditableDestination): d is EditableDestination & { type: 'webhook' | 'ntfy' | 'gotify' | 'pushover' | 'matrix' } =>
  d.type === 'webhook' || d.type === 'ntfy' || d.type === 'gotify' || d.type === 'pushover' || d.type === 'matrix';

/** One destination in the editor's list: what it is, how its check went, and buttons to edit (webhooks, push services) or remove it. */
export function EditableDestinationItem({ destination, discordName, check, disabled, onRemove, onReplace, reminderId, idPrefix }: EditableDestinationItemProps) {
  const { t } = useTranslation('destinations');
  const describe = useDescribeDestination();
  const [editing, setEditing] = useState(false);
  const name = describe(destination).title;

  function replace(next: EditableDestination) {
    setEditing(false);
    onReplace(next);
  }

  return (
    <li className="rounded-lg border bg-card px-3 py-2.5 shadow-xs" data-testid="destination-item" data-type={destination.type}>
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1 space-y-1">
          <DestinationSummary destination={destination} discordName={discordName} saved={Boolean(destination.id)} />
          <DestinationCheckStatus state={check} metadata={destination.metadata} />
        </div>
        {editable(destination) && (
          <Button
            type="button"
            variant="ghost"
            size="icon-sm"
            className="shrink-0 text-muted-foreground"
            disabled={disabled}
            onClick={() => setEditing((e) => !e)}
            aria-expanded={editing}
            aria-label={t('editor.editNamed', { name })}
            title={t('editor.edit')}
            data-testid="destination-edit"
          >
            <Pencil />
          </Button>
        )}
        <Button
          type="button"
          variant="ghost"
          size="icon-sm"
          className="shrink-0 text-muted-foreground hover:text-destructive"
          disabled={disabled}
          onClick={onRemove}
          aria-label={t('editor.removeNamed', { name })}
          title={t('editor.remove')}
          data-testid="destination-remove"
        >
          <Trash2 />
        </Button>
      </div>
      {editing && editable(destination) && (
        <div className="mt-3 rounded-lg border bg-muted/40 p-4" data-testid="destination-edit-panel">
          {destination.type === 'webhook' ? (
            <WebhookForm idPrefix={`${idPrefix}-webhook`} disabled={disabled} editing={destination} onAdd={replace} onCancel={() => setEditing(false)} />
          ) : (
            <PushForm type={destination.type} idPrefix={`${idPrefix}-${destination.type}`} disabled={disabled} editing={destination} reminderId={reminderId} onAdd={replace} onCancel={() => setEditing(false)} />
          )}
        </div>
      )}
    </li>
  );
}
