import useSWR from 'swr';
import { api, idempotencyHeaders } from '@/lib/api-client';
import type { Account, Capabilities, Delivery, DeliveryProblem, DestinationCheck, DestinationInput, DestinationMetadata, Occurrences, Ok, Preview, Reminder, ScheduleFromText, ReminderPayload, Repetition, SnoozePayload, WebhookPlatform, WebhookTestResult } from './types';

/*
 * The reminders and account API (docs/architecture.md), shared by the dashboard, the wizard, the
 * details page and the account page: features never import each other, so the calls live here.
 * Request and response types come from the server's schemas (./types).
 */

export { RECURRENCES } from './types';
export type {
  Account,
  Capabilities,
  Delivery,
  DeliveryPage,
  DeliveryProblem,
  DestinationCheck,
  Destination,
  DestinationInput,
  DestinationMetadata,
  DestinationType,
  Occurrences,
  Ok,
  Preview,
  Recurrence,
  Reminder,
  ReminderPayload,
  Repetition,
  SnoozePayload,
  WebhookPlatform,
  WebhookTestResult,
} from './types';

export const remindersKey = '/api/reminders';
export const reminderKey = (id: string) => `/api/reminders/${id}`;
export const accountKey = '/api/account';
export const capabilitiesKey = '/api/account/capabilities';
export const deliveryErrorsKey = '/api/reminders/errors';

/**
 * Reminders fire and deliveries fail while a page stays open: what shows their status is fetched
 * again this often (while the tab is visible; on focus too, see app/providers.tsx).
 */
export const LIVE_REFRESH_MS = 30_000;
const live = { refreshInterval: LIVE_REFRESH_MS };

export const useReminders = () => useSWR<Reminder[]>(remindersKey, live);
export const useReminder = (id: string | null) => useSWR<Reminder>(id ? reminderKey(id) : null, live);
export const useAccount = () => useSWR<Account>(accountKey);
export const useCapabilities = () => useSWR<Capabilities>(capabilitiesKey);
export const useDeliveryErrors = () => useSWR<DeliveryProblem[]>(deliveryErrorsKey, live);

/** A reminder's deliveries, newest first; `before` is the previous page's next_cursor. */
export const deliveriesKey = (id: string, before?: string | null) => `/api/reminders/${id}/deliveries${before ? `?before=${encodeURIComponent(before)}` : ''}`;
export const resendDelivery = (reminderId: string, deliveryId: string, idempotencyKey?: string) =>
  api.post<Delivery>(`/api/reminders/${reminderId}/deliveries/${deliveryId}/resend`, {}, { headers: idempotencyHeaders(idempotencyKey) });
export const dismissDeliveryProblem = (deliveryId: string) => api.post<Ok>(`/api/reminders/errors/${deliveryId}/dismiss`);
export const enableDestination = (reminderId: string, destinationId: string) => api.post<Ok>(`/api/reminders/${reminderId}/destinations/${destinationId}/enable`);
/**
 * Runs the checks a create would run on one destination (the wizard, when it is added). With
 * `reminderId`, a saved destination (its `id`) being edited: a token left out is checked as the stored one.
 */
export const checkDestination = (destination: Pick<DestinationInput, 'id' | 'type' | 'metadata'>, reminderId?: string) =>
  api.post<DestinationCheck>('/api/destinations/check', {
    type: destination.type,
    metadata: destination.metadata,
    ...(reminderId && destination.id ? { reminder_id: reminderId, id: destination.id } : {}),
  });

/** `idempotencyKey`: the same key on a retry makes the server create it at most once (use-idempotency-key.ts). */
export const createReminder = (payload: ReminderPayload, idempotencyKey?: string) =>
  api.post<Reminder>('/api/reminders', payload, { headers: idempotencyHeaders(idempotencyKey) });
/**
 * The zone is required here although the server accepts a body without one (it then keeps the
 * reminder's own zone): the form always sends the zone the user sees next to the date and time.
 */
export const updateReminder = (id: string, payload: ReminderPayload & { timezone: string }) => api.put<Reminder>(`/api/reminders/${id}`, payload);
export const deleteReminder = (id: string) => api.delete<Ok>(`/api/reminders/${id}`);
export const pauseReminder = (id: string) => api.post<Reminder>(`/api/reminders/${id}/pause`);
export const resumeReminder = (id: string) => api.post<Reminder>(`/api/reminders/${id}/resume`);
/** The signing secrets a create or a duplicate just issued (the answer is the only place they appear). */
export const newSecrets = (reminder: Reminder) =>
  reminder.destinations.filter((d) => d.type === 'webhook' && d.secret).map((d) => ({ id: d.id, url: d.metadata.url, secret: d.secret as string }));
export const duplicateReminder = (id: string, idempotencyKey?: string) => api.post<Reminder>(`/api/reminders/${id}/duplicate`, {}, { headers: idempotencyHeaders(idempotencyKey) });
export const snoozeReminder = (id: string, minutes: number) => api.post<Reminder>(`/api/reminders/${id}/snooze`, { minutes } satisfies SnoozePayload);

