import { CheckCircle2, Clock, MailWarning, Send } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { type EmailAddressState, sendEmailConfirmation, useEmailAddresses } from '@/lib/api/email';

/**
 * Whether an address confirmed it wants this account's reminders (docs/operations.md "Email"), and a button
 * to mail the link again. `saved`: the address is on a saved reminder (then a link went out when
 * it was saved); in the wizard, before Create, it is only "confirmation needed".
 */
export function EmailConfirmationStatus({ address, saved }: { address: string; saved: boolean }) {
  const { t } = useTranslation('destinations');
  const addresses = useEmailAddresses();
  const [sending, setSending] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const found = addresses.data?.addresses.find((a) => a.address.toLowerCase() === address.toLowerCase());
  if (!addresses.data) return null;
  const state: EmailAddressState = found?.state ?? 'unconfirmed';

  async function resend() {
    setSending(true);
    setNote(null);
    try {
      const result = await sendEmailConfirmation(address);
      setNote(result.sent ? { ok: true, text: t('email.resent', { address }) } : null);
      await addresses.mutate();
    } catch (err) {
      setNote({ ok: false, text: errorMessage(err) });
    } finally {
      setSending(false);
    }
  }

  const badge =
    state === 'confirmed' ? (
      <Badge variant="success">
        <CheckCircle2 aria-hidden />
        {t('email.state.confirmed')}
      </Badge>
    ) : state === 'pending' ? (
      <Badge variant="warning">
        <Clock aria-hidden />
        {t('email.state.pending')}
      </Badge>
    ) : (
      <Badge variant="warning">
        <MailWarning aria-hidden />
        {saved ? t('email.state.unconfirmed') : t('email.state.needed')}
      </Badge>
    );

  return (
    <div className="space-y-1.5" data-testid="email-status" data-state={state}>
      <div className="flex flex-wrap items-center gap-2">
        {badge}
        {state !== 'confirmed' && (saved || state === 'pending') && (
          <Button type="button" variant="link" size="sm" className="h-auto px-0 text-xs" disabled={sending || !addresses.data.configured} onClick={() => void resend()} data-testid="email-resend">
            <Send aria-hidden />
            {t('email.resend')}
          </Button>
        )}
      </div>
      {state !== 'confirmed' && <p className="text-xs text-muted-foreground">{state === 'pending' ? t('email.pendingHint', { address }) : saved ? t('email.unconfirmedHint') : t('email.neededHint')}</p>}
      {note && (
        <p className={note.ok ? 'text-xs text-success' : 'text-xs text-destructive'} role="status" data-testid="email-resend-result">
          {note.text}
        </p>
      )}
    </div>
  );
}
