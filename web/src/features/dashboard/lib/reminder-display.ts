import type { Account, Destination, Recurrence, Reminder } from '@/lib/api/reminders';
import { RECURRENCES } from '@/lib/api/types';
import { compareStatus, reminderStatus } from '@/lib/reminder-status';
import { normalizeTimezone } from '@/lib/timezones';

/*
 * Small pure helpers shared by the dashboard list, the stat cards and the calendar.
 */

/** The account's zone, however it arrives (docs/dashboard.md "Forms", time zone lists). */
export const accountZone = (account: Account | undefined | null): string => normalizeTimezone(account?.timezone);

/** recurrence_type is case-insensitive; anything outside the 8 known presets is "unknown". */
export function recurrenceOf(reminder: Pick<Reminder, 'recurrence_type'>): Recurrence | null {
  const type = String(reminder.recurrence_type ?? 'ONCE').toUpperCase() || 'ONCE';
  return (RECURRENCES as readonly string[]).includes(type) ? (type as Recurrence) : null;
}

/** A reminder repeating by its own RFC 5545 rule (recurrence_type CUSTOM + rrule). */
export function isCustom(reminder: Pick<Reminder, 'recurrence_type'>): boolean {
  return String(reminder.recurrence_type ?? '').toUpperCase() === 'CUSTOM';
}

/** A reminder whose occurrences the server computes: every preset except ONCE, and custom rules. */
export function isRecurring(reminder: Pick<Reminder, 'recurrence_type'>): boolean {
  if (isCustom(reminder)) return true;
  const type = recurrenceOf(reminder);
  return type !== null && type !== 'ONCE';
}

/** Locale key of a preset's label (owned by the reminders namespace). */
export function recurrenceKey(reminder: Pick<Reminder, 'recurrence_type'>): string {
  const type = recurrenceOf(reminder);
  return type ? `reminders:recurrence.${type}` : 'reminders:recurrence.unknown';
}

/**
 * How the repetition reads: a custom rule in the server's words (`recurrence_text`, in the
 * language of the request), a preset by its label.
 */
export function recurrenceLabel(
  reminder: Pick<Reminder, 'recurrence_type' | 'recurrence_text' | 'rrule'>,
  t: (key: string) => string,
): string {
  if (isCustom(reminder)) return reminder.recurrence_text || reminder.rrule || t('reminders:recurrence.unknown');
  return t(recurrenceKey(reminder));
}

/** The instant shown for a reminder: the next firing (snooze included), else its anchor. */
export function displayInstant(reminder: Pick<Reminder, 'next_fire_utc' | 'remind_at_utc'>): string {
  return reminder.next_fire_utc ?? reminder.remind_at_utc;
}

/**
 * The instant the list shows: the next firing while there is one; for a completed reminder its
 * last firing (a finished series would otherwise show its first date), else its anchor.
 */
export function listInstant(reminder: Pick<Reminder, 'next_fire_utc' | 'remind_at_utc' | 'status' | 'last_fired_at'>): string {
  if (reminder.next_fire_utc) return reminder.next_fire_utc;
  if (reminderStatus(reminder) === 'completed' && reminder.last_fired_at) return reminder.last_fired_at;
  return reminder.remind_at_utc;
}

/** Every destination type, in the order the dashboard lists them. */
const DESTINATION_ORDER: readonly Destination['type'][] = ['discord_dm', 'discord_channel', 'webhook', 'email', 'ntfy', 'gotify', 'pushover', 'matrix', 'telegram', 'web_push'];

/** Destination kinds in display order, with how many of each the reminder has. */
export function destinationCounts(destinations: Pick<Destination, 'type'>[]): { type: Destination['type']; count: number }[] {
  return DESTINATION_ORDER
    .map((type) => ({ type, count: destinations.filter((d) => d.type === type).length }))
    .filter((entry) => entry.count > 0);
}

/** Upcoming first: active by next firing, then paused, then completed (most recent first). */
export function sortForList(reminders: Reminder[]): Reminder[] {
  return [...reminders].sort((a, b) => {
    const byStatus = compareStatus(a, b);
    if (byStatus !== 0) return byStatus;
    const ta = Date.parse(listInstant(a));
    const tb = Date.parse(listInstant(b));
    return reminderStatus(a) === 'completed' ? tb - ta : ta - tb;
  });
}