/** Next occurrences of a draft and its repetition in words (wizard, edit form). */
export function previewOccurrences(draft: { date: string; time: string; recurrence: Repetition; rrule?: string | null | undefined; timezone?: string | undefined }, count = 5) {
  const q = new URLSearchParams({ date: draft.date, time: draft.time, recurrence: draft.recurrence, count: String(count) });
  if (draft.rrule) q.set('rrule', draft.rrule);
  if (draft.timezone) q.set('timezone', draft.timezone);
  return api.get<Preview>(`/api/reminders/preview?${q}`);
}

/** A schedule typed in words ("every monday at 9"), read by the server in the account's zone and language. */
export const readScheduleText = (text: string) => api.get<ScheduleFromText>(`/api/reminders/schedule-from-text?${new URLSearchParams({ text })}`);

/** Skip one occurrence of a series, or restore it. */
export const skipOccurrence = (id: string, occurrence: string) => api.post<Reminder>(`/api/reminders/${id}/skip`, { occurrence });
export const restoreOccurrence = (id: string, occurrence: string) => api.delete<Reminder>(`/api/reminders/${id}/skip/${encodeURIComponent(occurrence)}`);

/** Next occurrences of a saved reminder, or all occurrences in [from, to) for the calendar. */
export function reminderOccurrences(id: string, range?: { from: string; to: string }, count = 5) {
  const q = range ? new URLSearchParams(range) : new URLSearchParams({ count: String(count) });
  return api.get<Occurrences>(`/api/reminders/${id}/occurrences?${q}`);
}

export const testWebhook = (target: { url: string; platform: WebhookPlatform; username?: string; secret?: string } & Partial<Pick<DestinationMetadata, 'body_template' | 'body_format' | 'headers'>>) =>
  api.post<WebhookTestResult>('/api/webhooks/test', target);
export const testDestination = (reminderId: string, destinationId: string) =>
  api.post<WebhookTestResult>(`/api/reminders/${reminderId}/destinations/${destinationId}/test`);
export const rotateDestinationSecret = (reminderId: string, destinationId: string) =>
  api.post<{ secret: string }>(`/api/reminders/${reminderId}/destinations/${destinationId}/rotate-secret`);

// Account.
export const updateTimezone = (timezone: string) => api.put<Account>('/api/account/timezone', { timezone });
/** The language of the account's mails and bot messages (the dashboard keeps its own copy in local storage). */
export const updateLanguage = (language: string) => api.put<Account>('/api/account/language', { language });
export const updateUsername = (username: string) => api.put<Account>('/api/account/identity/app/username', { username });
export const updateEmail = (email: string) => api.put<Account>('/api/account/identity/app/email', { email });
export const changePassword = (current_password: string, new_password: string) =>
  api.post<Ok>('/api/account/identity/app/change-password', { current_password, new_password });
export const deleteAccount = () => api.delete<Ok>('/api/account');

// Discord (server picker). The body carries account_id, which the server ignores: the session decides.
export interface Guild { id: string; name: string; icon: string | null; bot_present: boolean }
/**
 * `bot_can_send` false: the picker shows it disabled with `reason` (DISCORD_CANNOT_POST...);
 * `bot_can_mention` false: only mentionable roles are pinged there. A thread names its channel
 * (`parent_id`, listed right after it); a forum lists its tags and whether a post needs one.
 */
export interface Channel {
  id: string;
  name: string;
  type: number;
  bot_can_send?: boolean;
  bot_can_mention?: boolean;
  reason?: string | null;
  parent_id?: string;
  /** An archived thread (listed on demand): the bot reopens it before each post. */
  archived?: boolean;
  tags?: Array<{ id: string; name: string; moderated: boolean }>;
  require_tag?: boolean;
}
export interface Role { id: string; name: string; color: number; managed: boolean }
export const listGuilds = (account_id: string) => api.post<Guild[]>('/api/discord/guilds', { account_id });
export const listChannels = (account_id: string, guild_id: string) => api.post<Channel[]>('/api/discord/guilds/channels', { account_id, guild_id });
/** A page of one channel's archived threads (the picker's "Show archived threads"); `next_cursor` asks for the next page. */
export interface ArchivedThreadsPage { threads: Channel[]; next_cursor: string | null }
export const listArchivedThreads = (account_id: string, guild_id: string, channel_id: string, cursor?: string | null) =>
  api.post<ArchivedThreadsPage>('/api/discord/guilds/threads/archived', { account_id, guild_id, channel_id, ...(cursor ? { cursor } : {}) });
export const listRoles = (account_id: string, guild_id: string) => api.post<Role[]>('/api/discord/guilds/roles', { account_id, guild_id });
export const botInviteUrl = (guild_id: string) => api.get<{ url: string }>(`/api/discord/invite-url?guild_id=${encodeURIComponent(guild_id)}`);
