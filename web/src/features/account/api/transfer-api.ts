import { api, apiErrorFromResponse } from '@/lib/api-client';
import { getToken } from '@/lib/session';

/** The account's calendar feed address (created on first call). */
export const getCalendarFeed = () => api.get<{ url: string }>('/api/account/calendar-feed');
export const rotateCalendarFeed = () => api.post<{ url: string }>('/api/account/calendar-feed/rotate');
export const disableCalendarFeed = () => api.delete<{ ok: boolean }>('/api/account/calendar-feed');

export type TransferFormat = 'json' | 'csv' | 'ics';

export interface ImportPreviewRow {
  row: number;
  message: string;
  date: string;
  time: string;
  timezone: string;
  recurrence: string;
  rrule: string | null;
  exceptions: string[];
  paused: boolean;
  destinations: Array<{ type: string; metadata: Record<string, unknown> }>;
  next_fire_utc: string | null;
}

export interface ImportResult {
  valid: number;
  created: number;
  errors: Array<{ row: number; code: string; error: string }>;
  preview: ImportPreviewRow[];
}

export const importReminders = (body: { format: TransferFormat; content: string; dry_run: boolean; mode: 'all_or_nothing' | 'valid_only' }) =>
  api.post<ImportResult>('/api/reminders/import', body, { timeoutMs: 60_000 });

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
