import { Download, FileUp, Upload } from 'lucide-react';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { mutate } from 'swr';
import { SecretDialog, type SecretEntry } from '@/components/secret-dialog';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { ApiError, errorMessage } from '@/lib/api-client';
import { remindersKey } from '@/lib/api/reminders';
import { useIdempotencyKey } from '@/lib/use-idempotency-key';
import { downloadExport, formatOfFile, importReminders, type ImportResult, type TransferFormat } from '../api/transfer-api';

const FORMATS: TransferFormat[] = ['json', 'csv', 'ics'];
/** The server refuses files over 1 MiB; say so before sending one. */
const MAX_FILE_BYTES = 1024 * 1024;

interface Pending {
  name: string;
  format: TransferFormat;
  content: string;
  check: ImportResult;
}

/** Download the account's reminders, or import a file: checked first (preview, per-row errors), then confirmed. */
export function ImportExportCard() {
  const { t, i18n } = useTranslation('portability');
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  // The imported webhooks' new signing secrets, shown once.
  const [secrets, setSecrets] = useState<SecretEntry[] | null>(null);
  const importKey = useIdempotencyKey();

  /** A file that cannot be read says why in the user's language; the parser's own words (where in the file) follow. */
  function showImportError(err: unknown) {
    const reason = err instanceof ApiError && err.code === 'IMPORT_FILE_INVALID' ? err.details.reason : undefined;
    if (typeof reason === 'string' && i18n.exists(`portability:import.fileErrors.${reason}`)) {
      const detail = err instanceof ApiError && typeof err.details.detail === 'string' ? err.details.detail : undefined;
      toast.error(t(`import.fileErrors.${reason}`), { description: detail });
    } else {
      toast.error(errorMessage(err, t('import.failed')));
    }
  }

  async function download(format: TransferFormat) {
    try {
      await downloadExport(format);
    } catch (err) {
      toast.error(errorMessage(err, t('export.failed')));
    }
  }

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const format = formatOfFile(file.name);
    if (!format) return void toast.error(t('import.unknownFormat'));
    if (file.size > MAX_FILE_BYTES) return void toast.error(t('import.tooLarge'));
    setBusy(true);
    try {
      const content = await file.text();
      const check = await importReminders({ format, content, dry_run: true, mode: 'valid_only' });
      setPending({ name: file.name, format, content, check });
    } catch (err) {
      setPending(null);
      showImportError(err);
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    try {
      const body = { format: pending.format, content: pending.content, dry_run: false, mode: 'valid_only' } as const;
      // Import pressed again after a failure reuses the key: the file is imported at most once.
      const result = await importReminders(body, importKey.keyFor(JSON.stringify(body)));
      importKey.settle();
      toast.success(t('import.done', { count: result.created }));
      setPending(null);
      if (result.secrets.length > 0) setSecrets(result.secrets.map((s) => ({ id: s.destination_id, url: s.url, secret: s.secret, reminder: s.message })));
      void mutate(remindersKey);
    } catch (err) {
      importKey.settle(err);
      showImportError(err);
    } finally {
      setBusy(false);
    }
  }

  const check = pending?.check;
  return (
    <Card className="gap-4" data-testid="import-export-card">
      <CardHeader>
        <CardHeading className="text-base">{t('title')}</CardHeading>
        <CardDescription>{t('description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium">{t('export.label')}</span>
          {FORMATS.map((format) => (
            <Button key={format} variant="outline" size="sm" onClick={() => void download(format)} data-testid={`export-${format}`}>
              <Download />
              {format.toUpperCase()}
            </Button>
          ))}
        </div>
        <div>
          <input ref={input} type="file" accept=".json,.csv,.ics,application/json,text/csv,text/calendar" className="sr-only" onChange={(e) => void pick(e)} data-testid="import-file" aria-label={t('import.choose')} tabIndex={-1} />
          <Button variant="outline" disabled={busy} onClick={() => input.current?.click()}>
            <FileUp />
            {t('import.choose')}
          </Button>
          <p className="mt-2 text-sm text-muted-foreground">{t('import.hint')}</p>
        </div>
        {pending && check && (
          <div className="space-y-3" data-testid="import-preview">
            <p className="text-sm">{t('import.summary', { name: pending.name, valid: check.valid, errors: check.errors.length })}</p>
            {check.errors.length > 0 && (
              <Alert variant="destructive" data-testid="import-errors">
                <ul className="space-y-1 text-sm">
                  {check.errors.slice(0, 50).map((e) => (
                    <li key={`${e.row}-${e.code}`}>
                      {t('import.rowError', { row: e.row, error: t(`common:errors.${e.code}`, { defaultValue: e.error }) })}
                    </li>
                  ))}
                  {check.errors.length > 50 && <li>{t('import.moreErrors', { count: check.errors.length - 50 })}</li>}
                </ul>
              </Alert>
            )}
            {check.preview.length > 0 && (
              <div className="overflow-x-auto rounded-md border" role="region" aria-label={t('import.previewLabel')} tabIndex={0}>
                <table className="w-full text-left text-sm">
                  <thead className="bg-muted/50">
                    <tr>
                      <th className="px-2 py-1 font-medium">{t('import.columns.row')}</th>
                      <th className="px-2 py-1 font-medium">{t('import.columns.message')}</th>
                      <th className="px-2 py-1 font-medium">{t('import.columns.when')}</th>
                      <th className="px-2 py-1 font-medium">{t('import.columns.repeat')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {check.preview.map((p) => (
                      <tr key={p.row} className="border-t">
                        <td className="px-2 py-1 tabular-nums">{p.row}</td>
                        <td className="max-w-64 truncate px-2 py-1">{p.message}</td>
                        <td className="px-2 py-1 whitespace-nowrap">
                          {p.date} {p.time} · {p.timezone}
                        </td>
                        <td className="px-2 py-1" title={p.rrule ?? undefined} data-testid="import-preview-repeat">
                          {p.recurrence_text}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {check.valid > check.preview.length && <p className="px-2 py-1 text-xs text-muted-foreground">{t('import.morePreview', { count: check.valid - check.preview.length })}</p>}
              </div>
            )}
            <div className="flex flex-wrap gap-2">
              <Button disabled={busy || check.valid === 0} onClick={() => void confirm()} data-testid="import-confirm">
                <Upload />
                {t('import.confirm', { count: check.valid })}
              </Button>
              <Button variant="outline" disabled={busy} onClick={() => setPending(null)}>
                {t('import.cancel')}
              </Button>
            </div>
          </div>
        )}
      </CardContent>
      <SecretDialog secrets={secrets} origin="imported" onClose={() => setSecrets(null)} />
    </Card>
  );
}
