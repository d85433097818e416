import { Plus, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { countByType, DESTINATION_CAPS, type EditableDestination } from '../api/destinations';
import { DestinationOptionRow, OPTION_KINDS } from './destination-option-row';
import type { Availability } from './use-destination-availability';

/** Spelled out (not built from the kind) so the locale test sees them used. */
const TOGGLE_LABELS = {
  webhook: { open: 'webhook.open', cancel: 'webhook.cancel' },
  email: { open: 'email.open', cancel: 'email.cancel' },
  ntfy: { open: 'notifications:form.open', cancel: 'email.cancel' },
  gotify: { open: 'notifications:form.open', cancel: 'email.cancel' },
  pushover: { open: 'notifications:form.open', cancel: 'email.cancel' },
  matrix: { open: 'notifications:form.open', cancel: 'email.cancel' },
  telegram: { open: 'notifications:form.open', cancel: 'email.cancel' },
  webPush: { open: 'notifications:form.open', cancel: 'email.cancel' },
} as const;

interface ExpandableOptionRowProps {
  kind: 'webhook' | 'email' | 'ntfy' | 'gotify' | 'pushover' | 'matrix' | 'telegram' | 'webPush';
  destinations: readonly EditableDestination[];
  availability: Availability;
  disabled?: boolean;
  /** Prefix for element ids, so two editors can live on one page. */
  idPrefix: string;
  onAdd: (d: EditableDestination) => void;
  /** The form in the panel, given the add to call (it also closes the panel once the cap is reached). */
  children: (add: (d: EditableDestination) => void) => ReactNode;
}

/** An option whose button opens its form in a panel underneath (webhook, email, ntfy, Gotify, Pushover, Matrix, Telegram, this browser) and turns into Cancel while it is open. */
export function ExpandableOptionRow({ kind, destinations, availability, disabled, idPrefix, onAdd, children }: ExpandableOptionRowProps) {
  const { t } = useTranslation('destinations');
  const [open, setOpen] = useState(false);
  const shown = open && availability.enabled;
  const panelId = `${idPrefix}-${kind}-panel`;
  const { type } = OPTION_KINDS[kind];

  function add(d: EditableDestination) {
    onAdd(d);
    // Keep the form open while more of its kind fit.
    if (countByType(destinations, type) + 1 >= DESTINATION_CAPS[type]) setOpen(false);
  }

  return (
    <DestinationOptionRow
      kind={kind}
      destinations={destinations}
      availability={availability}
      action={
        <Button
          type="button"
          variant={shown ? 'ghost' : 'outline'}
          size="sm"
          className="w-full sm:w-auto"
          disabled={disabled || !availability.enabled}
          aria-expanded={shown}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          data-testid={`toggle-${kind}`}
        >
          {shown ? <X /> : <Plus />}
          {shown ? t(TOGGLE_LABELS[kind].cancel) : t(TOGGLE_LABELS[kind].open)}
        </Button>
      }
    >
      {shown && (
        <div id={panelId} className="mt-4 rounded-lg border bg-muted/40 p-4" data-testid={`${kind}-panel`}>
          {children(add)}
        </div>
      )}
    </DestinationOptionRow>
  );
}
