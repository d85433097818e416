import { api, apiErrorFromResponse, idempotencyHeaders } from '@/lib/api-client';
import type { ImportPayload, ImportResult, TransferFormat } from '@/lib/api/types';
import { getToken } from '@/lib/session';

/** The account's calendar feed address (created on first call). */
export const getCalendarFeed = () => api.get<{ url: string }>('/api/account/calendar-feed');
export const rotateCalendarFeed = () => api.post<{ url: string }>('/api/account/calendar-feed/rotate');
export const disableCalendarFeed = () => api.delete<{ ok: boolean }>('/api/account/calendar-feed');

export type { ImportResult, TransferFormat };

export const importReminders = (body: ImportPayload, idempotencyKey?: string) =>
  api.post<ImportResult>('/api/reminders/import', body, { timeoutMs: 60_000, headers: idempotencyHeaders(idempotencyKey) });

/** The format of a picked file, by its extension; null when it is none Chime reads. */
export function formatOfFile(name: string): TransferFormat | null {
  const ext = name.toLowerCase().split('.').pop();
  return ext === 'json' || ext === 'csv' || ext === 'ics' ? ext : ext === 'ical' || ext === 'ifb' ? 'ics' : null;
}

/** Downloads the export as a file (the server names it chime-reminders-YYYY-MM-DD.<ext>). */
export async function downloadExport(format: TransferFormat): Promise<void> {
  const token = getToken();
  const res = await fetch(`/api/reminders/export?format=${format}`, { credentials: 'same-origin', headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw await apiErrorFromResponse(res);
  const name = /filename=([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1]?.trim() ?? `chime-reminders.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
