import { CheckCircle2, Plus, Send, XCircle } from 'lucide-react';
import { useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorDetail } from '@/lib/api-client';
import { testWebhook, type WebhookPlatform, type WebhookTestResult } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import { cn } from '@/lib/utils';
import type { EditableDestination } from '../api/destinations';
import { useWebhookUrlCheck } from './use-webhook-url-check';
import { Spinner } from '@/components/ui/spinner';

const PLATFORMS: WebhookPlatform[] = ['generic', 'discord', 'slack'];

export function usePlatformLabels(): Record<WebhookPlatform, string> {
  const { t } = useTranslation('destinations');
  return { generic: t('webhook.platforms.generic'), discord: t('webhook.platforms.discord'), slack: t('webhook.platforms.slack') };
}

type TestState = { status: 'idle' } | { status: 'sending' } | { status: 'done'; result: WebhookTestResult } | { status: 'error'; message: string };

/**
 * URL, platform and (Discord/Slack only) display name. The URL is only checked for blankness here:
 * the server validates it (scheme, length, private addresses) on test and on save.
 */
export function WebhookForm({ onAdd, disabled, idPrefix = 'webhook' }: { onAdd: (destination: EditableDestination) => void; disabled?: boolean; idPrefix?: string }) {
  const { t } = useTranslation('destinations');
  const platformLabels = usePlatformLabels();
  const [url, setUrl] = useState('');
  const [platform, setPlatform] = useState<WebhookPlatform>('generic');
  const [username, setUsername] = useState('');
  const [test, setTest] = useState<TestState>({ status: 'idle' });
  // The secret the first test was signed with: later tests and the saved webhook use it too, so a
  // receiver set up with it during the tests checks every delivery (docs/webhooks.md "Receivers").
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [adding, setAdding] = useState(false);
  const urlCheck = useWebhookUrlCheck();
  // The field as last rendered, for code that resumes after an await.
  const latestUrl = useRef(url);
  latestUrl.current = url;
  const deliveryText = useDeliveryText();

  const blank = url.trim() === '';
  const hasUsername = platform === 'discord' || platform === 'slack';
  const target = () => ({ url: url.trim(), platform, ...(hasUsername && username.trim() ? { username: username.trim() } : {}) });

  async function sendTest() {
    setTest({ status: 'sending' });
    try {
      const result = await testWebhook({ ...target(), ...(secret ? { secret } : {}) });
      if (result.secret) setSecret(result.secret);
      setTest({ status: 'done', result });
    } catch (err) {
      const detail = errorDetail(err);
      setTest({ status: 'error', message: detail ? t('webhook.test.failedWithError', { error: detail }) : t('webhook.test.requestFailed') });
    }
  }

  async function submit(e: { preventDefault(): void; stopPropagation(): void }) {
    e.preventDefault();
    e.stopPropagation();
    if (blank || disabled || adding) return;
    // A refused URL is not added (it would count toward the cap): its reason shows below instead.
    const metadata = target();
    setAdding(true);
    const accepted = await urlCheck.check(metadata).finally(() => setAdding(false));
    if (!accepted) return;
    onAdd({ type: 'webhook', metadata: secret ? { ...metadata, secret } : metadata });
    setSecret(undefined);
    setTest({ status: 'idle' });
    // An address typed while Add was being checked (a slow network) is the next one: it stays in
    // the field with its own check instead of being wiped with the one just added.
    if (latestUrl.current.trim() !== metadata.url) return;
    setUrl('');
    urlCheck.reset();
    setUsername('');
    setPlatform('generic');
  }

  const ids = { url: `${idPrefix}-url`, platform: `${idPrefix}-platform`, username: `${idPrefix}-username`, result: `${idPrefix}-test-result` };

  return (
    // A div, not a form: this editor may sit inside another form (the details page).
    <div
      className="space-y-4"
      data-testid="webhook-form"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') void submit(e);
      }}
    >
      <div className="space-y-2">
        <Label htmlFor={ids.url}>{t('webhook.url')}</Label>
        <Input
          id={ids.url}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('webhook.urlPlaceholder')}
          value={url}
          disabled={disabled}
          onBlur={() => void urlCheck.check(target())}
          aria-describedby={urlCheck.state.status === 'failed' ? `${idPrefix}-url-check` : undefined}
          onChange={(e) => {
            urlCheck.reset();
            setUrl(e.target.value);
            setTest({ status: 'idle' });
          }}
          data-testid="webhook-url"
        />
      </div>
      <div className={cn('grid gap-4', hasUsername && 'sm:grid-cols-2')}>
        <div className="space-y-2">
          <Label htmlFor={ids.platform}>{t('webhook.platform')}</Label>
          <Select
            value={platform}
            disabled={disabled}
            onValueChange={(v) => {
              setPlatform(v as WebhookPlatform);
              setTest({ status: 'idle' });
            }}
          >
            <SelectTrigger id={ids.platform} data-testid="webhook-platform">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {PLATFORMS.map((p) => (
                <SelectItem key={p} value={p} data-testid={`webhook-platform-${p}`}>
                  {platformLabels[p]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {hasUsername && (
          <div className="space-y-2">
            <Label htmlFor={ids.username}>
              {t('webhook.username')} <span className="font-normal text-muted-foreground">{t('webhook.optional')}</span>
            </Label>
            <Input
              id={ids.username}
              maxLength={80}
              placeholder={t('webhook.usernamePlaceholder')}
              value={username}
              disabled={disabled}
              onChange={(e) => setUsername(e.target.value)}
              data-testid="webhook-username"
            />
          </div>
        )}
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div aria-live="polite" id={ids.result} className="text-sm" data-testid="webhook-test-result" data-status={test.status === 'done' ? (test.result.ok ? 'ok' : 'failed') : test.status}>
          {test.status === 'done' && test.result.ok && (
            <span className="inline-flex items-center gap-1.5 text-success">
              <CheckCircle2 className="size-4 shrink-0" aria-hidden />
              {test.result.http_status ? t('webhook.test.okWithStatus', { status: test.result.http_status }) : t('webhook.test.ok')}
            </span>
          )}
          {test.status === 'done' && !test.result.ok && (
            <span className="inline-flex items-start gap-1.5 text-destructive">
              <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>
                {test.result.http_status
                  ? t('webhook.test.failedWithStatus', { status: test.result.http_status })
                  : t('webhook.test.failedWithError', { error: test.result.error ?? t('webhook.test.unknownError') })}
              </span>
            </span>
          )}
          {test.status === 'error' && (
            <span className="inline-flex items-start gap-1.5 text-destructive">
              <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>{test.message}</span>
            </span>
          )}
        </div>
        <div className="flex shrink-0 gap-2">
          <Button type="button" variant="outline" size="sm" disabled={blank || disabled || test.status === 'sending'} onClick={() => void sendTest()} aria-describedby={ids.result} data-testid="webhook-test">
            {test.status === 'sending' ? <Spinner className="size-3.5" /> : <Send />}
            {test.status === 'sending' ? t('webhook.test.sending') : t('webhook.test.send')}
          </Button>
          <Button type="button" size="sm" disabled={blank || disabled || adding} onClick={(e) => void submit(e)} data-testid="webhook-add">
            <Plus />
            {t('webhook.add')}
          </Button>
        </div>
      </div>
      {test.status === 'done' && test.result.secret && (
        <p className="text-xs text-muted-foreground" data-testid="webhook-test-secret">
          <Trans t={t} i18nKey="webhook.test.signedWith" values={{ secret: test.result.secret }} components={{ code: <code className="font-mono break-all" /> }} />
        </p>
      )}
      {/* Below the buttons, and no "checking" line: a click on a button blurs the field, and the
        buttons must not move under the pointer meanwhile. */}
      {urlCheck.state.status === 'failed' && (
        <p id={`${idPrefix}-url-check`} className="flex items-start gap-1.5 text-xs font-medium text-destructive" role="alert" data-testid="webhook-url-check" data-status="failed">
          <XCircle className="mt-px size-3.5 shrink-0" aria-hidden />
          {deliveryText.codeText(urlCheck.state.code, { fallback: urlCheck.state.error })}
        </p>
      )}
    </div>
  );
}
