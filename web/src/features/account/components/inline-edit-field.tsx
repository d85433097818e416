import { Check, Pencil, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';

export interface InlineEditFieldProps {
  /** Used for ids and test ids: `${name}-display`, `${name}-input`, `${name}-edit`, `${name}-save`, `${name}-cancel`, `${name}-error`. */
  name: string;
  label: string;
  value: string;
  /** Shown when value is empty. */
  emptyText?: string;
  type?: 'text' | 'email';
  autoComplete?: string;
  /** Returns an error text, or null when the value may be saved. */
  validate: (value: string) => string | null;
  /** Throws on failure; the thrown text is shown under the field. */
  onSave: (value: string) => Promise<void>;
  /** Text for a failed save. */
  errorText: (err: unknown) => string;
  editLabel: string;
}

/** A value that toggles between display and edit (docs/dashboard.md "Forms", email and username). */
export function InlineEditField({ name, label, value, emptyText, type = 'text', autoComplete, validate, onSave, errorText, editLabel }: InlineEditFieldProps) {
  const { t } = useTranslation('account');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  const id = useId();
  const inputId = `${name}-${id}`;

  useEffect(() => {
    if (editing) inputRef.current?.focus();
    else if (wasEditing.current) editButtonRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  function start() {
    setDraft(value);
    setError(null);
    setEditing(true);
  }

  function cancel() {
    setEditing(false);
    setError(null);
    setDraft(value);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = draft.trim();
    const problem = validate(trimmed);
    if (problem) {
      setError(problem);
      return;
    }
    if (trimmed === value) {
      setEditing(false);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSave(trimmed);
      setEditing(false);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    }
  }

  return (
    <div className="grid gap-1.5 py-4 first:pt-0 last:pb-0 sm:grid-cols-[10rem_minmax(0,1fr)] sm:items-start sm:gap-4">
      <label htmlFor={editing ? inputId : undefined} className="text-sm font-medium text-muted-foreground sm:pt-2.5" id={`${inputId}-label`}>
        {label}
      </label>
      {editing ? (
        <form onSubmit={(e) => void submit(e)} noValidate className="min-w-0 space-y-2" data-testid={`${name}-form`}>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              ref={inputRef}
              id={inputId}
              type={type}
              autoComplete={autoComplete}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onKeyDown}
              disabled={saving}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              data-testid={`${name}-input`}
            />
            <div className="flex shrink-0 gap-2">
              <Button type="submit" disabled={saving} className="flex-1 sm:flex-none" data-testid={`${name}-save`}>
                {saving ? <Spinner /> : <Check />}
                {saving ? t('actions.saving') : t('actions.save')}
              </Button>
              <Button type="button" variant="outline" onClick={cancel} disabled={saving} className="flex-1 sm:flex-none" data-testid={`${name}-cancel`}>
                <X />
                {t('actions.cancel')}
              </Button>
            </div>
          </div>
          {error && (
            <p id={`${inputId}-error`} className="text-sm text-destructive" role="alert" data-testid={`${name}-error`}>
              {error}
            </p>
          )}
        </form>
      ) : (
        <div className="flex min-h-10 min-w-0 items-center justify-between gap-3">
          <span className={value ? 'min-w-0 font-medium [overflow-wrap:anywhere]' : 'text-muted-foreground italic'} data-testid={`${name}-display`}>
            {value || emptyText}
          </span>
          <Button ref={editButtonRef} type="button" variant="ghost" size="sm" onClick={start} aria-label={editLabel} data-testid={`${name}-edit`}>
            <Pencil />
            <span className="hidden sm:inline">{t('actions.edit')}</span>
          </Button>
        </div>
      )}
    </div>
  );
}
