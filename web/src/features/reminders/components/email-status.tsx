import { CheckCircle2, Clock, MailWarning, Send } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api-client';
import { type EmailAddressState, sendEmailConfirmation, useEmailAddresses } from '@/lib/api/email';

/**
 * Whether an address confirmed it wants this account's reminders (docs/operations.md "Email"), and a button
 * to mail the link again. `saved`: the address is on a saved reminder (then a link went out when
 * it was saved); in the wizard, before Create, it is only "confirmation needed".
 */
/** The server mails a link again at most once a minute (server/mail/email-addresses.ts RESEND_GAP_MS). */
const RESEND_GAP_MS = 60_000;

/** Now, ticking every second while `until` is ahead (for a countdown), still otherwise. */
function useCountdownNow(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return now;
}

export function EmailConfirmationStatus({ address, saved }: { address: string; saved: boolean }) {
  const { t } = useTranslation('destinations');
  const addresses = useEmailAddresses();
  const [sending, setSending] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  // When the server answered "too soon": its own count of the seconds left.
  const [retryAt, setRetryAt] = useState(0);
  const waitId = useId();
  const found = addresses.data?.addresses.find((a) => a.address.toLowerCase() === address.toLowerCase());
  const state: EmailAddressState = found?.state ?? 'unconfirmed';
  // A link went out less than a minute ago: the button waits, and says for how long (issue 27 #18).
  const sentAt = found?.confirmation_sent_at ? Date.parse(found.confirmation_sent_at) : 0;
  const waitUntil = Math.max(state === 'pending' && sentAt ? sentAt + RESEND_GAP_MS : 0, retryAt);
  const now = useCountdownNow(waitUntil);
  const waitSeconds = Math.max(0, Math.ceil((waitUntil - now) / 1000));
  if (!addresses.data) return null;

  async function resend() {
    setSending(true);
    setNote(null);
    try {
      const result = await sendEmailConfirmation(address);
      setNote(result.sent ? { ok: true, text: t('email.resent', { address }) } : null);
      await addresses.mutate();
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        const seconds = Number(err.details.retry_after_seconds ?? err.retryAfterSeconds ?? 60);
        setRetryAt(Date.now() + (Number.isFinite(seconds) && seconds > 0 ? seconds : 60) * 1000);
        return;
      }
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
          <Button type="button" variant="link" size="sm" className="h-auto px-0 text-xs" disabled={sending || waitSeconds > 0 || !addresses.data.configured} aria-describedby={waitSeconds > 0 ? waitId : undefined} onClick={() => void resend()} data-testid="email-resend">
            <Send aria-hidden />
            {t('email.resend')}
          </Button>
        )}
      </div>
      {state !== 'confirmed' && <p className="text-xs text-muted-foreground">{state === 'pending' ? t('email.pendingHint', { address }) : saved ? t('email.unconfirmedHint') : t('email.neededHint')}</p>}
      {state !== 'confirmed' && waitSeconds > 0 && (saved || state === 'pending') && (
        <p id={waitId} className="text-xs text-muted-foreground" data-testid="email-resend-wait">
          {t('email.resendWait', { count: waitSeconds })}
        </p>
      )}
      {note && (
        <p className={note.ok ? 'text-xs text-success' : 'text-xs text-destructive'} role="status" data-testid="email-resend-result">
          {note.text}
        </p>
      )}
    </div>
  );
}
