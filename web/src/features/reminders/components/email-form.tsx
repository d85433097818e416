import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { EditableDestination } from '../api/destinations';

// What the server accepts (server/destinations/email): one @, no spaces or brackets, a dot in the domain.
const ADDRESS = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/;

/** One address field and "Add". Checked here for shape only; the server checks it again on save. */
export function EmailForm({ onAdd, existing, disabled, idPrefix = 'email' }: { onAdd: (d: EditableDestination) => void; existing: string[]; disabled?: boolean; idPrefix?: string }) {
  const { t } = useTranslation('destinations');
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = `${idPrefix}-address`;

  function submit(e: { preventDefault(): void; stopPropagation(): void }) {
    e.preventDefault();
    e.stopPropagation();
    const value = address.trim().toLowerCase();
    if (!value || disabled) return;
    if (value.length > 254 || !ADDRESS.test(value)) return setError(t('email.invalid'));
    if (existing.includes(value)) return setError(t('email.duplicate'));
    onAdd({ type: 'email', metadata: { address: value } });
    setAddress('');
    setError(null);
  }

  return (
    // A div, not a form: this editor may sit inside another form (the details page).
    <div
      className="space-y-3"
      data-testid="email-form"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') submit(e);
      }}
    >
      <div className="space-y-2">
        <Label htmlFor={id}>{t('email.address')}</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={id}
            type="email"
            autoComplete="email"
            spellCheck={false}
            maxLength={254}
            placeholder={t('email.addressPlaceholder')}
            value={address}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            onChange={(e) => {
              setAddress(e.target.value);
              setError(null);
            }}
            data-testid="email-address"
          />
          <Button type="button" size="sm" className="h-9 shrink-0" disabled={disabled || !address.trim()} onClick={submit} data-testid="email-add">
            <Plus />
            {t('email.add')}
          </Button>
        </div>
        {error && (
          <p id={`${id}-error`} className="text-sm text-destructive" data-testid="email-error">
            {error}
          </p>
        )}
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {t('email.hint')}
        </p>
      </div>
    </div>
  );
}
