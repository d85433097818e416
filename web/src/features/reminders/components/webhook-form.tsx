import { CheckCircle2, Plus, Save, Send, X, XCircle } from 'lucide-react';
import { useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { ApiError, errorDetail } from '@/lib/api-client';
import { testWebhook, type WebhookPlatform, type WebhookTestResult } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';
import { cn } from '@/lib/utils';
import type { EditableDestination } from '../api/destinations';
import { useWebhookUrlCheck } from './use-webhook-url-check';
import { Spinner } from '@/components/ui/spinner';
import { EMPTY_SHAPE, fieldOfCode, hasShape, headerRowOf, shapeFromMetadata, shapeMetadata, type WebhookShape } from '../lib/webhook-shape';
import { type ShapeErrors, WebhookAdvanced } from './webhook-advanced';

const PLATFORMS: WebhookPlatform[] = ['generic', 'discord', 'slack'];

export function usePlatformLabels(): Record<WebhookPlatform, string> {
  const { t } = useTranslation('destinations');
  return { generic: t('webhook.platforms.generic'), discord: t('webhook.platforms.discord'), slack: t('webhook.platforms.slack') };
}

type TestState = { status: 'idle' } | { status: 'sending' } | { status: 'done'; result: WebhookTestResult } | { status: 'error'; message: string };

interface WebhookFormProps {
  onAdd: (destination: EditableDestination) => void;
  disabled?: boolean;
  idPrefix?: string;
  /** A webhook of the list being edited: the form opens with its fields and saves it in its place. */
  editing?: EditableDestination;
  /** Closes the form of an edited webhook without changing it. */
  onCancel?: () => void;
}

/**
 * URL, platform, (Discord/Slack only) display name and (generic only) the "Advanced" body
 * template and headers. The URL is only checked for blankness here: the server validates
 * everything (scheme, private addresses, placeholders, header names) on test, check and save.
 */
export function WebhookForm({ onAdd, disabled, idPrefix = 'webhook', editing, onCancel }: WebhookFormProps) {
  const { t, i18n } = useTranslation('destinations');
  const platformLabels = usePlatformLabels();
  const [url, setUrl] = useState(editing?.metadata.url ?? '');
  const [platform, setPlatform] = useState<WebhookPlatform>(editing?.metadata.platform ?? 'generic');
  const [username, setUsername] = useState(editing?.metadata.username ?? '');
  const [shape, setShape] = useState<WebhookShape>(() => shapeFromMetadata(editing?.metadata));
  const [test, setTest] = useState<TestState>({ status: 'idle' });
  // The secret the first test was signed with: later tests and the saved webhook use it too, so a
  // receiver set up with it during the tests checks every delivery (docs/webhooks.md "Receivers").
  // A webhook not saved yet keeps the one it was added with.
  const [secret, setSecret] = useState<string | undefined>(editing && !editing.id ? editing.metadata.secret : undefined);
  // A saved webhook keeps its signing secret: a test here would sign with a new one and replace it.
  const canTest = !editing?.id;
  const [adding, setAdding] = useState(false);
  const urlCheck = useWebhookUrlCheck();
  // The field as last rendered, for code that resumes after an await.
  const latestUrl = useRef(url);
  latestUrl.current = url;
  const deliveryText = useDeliveryText();

  const blank = url.trim() === '';
  const hasUsername = platform === 'discord' || platform === 'slack';
  const target = () => ({
    url: url.trim(),
    platform,
    ...(hasUsername && username.trim() ? { username: username.trim() } : {}),
    ...(platform === 'generic' ? shapeMetadata(shape) : {}),
  });

  // A refusal of the check, under the field it is about (translated from its code).
  const failed = urlCheck.state.status === 'failed' ? urlCheck.state : null;
  const failedField = failed ? fieldOfCode(failed.code) : null;
  const failedName = failed?.params?.name ?? null;
  function shapeErrorText(code: string | null, error: string | null): string {
    if (code === 'WEBHOOK_TEMPLATE_INVALID' && failedName) return t('webhook.advanced.unknownField', { name: failedName });
    if (code === 'WEBHOOK_HEADER_INVALID' && failedName) return t('webhook.advanced.headerRefused', { name: failedName });
    if (code && i18n.exists(`common:errors.${code}`)) return t(`common:errors.${code}`);
    return deliveryText.codeText(code, { fallback: error });
  }
  const shapeErrors: ShapeErrors = {
    template: failed && failedField === 'template' ? shapeErrorText(failed.code, failed.error) : null,
    headers: failed && failedField === 'headers' ? { text: shapeErrorText(failed.code, failed.error), row: headerRowOf(shape.headers, failedName) } : null,
  };

  async function sendTest() {
    setTest({ status: 'sending' });
    try {
      const result = await testWebhook({ ...target(), ...(secret ? { secret } : {}) });
      if (result.secret) setSecret(result.secret);
      setTest({ status: 'done', result });
    } catch (err) {
      // The template or headers refused: the check words it under its field.
      const field = err instanceof ApiError ? fieldOfCode(err.code) : null;
      if (field === 'template' || field === 'headers') {
        setTest({ status: 'idle' });
        void urlCheck.check(target());
        return;
      }
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
    onAdd({ ...(editing?.id ? { id: editing.id } : {}), type: 'webhook', metadata: secret ? { ...metadata, secret } : metadata });
    if (editing) return;
    setSecret(undefined);
    setTest({ status: 'idle' });
    // An address typed while Add was being checked (a slow network) is the next one: it stays in
    // the field with its own check instead of being wiped with the one just added.
    if (latestUrl.current.trim() !== metadata.url) return;
    setUrl('');
    urlCheck.reset();
    setUsername('');
    setPlatform('generic');
    setShape(EMPTY_SHAPE);
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
          aria-describedby={failed && (failedField === 'url' || failedField === 'form') ? `${idPrefix}-url-check` : undefined}
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

      {platform === 'generic' && (
        <WebhookAdvanced
          value={shape}
          onChange={(next) => {
            setShape(next);
            urlCheck.reset();
            setTest({ status: 'idle' });
          }}
          onBlur={() => void urlCheck.check(target())}
          errors={shapeErrors}
          disabled={disabled}
          idPrefix={idPrefix}
          defaultOpen={hasShape(editing?.metadata)}
        />
      )}

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
          {onCancel && (
            <Button type="button" variant="ghost" size="sm" disabled={adding} onClick={onCancel} data-testid="webhook-edit-cancel">
              <X />
              {t('webhook.cancel')}
            </Button>
          )}
          {canTest && (
            <Button type="button" variant="outline" size="sm" disabled={blank || disabled || test.status === 'sending'} onClick={() => void sendTest()} aria-describedby={ids.result} data-testid="webhook-test">
              {test.status === 'sending' ? <Spinner className="size-3.5" /> : <Send />}
              {test.status === 'sending' ? t('webhook.test.sending') : t('webhook.test.send')}
            </Button>
          )}
          <Button type="button" size="sm" disabled={blank || disabled || adding} onClick={(e) => void submit(e)} data-testid={editing ? 'webhook-save' : 'webhook-add'}>
            {adding ? <Spinner className="size-3.5" /> : editing ? <Save /> : <Plus />}
            {editing ? t('webhook.save') : t('webhook.add')}
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
      {failed && (failedField === 'url' || failedField === 'form') && (
        <p id={`${idPrefix}-url-check`} className="flex items-start gap-1.5 text-xs font-medium text-destructive" role="alert" data-testid="webhook-url-check" data-status="failed">
          <XCircle className="mt-px size-3.5 shrink-0" aria-hidden />
          {deliveryText.codeText(failed.code, { fallback: failed.error })}
        </p>
      )}
    </div>
  );
}
