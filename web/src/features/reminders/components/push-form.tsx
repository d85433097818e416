import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { checkDestination } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import type { EditableDestination } from '../api/destinations';

export type PushType = 'ntfy' | 'gotify' | 'pushover' | 'matrix';

interface Field {
  name: string;
  label: string;
  hint?: string;
  placeholder?: string;
  secret?: boolean;
  required?: boolean;
  initial?: string;
}

/** The fields of each service (docs/notifications.md); label keys spelled out so the locale test sees them. */
const FIELDS: Record<PushType, Field[]> = {
  ntfy: [
    { name: 'server', label: 'form.ntfy.server', hint: 'form.ntfy.serverHint', initial: 'https://ntfy.sh', required: true },
    { name: 'topic', label: 'form.ntfy.topic', hint: 'form.ntfy.topicHint', placeholder: 'form.ntfy.topicPlaceholder', required: true },
    { name: 'access_token', label: 'form.ntfy.token', hint: 'form.ntfy.tokenHint', secret: true },
    { name: 'priority', label: 'form.ntfy.priority', hint: 'form.ntfy.priorityHint' },
  ],
  gotify: [
    { name: 'server', label: 'form.gotify.server', placeholder: 'form.gotify.serverPlaceholder', required: true },
    { name: 'app_token', label: 'form.gotify.token', hint: 'form.gotify.tokenHint', secret: true, required: true },
    { name: 'priority', label: 'form.gotify.priority', hint: 'form.gotify.priorityHint' },
  ],
  pushover: [
    { name: 'user_key', label: 'form.pushover.userKey', hint: 'form.pushover.userKeyHint', required: true },
    { name: 'app_token', label: 'form.pushover.token', hint: 'form.pushover.tokenHint', secret: true, required: true },
    { name: 'device', label: 'form.pushover.device', hint: 'form.pushover.deviceHint' },
  ],
  // The bot account is the administrator's: the user only names the room that invited it.
  matrix: [{ name: 'room', label: 'matrix:form.room', hint: 'matrix:form.roomHint', placeholder: 'matrix:form.roomPlaceholder', required: true }],
};

/**
 * ntfy, Gotify, Pushover or Matrix: its fields, then "Add", which first asks the server's check (the same
 * one a save runs: the token is tried against the service) and shows its reason when refused.
 */
export function PushForm({ type, onAdd, disabled, idPrefix }: { type: PushType; onAdd: (d: EditableDestination) => void; disabled?: boolean; idPrefix: string }) {
  const { t } = useTranslation('notifications');
  const deliveryText = useDeliveryText();
  const fields = FIELDS[type];
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, f.initial ?? ''])));
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const missing = fields.some((f) => f.required && !values[f.name]?.trim());

  async function add(e: { preventDefault(): void; stopPropagation(): void }) {
    e.preventDefault();
    e.stopPropagation();
    if (missing || disabled || checking) return;
    const metadata: Record<string, string | number> = {};
    for (const f of fields) {
      const v = values[f.name]?.trim();
      if (v) metadata[f.name] = f.name === 'priority' && /^-?\d+$/.test(v) ? Number(v) : v;
    }
    const destination = { type, metadata } as EditableDestination;
    setChecking(true);
    setError(null);
    try {
      const result = await checkDestination(destination);
      if (!result.ok) return setError(deliveryText.codeText(result.code, { fallback: result.error, params: result.params }));
      onAdd(destination);
      setValues(Object.fromEntries(fields.map((f) => [f.name, f.initial ?? ''])));
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
        return (
          <div key={f.name} className="space-y-1.5">
            <Label htmlFor={id}>{t(f.label)}</Label>
            <Input
              id={id}
              type={f.secret ? 'password' : 'text'}
              autoComplete={f.secret ? 'new-password' : 'off'}
              spellCheck={false}
              maxLength={400}
              placeholder={f.placeholder ? t(f.placeholder) : undefined}
              value={values[f.name] ?? ''}
              disabled={disabled || checking}
              aria-describedby={f.hint ? `${id}-hint` : undefined}
              onChange={(e) => {
                setValues((prev) => ({ ...prev, [f.name]: e.target.value }));
                setError(null);
              }}
              data-testid={`${type}-${f.name}`}
            />
            {f.hint && (
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {t(f.hint)}
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
      <Button type="button" size="sm" disabled={disabled || missing || checking} onClick={(e) => void add(e)} data-testid={`${type}-add`}>
        {checking ? <Spinner /> : <Plus />}
        {t(checking ? 'form.checking' : 'form.add')}
      </Button>
    </div>
  );
}
