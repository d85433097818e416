import { ChevronDown, Eye, EyeOff, Plus, Trash2, XCircle } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';
import { type BodyFormat, type HeaderRow, MAX_HEADERS, MAX_TEMPLATE, previewBody, TEMPLATE_FIELDS, type WebhookShape } from '../lib/webhook-shape';

export interface ShapeErrors {
  /** Under the template (WEBHOOK_TEMPLATE_INVALID), in words. */
  template?: string | null;
  /** Under the headers (WEBHOOK_HEADER_INVALID), in words, and the row it names (-1: none). */
  headers?: { text: string; row: number } | null;
}

interface WebhookAdvancedProps {
  value: WebhookShape;
  onChange: (next: WebhookShape) => void;
  /** A field lost focus: the form asks the server's check. */
  onBlur: () => void;
  errors: ShapeErrors;
  disabled?: boolean;
  idPrefix: string;
  /** Opened at first (an edited webhook with a template or headers). */
  defaultOpen?: boolean;
}

/**
 * A generic webhook's "Advanced" disclosure: body format, body template (its fields, a preview with
 * sample values) and extra headers (docs/notifications.md "Webhook body templates"). The server
 * decides what is valid; its refusals come back through `errors`, under their field.
 */
export function WebhookAdvanced({ value, onChange, onBlur, errors, disabled, idPrefix, defaultOpen = false }: WebhookAdvancedProps) {
  const { t } = useTranslation('destinations');
  const [open, setOpen] = useState(defaultOpen);
  const [previewing, setPreviewing] = useState(false);
  const template = useRef<HTMLTextAreaElement>(null);
  const panelId = useId();
  const ids = {
    format: `${idPrefix}-body-format`,
    template: `${idPrefix}-body-template`,
    templateHint: `${idPrefix}-body-template-hint`,
    templateError: `${idPrefix}-body-template-error`,
    headersError: `${idPrefix}-headers-error`,
  };
  const shown = open || Boolean(errors.template || errors.headers);
  const set = (patch: Partial<WebhookShape>) => onChange({ ...value, ...patch });
  const setRow = (index: number, patch: Partial<HeaderRow>) => set({ headers: value.headers.map((row, i) => (i === index ? { ...row, ...patch } : row)) });

  /** Puts `{{field}}` where the cursor is (at the end when the field was never focused). */
  function insertField(name: string) {
    const el = template.current;
    const token = `{{${name}}}`;
    const start = el?.selectionStart ?? value.template.length;
    const end = el?.selectionEnd ?? value.template.length;
    const next = value.template.slice(0, start) + token + value.template.slice(end);
    set({ template: next.slice(0, MAX_TEMPLATE) });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  const preview = previewing && value.template.trim() !== '' ? previewBody(value.template, value.format) : null;

  return (
    <div className="rounded-md border bg-background/60" data-testid="webhook-advanced">
      <button
        type="button"
        className="flex w-full items-center justify-between gap-2 rounded-md px-3 py-2 text-left text-sm font-medium outline-none hover:bg-muted/60 focus-visible:ring-[3px] focus-visible:ring-ring/40"
        aria-expanded={shown}
        aria-controls={panelId}
        onClick={() => setOpen(!shown)}
        data-testid="webhook-advanced-toggle"
      >
        {t('webhook.advanced.toggle')}
        <ChevronDown className={cn('size-4 shrink-0 text-muted-foreground transition-transform', shown && 'rotate-180')} aria-hidden />
      </button>
      {shown && (
        <div id={panelId} className="space-y-4 border-t px-3 py-3">
          <div className="space-y-2">
            <Label htmlFor={ids.format}>{t('webhook.advanced.format')}</Label>
            <Select value={value.format} disabled={disabled} onValueChange={(v) => set({ format: v as BodyFormat })}>
              <SelectTrigger id={ids.format} className="w-full sm:w-72" data-testid="webhook-body-format">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="json" data-testid="webhook-body-format-json">
                  {t('webhook.advanced.formats.json')}
                </SelectItem>
                <SelectItem value="text" data-testid="webhook-body-format-text">
                  {t('webhook.advanced.formats.text')}
                </SelectItem>
              </SelectContent>
            </Select>
          </div>

          <div className="space-y-2">
            <Label htmlFor={ids.template}>{t('webhook.advanced.template')}</Label>
            <Textarea
              ref={template}
              id={ids.template}
              rows={5}
              spellCheck={false}
              autoComplete="off"
              maxLength={MAX_TEMPLATE}
              className="font-mono text-xs leading-relaxed"
              placeholder={value.format === 'json' ? '{"text": "⏰ {{message}}", "link": "{{reminder_url}}"}' : '⏰ {{message}} {{reminder_url}}'}
              value={value.template}
              disabled={disabled}
              aria-invalid={errors.template ? true : undefined}
              aria-describedby={cn(ids.templateHint, errors.template && ids.templateError)}
              onChange={(e) => set({ template: e.target.value })}
              onBlur={onBlur}
              data-testid="webhook-body-template"
            />
            <p id={ids.templateHint} className="text-xs text-muted-foreground">
              <Trans t={t} i18nKey="webhook.advanced.templateHint" components={{ example: <code className="font-mono">{'"{{message}}"'}</code> }} />
            </p>
            {errors.template && (
              <p id={ids.templateError} className="flex items-start gap-1.5 text-xs font-medium text-destructive" role="alert" data-testid="webhook-body-template-error">
                <XCircle className="mt-px size-3.5 shrink-0" aria-hidden />
                {errors.template}
              </p>
            )}
            <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label={t('webhook.advanced.fields')}>
              <span className="text-xs text-muted-foreground">{t('webhook.advanced.fields')}</span>
              {TEMPLATE_FIELDS.map((name) => (
                <button
                  key={name}
                  type="button"
                  disabled={disabled}
                  className="rounded border bg-muted px-1.5 py-0.5 font-mono text-[11px] text-foreground outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:opacity-50"
                  title={t('webhook.advanced.insertField', { name })}
                  onClick={() => insertField(name)}
                  data-testid="webhook-template-field"
                >
                  {`{{${name}}}`}
                </button>
              ))}
            </div>
            <div>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="-ml-2"
                disabled={disabled || value.template.trim() === ''}
                aria-expanded={preview !== null}
                onClick={() => setPreviewing((p) => !p)}
                data-testid="webhook-preview-toggle"
              >
                {preview ? <EyeOff /> : <Eye />}
                {preview ? t('webhook.advanced.hidePreview') : t('webhook.advanced.preview')}
              </Button>
              {preview && (
                <div className="mt-1 space-y-1.5" data-testid="webhook-preview" data-valid={preview.ok}>
                  <p className="text-xs text-muted-foreground">{t('webhook.advanced.previewTitle')}</p>
                  <pre className="max-h-60 overflow-auto rounded-md border bg-muted/60 p-2.5 font-mono text-xs break-words whitespace-pre-wrap">{preview.body}</pre>
                  {!preview.ok && <p className="text-xs font-medium text-destructive">{t('webhook.advanced.previewNotJson')}</p>}
                </div>
              )}
            </div>
          </div>

          <fieldset className="space-y-2">
            <legend className="text-sm leading-none font-medium">{t('webhook.advanced.headers')}</legend>
            <p className="text-xs text-muted-foreground">{t('webhook.advanced.headersHint', { max: MAX_HEADERS })}</p>
            {value.headers.length > 0 && (
              <div className="space-y-3">
                {value.headers.map((row, index) => (
                  <div key={index} className="space-y-1" data-testid="webhook-header-row">
                    <div className="flex items-start gap-2 sm:items-center">
                      <div className="grid min-w-0 flex-1 gap-2 sm:grid-cols-[2fr_3fr]">
                        <Input
                          aria-label={t('webhook.advanced.headerName')}
                          placeholder={t('webhook.advanced.headerName')}
                          className="font-mono text-xs"
                          maxLength={64}
                          spellCheck={false}
                          autoComplete="off"
                          value={row.name}
                          disabled={disabled}
                          aria-invalid={errors.headers?.row === index ? true : undefined}
                          onChange={(e) => setRow(index, { name: e.target.value })}
                          onBlur={onBlur}
                          data-testid="webhook-header-name"
                        />
                        <Input
                          aria-label={t('webhook.advanced.headerValue')}
                          placeholder={t('webhook.advanced.headerValue')}
                          className="font-mono text-xs"
                          maxLength={1000}
                          spellCheck={false}
                          autoComplete="off"
                          value={row.value}
                          disabled={disabled}
                          onChange={(e) => setRow(index, { value: e.target.value })}
                          onBlur={onBlur}
                          data-testid="webhook-header-value"
                        />
                      </div>
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon-sm"
                        className="shrink-0 text-muted-foreground hover:text-destructive"
                        disabled={disabled}
                        aria-label={t('webhook.advanced.removeHeader', { name: row.name || index + 1 })}
                        onClick={() => set({ headers: value.headers.filter((_, i) => i !== index) })}
                        data-testid="webhook-header-remove"
                      >
                        <Trash2 />
                      </Button>
                    </div>
                    {errors.headers && errors.headers.row === index && <HeaderError id={ids.headersError} text={errors.headers.text} />}
                  </div>
                ))}
              </div>
            )}
            {errors.headers && errors.headers.row === -1 && <HeaderError id={ids.headersError} text={errors.headers.text} />}
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={disabled || value.headers.length >= MAX_HEADERS}
              onClick={() => set({ headers: [...value.headers, { name: '', value: '' }] })}
              data-testid="webhook-header-add"
            >
              <Plus />
              {t('webhook.advanced.addHeader')}
            </Button>
          </fieldset>
        </div>
      )}
    </div>
  );
}

function HeaderError({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} className="flex items-start gap-1.5 text-xs font-medium text-destructive" role="alert" data-testid="webhook-header-error">
      <XCircle className="mt-px size-3.5 shrink-0" aria-hidden />
      {text}
    </p>
  );
}
