import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { EditableDestination } from '../api/destinations';
import { DestinationOptionRow } from './destination-option-row';
import { EmailForm } from './email-form';
import { ExpandableOptionRow } from './expandable-option-row';
import { PushForm } from './push-form';
import { ServerPickerDialog } from './server-picker-dialog';
import { TelegramForm } from './telegram-form';
import { useDestinationAvailability } from './use-destination-availability';
import { WebPushForm } from './web-push-form';
import { WebhookForm } from './webhook-form';

interface AddDestinationOptionsProps {
  value: readonly EditableDestination[];
  onAdd: (d: EditableDestination) => void;
  disabled?: boolean;
  /** Prefix for element ids, so two editors can live on one page. */
  idPrefix: string;
  /** Whose servers the server picker lists. */
  accountId: string;
}

/** The editor's "add" section: a DM, a server channel (server-picker dialog), a webhook, an email address, ntfy, Gotify, Pushover, Matrix, Telegram, this browser, each up to its cap. */
export function AddDestinationOptions({ value, onAdd, disabled, idPrefix, accountId }: AddDestinationOptionsProps) {
  const { t } = useTranslation('destinations');
  const [pickerOpen, setPickerOpen] = useState(false);
  const { dm, channel, webhook, email, ntfy, gotify, pushover, matrix, telegram, webPush } = useDestinationAvailability(value);
  const emailAddresses = value.filter((d) => d.type === 'email').map((d) => String(d.metadata.address ?? ''));

  return (
    <>
      <section aria-labelledby={`${idPrefix}-add-title`} className="space-y-3">
        <h3 id={`${idPrefix}-add-title`} className="text-sm font-semibold">
          {t('editor.addTitle')}
        </h3>
        <div className="divide-y overflow-hidden rounded-xl border bg-card shadow-xs">
          <DestinationOptionRow kind="dm" destinations={value} availability={dm} action={<AddButton kind="dm" disabled={disabled || !dm.enabled} onClick={() => onAdd({ type: 'discord_dm', metadata: {} })} />} />
          <DestinationOptionRow kind="channel" destinations={value} availability={channel} action={<AddButton kind="channel" disabled={disabled || !channel.enabled} onClick={() => setPickerOpen(true)} opensDialog />} />
          <ExpandableOptionRow kind="webhook" destinations={value} availability={webhook} disabled={disabled} idPrefix={idPrefix} onAdd={onAdd}>
            {(add) => <WebhookForm idPrefix={`${idPrefix}-webhook`} disabled={disabled} onAdd={add} />}
          </ExpandableOptionRow>
          <ExpandableOptionRow kind="email" destinations={value} availability={email} disabled={disabled} idPrefix={idPrefix} onAdd={onAdd}>
            {(add) => <EmailForm idPrefix={`${idPrefix}-email`} disabled={disabled} existing={emailAddresses} onAdd={add} />}
          </ExpandableOptionRow>
          <ExpandableOptionRow kind="ntfy" destinations={value} availability={ntfy} disabled={disabled} idPrefix={idPrefix} onAdd={onAdd}>
            {(add) => <PushForm type="ntfy" idPrefix={`${idPrefix}-ntfy`} disabled={disabled} onAdd={add} />}
          </ExpandableOptionRow>
          <ExpandableOptionRow kind="gotify" destinations={value} availability={gotify} disabled={disabled} idPrefix={idPrefix} onAdd={onAdd}>
            {(add) => <PushForm type="gotify" idPrefix={`${idPrefix}-gotify`} disabled={disabled} onAdd={add} />}
          </ExpandableOptionRow>
          <ExpandableOptionRow kind="pushover" destinations={value} availability={pushover} disabled={disabled} idPrefix={idPrefix} onAdd={onAdd}>
            {(add) => <PushForm type="pushover" idPrefix={`${idPrefix}-pushover`} disabled={disabled} onAdd={add} />}
          </ExpandableOptionRow>
          <ExpandableOptionRow kind="matrix" destinations={value} availability={matrix} disabled={disabled} idPrefix={idPrefix} onAdd={onAdd}>
            {(add) => <PushForm type="matrix" idPrefix={`${idPrefix}-matrix`} disabled={disabled} onAdd={add} />}
          </ExpandableOptionRow>
          <ExpandableOptionRow kind="telegram" destinations={value} availability={telegram} disabled={disabled} idPrefix={idPrefix} onAdd={onAdd}>
            {(add) => <TelegramForm value={value} idPrefix={`${idPrefix}-telegram`} disabled={disabled} onAdd={add} />}
          </ExpandableOptionRow>
          <ExpandableOptionRow kind="webPush" destinations={value} availability={webPush} disabled={disabled} idPrefix={idPrefix} onAdd={onAdd}>
            {(add) => <WebPushForm value={value} disabled={disabled} onAdd={add} />}
          </ExpandableOptionRow>
        </div>
      </section>

      <ServerPickerDialog open={pickerOpen} onOpenChange={setPickerOpen} accountId={accountId} onCreate={onAdd} />
    </>
  );
}

/** Spelled out (not built from the kind) so the locale test sees them used. */
const ADD_LABELS = { dm: 'dm.add', channel: 'channel.add' } as const;

/** The "Add" button of the DM and channel rows (the channel's opens the server picker). */
function AddButton({ kind, disabled, onClick, opensDialog }: { kind: 'dm' | 'channel'; disabled?: boolean; onClick: () => void; opensDialog?: boolean }) {
  const { t } = useTranslation('destinations');
  return (
    <Button type="button" variant="outline" size="sm" className="w-full sm:w-auto" disabled={disabled} onClick={onClick} aria-haspopup={opensDialog ? 'dialog' : undefined} data-testid={`add-${kind}`}>
      <Plus />
      {t(ADD_LABELS[kind])}
    </Button>
  );
}
