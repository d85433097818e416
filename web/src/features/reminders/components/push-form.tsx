import { Plus, Save, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { checkDestination } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import type { EditableDestination } from '../api/destinations';
import { initialPushValues, PUSH_FIELDS, type PushType, pushMetadata, pushMissing, storedTokenHint } from '../lib/push-fields';

export type { PushType } from '../lib/push-fields';

interface PushFormProps {
  type: PushType;
  onAdd: (d: EditableDestination) => void;
  disabled?: boolean;
  idPrefix: string;
  /** A destination of the list being edited: its fields as saved, and "Check and save" puts it back in its place. */
  editing?: EditableDestination;
  /** The saved reminder being edited: a token left empty is then checked as the stored one. */
  reminderId?: string;
  onCancel?: () => void;
}

/**
 * ntfy, Gotify, Pushover or Matrix: its fields, then "Check and add" (or, editing, "Check and
 * save"), which first asks the server's check (the same one a save runs: the token is tried
 * against the service) and shows its reason when refused.
 */
export function PushForm({ type, onAdd, disabled, idPrefix, editing, reminderId, onCancel }: PushFormProps) {
  const { t } = useTranslation('notifications');
  const deliveryText = useDeliveryText();
  const fields = PUSH_FIELDS[type];
  const [values, setValues] = useState<Record<string, string>>(() => initialPushValues(fields, editing?.metadata));
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const keptHint = storedTokenHint(editing?.metadata);
  const missing = pushMissing(fields, values, editing?.metadata);

  async function add(e: { preventDefault(): void; stopPropagation(): void }) {
    e.preventDefault();
    e.stopPropagation();
    if (missing || disabled || checking) return;
    const metadata = pushMetadata(fields, values, editing?.metadata);
    const destination = { ...(editing?.id ? { id: editing.id } : {}), type, metadata } as EditableDestination;
    setChecking(true);
    setError(null);
    try {
      const result = await checkDestination(destination, reminderId);
      if (!result.ok) return setError(deliveryText.codeText(result.code, { fallback: result.error, params: result.params }));
      onAdd(destination);
      if (!editing) setValues(initialPushValues(fields));
    } catch (err) {
      setError(deliveryText.errorText(err));
    } finally {
      setChecking(false);
    }
  }

  return (
    // A div, not a form: this editor may sit inside another form (the details page).
    <div
      className="space-y-3"
      data-testid={`${type}-form`}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') void add(e);
      }}
    >
      {fields.map((f) => {
        const id = `${idPrefix}-${f.name}`;
        // A saved token is never shown: left empty, it stays.
        const keeps = f.secret && keptHint !== null;
        return (
          <div key={f.name} className="space-y-1.5">
            <Label htmlFor={id}>{t(f.label)}</Label>
            <Input
              id={id}
              type={f.secret ? 'password' : 'text'}
              autoComplete={f.secret ? 'new-password' : 'off'}
              spellCheck={false}
              maxLength={400}
              placeholder={keeps ? t('form.keepToken', { hint: keptHint }) : f.placeholder ? t(f.placeholder) : undefined}
              value={values[f.name] ?? ''}
              disabled={disabled || checking}
              aria-describedby={f.hint || keeps ? `${id}-hint` : undefined}
              onChange={(e) => {
                setValues((prev) => ({ ...prev, [f.name]: e.target.value }));
                setError(null);
              }}
              data-testid={`${type}-${f.name}`}
            />
            {(f.hint || keeps) && (
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {keeps ? t('form.keepTokenHint') : t(f.hint!)}
              </p>
            )}
          </div>
        );
      })}
      {error && (
        <p className="text-sm text-destructive" role="alert" data-testid={`${type}-error`}>
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {onCancel && (
          <Button type="button" variant="ghost" size="sm" disabled={checking} onClick={onCancel} data-testid={`${type}-edit-cancel`}>
            <X />
            {t('destinations:webhook.cancel')}
          </Button>
        )}
        <Button type="button" size="sm" disabled={disabled || missing || checking} onClick={(e) => void add(e)} data-testid={editing ? `${type}-save` : `${type}-add`}>
          {checking ? <Spinner /> : editing ? <Save /> : <Plus />}
          {t(checking ? 'form.checking' : editing ? 'form.save' : 'form.add')}
        </Button>
      </div>
    </div>
  );
}
