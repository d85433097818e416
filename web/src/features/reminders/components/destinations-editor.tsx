import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { useAccount } from '@/lib/api/reminders';
import { getUser } from '@/lib/session';
import type { EditableDestination } from '../api/destinations';
import { AddDestinationOptions } from './add-destination-options';
import { EditableDestinationItem } from './editable-destination-item';
import type { DestinationChecks } from './use-destination-checks';

export type { EditableDestination } from '../api/destinations';

export interface DestinationsEditorProps {
  value: EditableDestination[];
  onChange: (next: EditableDestination[]) => void;
  disabled?: boolean;
  /** Prefix for element ids, so two editors can live on one page. */
  idPrefix?: string;
  /** Each new destination's check (useDestinationChecks), shown under it. */
  checks?: DestinationChecks;
  /** The saved reminder whose destinations these are (the details page): an edited token left out is checked as the stored one. */
  reminderId?: string;
}

/**
 * The list of a reminder's destinations with edit (webhooks, push services) and remove buttons, and the ways to add one: a DM,
 * a server channel (server-picker dialog), a webhook, an email address. Caps: 1 DM, 5 channels,
 * 5 webhooks, 5 addresses.
 * Controlled: shared by the create wizard and the details page's edit mode.
 */
export function DestinationsEditor({ value, onChange, disabled, idPrefix = 'destinations', checks, reminderId }: DestinationsEditorProps) {
  const { t } = useTranslation('destinations');
  const account = useAccount();

  const accountId = account.data?.id ?? getUser()?.user_id ?? '';
  const discordName = account.data?.identities.find((i) => i.provider === 'discord')?.username ?? null;

  const add = (d: EditableDestination) => onChange([...value, d]);
  const removeAt = (index: number) => onChange(value.filter((_, i) => i !== index));
  const replaceAt = (index: number, d: EditableDestination) => onChange(value.map((x, i) => (i === index ? d : x)));

  return (
    <div className="space-y-8" data-testid="destinations-editor">
      <section aria-labelledby={`${idPrefix}-list-title`} className="space-y-3">
        <div className="flex items-center justify-between gap-2">
          <h3 id={`${idPrefix}-list-title`} className="text-sm font-semibold">
            {t('editor.added')}
          </h3>
          <Badge variant="secondary" data-testid="destination-count">
            {value.length}
          </Badge>
        </div>
        {value.length === 0 ? (
          <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground" data-testid="destinations-empty">
            {t('editor.empty')}
          </p>
        ) : (
          <ul className="space-y-2" data-testid="destination-list">
            {value.map((d, index) => (
              <EditableDestinationItem
                key={`${d.id ?? 'new'}-${index}`}
                destination={d}
                discordName={discordName}
                check={checks?.stateOf(d)}
                disabled={disabled}
                onRemove={() => removeAt(index)}
                onReplace={(next) => replaceAt(index, next)}
                reminderId={reminderId}
                idPrefix={`${idPrefix}-edit-${index}`}
              />
            ))}
          </ul>
        )}
      </section>

      <AddDestinationOptions value={value} onAdd={add} disabled={disabled} idPrefix={idPrefix} accountId={accountId} />
    </div>
  );
}
