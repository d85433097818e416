import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { Fingerprint, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatRelative } from '@/lib/format';
import { isPasskeyCancel } from '@/lib/passkeys';
import { addPasskey, type Passkey, removePasskey, renamePasskey, usePasskeys } from './passkeys-api';

const MAX_PASSKEYS = 10;

function PasskeyRow({ passkey, onRemove, onRenamed }: { passkey: Passkey; onRemove: (passkey: Passkey) => void; onRenamed: () => Promise<unknown> }) {
  const { t } = useTranslation('passkeys');
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);

  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      await renamePasskey(passkey.id, name);
      toast.success(t('card.renamed'));
      setEditing(false);
      await onRenamed();
    } catch (err) {
      toast.error(errorMessage(err, t('card.failed')));
    }
  }

  return (
    <li className="flex items-start justify-between gap-3 py-3 first:pt-0 last:pb-0" data-testid="passkey-row">
      <div className="flex min-w-0 flex-1 gap-3">
        <Fingerprint className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
        {editing ? (
          <form className="flex flex-1 flex-wrap gap-2" onSubmit={(e) => void save(e)}>
            <Input aria-label={t('card.renameLabel', { name: passkey.name })} value={name} maxLength={100} autoFocus onChange={(e) => setName(e.target.value)} className="h-8 max-w-60" data-testid="passkey-rename-input" />
            <Button type="submit" size="sm" data-testid="passkey-rename-save">
              {t('card.save')}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
              {t('card.cancel')}
            </Button>
          </form>
        ) : (
          <div className="min-w-0 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="truncate font-medium" data-testid="passkey-name">
                {passkey.name}
              </span>
              {passkey.backed_up && <Badge variant="secondary">{t('card.synced')}</Badge>}
            </div>
            <p className="text-sm text-muted-foreground" data-testid="passkey-details">
              {[t('card.created', { date: formatDate(passkey.created_at) }), passkey.last_used_at ? t('card.lastUsed', { when: formatRelative(passkey.last_used_at) }) : t('card.neverUsed')].join(' · ')}
            </p>
          </div>
        )}
      </div>
      {!editing && (
        <div className="flex shrink-0 gap-1">
          <Button variant="ghost" size="sm" aria-label={t('card.renameLabel', { name: passkey.name })} onClick={() => setEditing(true)} data-testid="passkey-rename">
            <Pencil />
            <span className="max-sm:sr-only">{t('card.rename')}</span>
          </Button>
          <Button variant="ghost" size="sm" aria-label={t('card.removeLabel', { name: passkey.name })} onClick={() => onRemove(passkey)} data-testid="passkey-remove">
            <Trash2 />
            <span className="max-sm:sr-only">{t('card.remove')}</span>
          </Button>
        </div>
      )}
    </li>
  );
}

/** The account's passkeys (docs/security.md "Passkeys"): add one with a name, rename, remove after a confirmation. */
export function PasskeysCard() {
  const { t } = useTranslation('passkeys');
  const { data: passkeys, mutate } = usePasskeys();
  const [name, setName] = useState('');
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const supported = browserSupportsWebAuthn();
  const full = (passkeys?.length ?? 0) >= MAX_PASSKEYS;

  async function add(event: FormEvent) {
    event.preventDefault();
    setAdding(true);
    try {
      await addPasskey(name.trim());
      toast.success(t('card.added'));
      setName('');
    } catch (err) {
      if (!isPasskeyCancel(err)) toast.error(errorMessage(err, t('card.failed')));
    }
    setAdding(false);
    await mutate();
  }

  async function remove(passkey: Passkey) {
    try {
      await removePasskey(passkey.id);
      toast.success(t('card.removed'));
    } catch (err) {
      toast.error(errorMessage(err, t('card.failed')));
    }
    await mutate();
  }

  return (
    <Card className="gap-4" data-testid="passkeys-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <Fingerprint className="size-4" />
          {t('card.title')}
        </CardHeading>
        <CardDescription>{t('card.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {passkeys &&
          (passkeys.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="passkeys-empty">
              {t('card.empty')}
            </p>
          ) : (
            <ul className="divide-y" aria-label={t('card.listLabel')} data-testid="passkey-list">
              {passkeys.map((passkey) => (
                <PasskeyRow key={passkey.id} passkey={passkey} onRemove={setRemoving} onRenamed={mutate} />
              ))}
            </ul>
          ))}
        {supported ? (
          <form className="flex flex-wrap items-end gap-2" onSubmit={(e) => void add(e)}>
            <div className="min-w-48 flex-1 space-y-1.5">
              <Label htmlFor="passkey-name">{t('card.nameLabel')}</Label>
              <Input id="passkey-name" required maxLength={100} value={name} placeholder={t('card.namePlaceholder')} onChange={(e) => setName(e.target.value)} data-testid="passkey-name-input" />
            </div>
            <Button type="submit" variant="outline" disabled={adding || full || !name.trim()} data-testid="passkey-add">
              {adding ? <Spinner /> : <Plus />}
              {adding ? t('card.adding') : t('card.add')}
            </Button>
            {passkeys && <span className="text-xs text-muted-foreground">{t('card.count', { count: passkeys.length, max: MAX_PASSKEYS })}</span>}
          </form>
        ) : (
          <p className="text-sm text-muted-foreground">{t('card.unsupported')}</p>
        )}
      </CardContent>
      <AlertDialog open={removing !== null} onOpenChange={(open) => !open && setRemoving(null)}>
        <AlertDialogContent data-testid="passkey-remove-dialog">
          <AlertDialogHeader>
            <AlertDialogTitle>{t('card.removeTitle', { name: removing?.name ?? '' })}</AlertDialogTitle>
            <AlertDialogDescription>{t('card.removeDescription')}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('card.cancel')}</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                if (removing) void remove(removing);
                setRemoving(null);
              }}
              data-testid="passkey-remove-confirm"
            >
              {t('card.remove')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
