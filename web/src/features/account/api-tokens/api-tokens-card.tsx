import { BookOpen, KeyRound, Plus, Trash2 } from 'lucide-react';
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
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import {
  type AccessToken,
  API_DOCS_PATH,
  createAccessToken,
  DEFAULT_EXPIRY,
  EXPIRY_CHOICES,
  MAX_TOKEN_NAME,
  MAX_TOKENS,
  revokeAccessToken,
  type TokenScope,
  useAccessTokens,
} from './tokens-api';

const NEVER = 'never';
type Access = 'read' | 'write';
const SCOPES_OF: Record<Access, TokenScope[]> = { read: ['reminders:read'], write: ['reminders:read', 'reminders:write'] };

/** One token in the list: what it may do, when it expires, when it was last used. */
function TokenRow({ token, onRevoke }: { token: AccessToken; onRevoke: (token: AccessToken) => void }) {
  const { t } = useTranslation('tokens');
  const expired = token.expires_at !== null && Date.parse(token.expires_at) <= Date.now();
  const details = [
    t('card.createdOn', { date: formatDate(token.created_at) }),
    token.expires_at === null
      ? t('card.noExpiry')
      : t(expired ? 'card.expiredOn' : 'card.expiresOn', { date: formatDate(token.expires_at) }),
    token.last_used_at ? t('card.lastUsed', { date: formatDate(token.last_used_at) }) : t('card.neverUsed'),
  ];
  return (
    <li className="flex items-start justify-between gap-3 py-3 first:pt-0 last:pb-0" data-testid="api-token-row">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="truncate font-medium" data-testid="api-token-name">
            {token.name}
          </span>
          <Badge variant="secondary">{t('card.read')}</Badge>
          {token.scopes.includes('reminders:write') && <Badge>{t('card.write')}</Badge>}
        </div>
        <p className={expired ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'} data-testid="api-token-details">
          {details.join(' · ')}
        </p>
      </div>
      <Button variant="ghost" size="sm" aria-label={t('card.revokeLabel', { name: token.name })} onClick={() => onRevoke(token)} data-testid="api-token-revoke">
        <Trash2 />
        <span className="max-sm:sr-only">{t('card.revoke')}</span>
      </Button>
    </li>
  );
}

/** The account's personal access tokens: create (shown once), list with last use, revoke (docs/api.md). */
export function ApiTokensCard() {
  const { t } = useTranslation('tokens');
  const { data: tokens, mutate } = useAccessTokens();
  const [name, setName] = useState('');
  const [access, setAccess] = useState<Access>('read');
  const [expiry, setExpiry] = useState<string>(String(DEFAULT_EXPIRY));
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  const full = (tokens?.length ?? 0) >= MAX_TOKENS;

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const token = await createAccessToken({ name, scopes: SCOPES_OF[access], expires_in_days: expiry === NEVER ? null : Number(expiry) });
      setCreated(token.token);
      setName('');
      toast.success(t('card.created'));
      await mutate();
    } catch (err) {
      toast.error(errorMessage(err, t('card.failed')));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(token: AccessToken) {
    try {
      await revokeAccessToken(token.id);
      toast.success(t('card.revoked'));
    } catch (err) {
      toast.error(errorMessage(err, t('card.failed')));
    }
    await mutate();
  }

  return (
    <Card className="gap-4" data-testid="api-tokens-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <KeyRound className="size-4" />
          {t('card.title')}
        </CardHeading>
        <CardDescription>
          {t('card.description')}{' '}
          <a href={API_DOCS_PATH} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
            <BookOpen className="size-3.5" />
            {t('card.docsLink')}
          </a>
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {created && (
          <Alert className="block space-y-2 border-primary/40" data-testid="api-token-created">
            <p className="font-medium">{t('card.newTokenTitle')}</p>
            <p className="text-sm text-muted-foreground">{t('card.newTokenHint')}</p>
            <div className="flex gap-2">
              <Input readOnly value={created} aria-label={t('card.newTokenTitle')} data-testid="api-token-secret" onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
              <CopyButton value={created} label={t('card.copy')} copiedLabel={t('card.copied')} />
            </div>
            <Button variant="outline" size="sm" onClick={() => setCreated(null)} data-testid="api-token-done">
              {t('card.done')}
            </Button>
          </Alert>
        )}

        <form onSubmit={(e) => void create(e)} className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end" data-testid="api-token-form">
          <div className="grid gap-1.5">
            <Label htmlFor="api-token-name">{t('card.name')}</Label>
            <Input id="api-token-name" value={name} maxLength={MAX_TOKEN_NAME} required placeholder={t('card.namePlaceholder')} onChange={(e) => setName(e.target.value)} data-testid="api-token-name-input" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="api-token-access">{t('card.access')}</Label>
            <Select value={access} onValueChange={(v) => setAccess(v as Access)}>
              <SelectTrigger id="api-token-access" className="sm:w-64" data-testid="api-token-access">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="read" data-testid="api-token-access-read">
                  {t('card.scopeRead')}
                </SelectItem>
                <SelectItem value="write" data-testid="api-token-access-write">
                  {t('card.scopeWrite')}
                </SelectItem>
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="api-token-expiry">{t('card.expiry')}</Label>
            <Select value={expiry} onValueChange={setExpiry}>
              <SelectTrigger id="api-token-expiry" className="sm:w-36" data-testid="api-token-expiry">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {EXPIRY_CHOICES.map((days) => (
                  <SelectItem key={String(days)} value={days === null ? NEVER : String(days)} data-testid={`api-token-expiry-${days ?? NEVER}`}>
                    {days === null ? t('card.expiryNever') : t('card.expiryDays', { count: days })}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button type="submit" disabled={busy || full || !name.trim()} className="sm:col-span-3 sm:justify-self-start" data-testid="api-token-create">
            <Plus />
            {t('card.create')}
          </Button>
          {full && <p className="text-sm text-muted-foreground sm:col-span-3">{t('card.limitReached')}</p>}
        </form>

        {tokens && tokens.length === 0 && <p className="text-sm text-muted-foreground">{t('card.empty')}</p>}
        {tokens && tokens.length > 0 && (
          <ul className="divide-y" aria-label={t('card.listLabel')} data-testid="api-token-list">
            {tokens.map((token) => (
              <TokenRow key={token.id} token={token} onRevoke={setRevoking} />
            ))}
          </ul>
        )}
      </CardContent>
      <AlertDialog open={revoking !== null} onOpenChange={(open) => !open && setRevoking(null)}>
        <AlertDialogContent data-testid="api-token-revoke-dialog">
          <AlertDialogHeader>
            <AlertDialogTitle>{t('card.revokeTitle', { name: revoking?.name ?? '' })}</AlertDialogTitle>
            <AlertDialogDescription>{t('card.revokeDescription')}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('card.cancel')}</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                if (revoking) void revoke(revoking);
                setRevoking(null);
              }}
              data-testid="api-token-revoke-confirm"
            >
              {t('card.revoke')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
