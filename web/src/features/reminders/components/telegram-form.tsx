import { Link2, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Spinner } from '@/components/ui/spinner';
import type { TelegramLinkCode } from '@/lib/api/types';
import { checkDestination } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import type { EditableDestination } from '../api/destinations';
import { createTelegramLinkCode, forgetTelegramChat, useTelegramChats } from '../api/telegram';
import { chatDestination, chatsToOffer, codeExpired, newlyConnected } from '../lib/telegram-link';

interface Shown {
  code: TelegramLinkCode;
  /** The chat ids listed when the code was made: a new one is the chat that used it. */
  before: Set<string>;
}

/**
 * Telegram (docs/notifications.md "Telegram"): the account's connected chats, each added after the
 * server's check, and "Connect a chat": a one-time code shown as `/start <code>` and t.me links,
 * while the chats are polled until the chat that used it appears.
 */
export function TelegramForm({ value, onAdd, disabled, idPrefix }: { value: readonly EditableDestination[]; onAdd: (d: EditableDestination) => void; disabled?: boolean; idPrefix: string }) {
  const { t } = useTranslation('telegram');
  const deliveryText = useDeliveryText();
  const [shown, setShown] = useState<Shown | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const expired = shown !== null && codeExpired(shown.code, now);
  const waiting = shown !== null && !expired;
  const chats = useTelegramChats(waiting);
  const fresh = shown ? newlyConnected(chats.data?.chats, shown.before) : [];
  const offered = chatsToOffer(chats.data?.chats, value);

  // The code's expiry is shown without a reload: a clock ticks while one is on screen.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [waiting]);

  async function makeCode() {
    setBusy('code');
    setError(null);
    try {
      const code = await createTelegramLinkCode();
      setShown({ code, before: new Set((chats.data?.chats ?? []).map((c) => c.chat_id)) });
      setNow(Date.now());
    } catch (err) {
      setError(deliveryText.errorText(err) || t('form.failed'));
    } finally {
      setBusy(null);
    }
  }

  async function add(chatId: string) {
    const chat = chats.data?.chats.find((c) => c.chat_id === chatId);
    if (!chat || disabled) return;
    const destination = chatDestination(chat);
    setBusy(chatId);
    setError(null);
    try {
      const result = await checkDestination(destination);
      if (!result.ok) return setError(deliveryText.codeText(result.code, { fallback: result.error, params: result.params }));
      onAdd(destination);
      if (fresh.some((c) => c.chat_id === chatId)) setShown(null);
    } catch (err) {
      setError(deliveryText.errorText(err));
    } finally {
      setBusy(null);
    }
  }

  async function forget(id: string) {
    setBusy(id);
    setError(null);
    try {
      await forgetTelegramChat(id);
      await chats.mutate();
    } catch (err) {
      setError(deliveryText.errorText(err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="space-y-4" data-testid="telegram-form">
      <div className="space-y-2">
        <p className="text-sm font-medium">{t('form.chats')}</p>
        {chats.data && offered.length === 0 && (
          <p className="text-xs text-muted-foreground" data-testid="telegram-no-chats">
            {chats.data.chats.length === 0 ? t('form.noChats') : t('form.allChatsAdded')}
          </p>
        )}
        <ul className="space-y-2">
          {offered.map((chat) => (
            <li key={chat.chat_id} className="flex items-center justify-between gap-3 rounded-md border bg-card px-3 py-2" data-testid="telegram-chat">
              <span className="min-w-0 flex-1 truncate text-sm">{chat.label}</span>
              <Button
                type="button"
                size="sm"
                variant="ghost"
                disabled={disabled || busy !== null}
                onClick={() => void forget(chat.id)}
                aria-label={t('form.forgetLabel', { chat: chat.label })}
                title={t('form.forgetLabel', { chat: chat.label })}
                data-testid={`telegram-forget-${chat.chat_id}`}
              >
                {busy === chat.id ? <Spinner /> : <Trash2 />}
                <span className="sr-only sm:not-sr-only">{t('form.forget')}</span>
              </Button>
              <Button type="button" size="sm" variant="outline" disabled={disabled || busy !== null} onClick={() => void add(chat.chat_id)} data-testid={`telegram-add-${chat.chat_id}`}>
                {busy === chat.chat_id ? <Spinner /> : <Plus />}
                {t('form.choose')}
              </Button>
            </li>
          ))}
        </ul>
      </div>

      {shown && !expired && (
        <div className="space-y-2 rounded-md border bg-card p-3" data-testid="telegram-code">
          <p className="text-xs text-muted-foreground">{t('form.codeIntro')}</p>
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1 text-sm" id={`${idPrefix}-start`} data-testid="telegram-start-command">
              {shown.code.start_command}
            </code>
            <CopyButton value={shown.code.start_command} label={t('form.copy')} size="sm" />
          </div>
          <div className="flex flex-wrap gap-2">
            {shown.code.url && (
              <Button asChild size="sm">
                <a href={shown.code.url} target="_blank" rel="noreferrer noopener" data-testid="telegram-open-bot">
                  <Link2 />
                  {t('form.openBot')}
                </a>
              </Button>
            )}
            {shown.code.group_url && (
              <Button asChild size="sm" variant="outline">
                <a href={shown.code.group_url} target="_blank" rel="noreferrer noopener">
                  {t('form.openGroup')}
                </a>
              </Button>
            )}
          </div>
          <p className="flex items-center gap-2 text-xs text-muted-foreground" role="status">
            {fresh.length ? t('form.connected', { chat: fresh.map((c) => c.label).join(', ') }) : (
              <>
                <Spinner /> {t('form.waiting')}
              </>
            )}
          </p>
        </div>
      )}
      {expired && (
        <p className="text-sm text-muted-foreground" role="status" data-testid="telegram-code-expired">
          {t('form.expired')}
        </p>
      )}

      {error && (
        <p className="text-sm text-destructive" role="alert" data-testid="telegram-error">
          {error}
        </p>
      )}
      <Button type="button" size="sm" variant={shown ? 'outline' : 'default'} disabled={disabled || busy !== null} onClick={() => void makeCode()} data-testid="telegram-connect">
        {busy === 'code' ? <Spinner /> : shown ? <RefreshCw /> : <Link2 />}
        {shown ? t('form.newCode') : t('form.connect')}
      </Button>
    </div>
  );
}
