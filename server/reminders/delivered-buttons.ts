/**
 * The buttons under a reminder delivered to Discord: Snooze 10 min, Snooze 1 h, Tomorrow and Done
 * (docs/dashboard.md "What it does"). In a channel everybody sees them; only the reminder's owner may use them.
 * The bot's button handler calls `pressDeliveredButton` and only translates the result.
 */
import { findAccountForDiscordUser } from '../accounts/discord-accounts.ts';
import { findReminderById } from '../repositories/reminders.ts';
import { wallClockToInstant, zonedParts } from '../time/zoned.ts';
import { snoozeReminder } from './lifecycle.ts';
import type { ReminderDeps } from './service.ts';
import { cancelPendingSnooze } from './snooze-cancel.ts';

export type DeliveredAction = 'snooze10' | 'snooze60' | 'tomorrow' | 'done';

export type DeliveredButtonResult =
  /** The reminder was deleted since the message was sent. */
  | { kind: 'gone' }
  /** Someone else pressed it. */
  | { kind: 'not-owner' }
  /** Done: nothing comes back for this message (a pending snooze of it is cancelled). */
  | { kind: 'done'; snoozeCancelled: boolean }
  | { kind: 'snoozed'; nextFireUtc: string };

export interface DeliveredButtonPress {
  discordUserId: string;
  reminderId: string;
  action: DeliveredAction;
  /** The occurrence the message delivered, when the button carries it (Tomorrow). */
  occurrenceMs: number | null;
  /** When the message was sent: older Tomorrow buttons carry no occurrence. */
  messageSentMs: number;
}

const DAY = 86_400_000;

export async function pressDeliveredButton(deps: ReminderDeps, press: DeliveredButtonPress, nowMs = Date.now()): Promise<DeliveredButtonResult> {
  const reminder = await findReminderById(deps.db, press.reminderId);
  if (!reminder) return { kind: 'gone' };
  const account = await findAccountForDiscordUser(deps.db, press.discordUserId);
  if (!account || account.id !== reminder.account_id) return { kind: 'not-owner' };
  return applyDeliveredAction(deps, { accountId: account.id, reminderId: reminder.id, timezone: reminder.timezone }, press, nowMs);
}

/**
 * What one of the actions under a delivered reminder does, once its caller has established that
 * `owner` is the reminder's account: the Discord buttons (owner checked against the presser) and
 * the action links of phone and chat notifications (server/reminders/action-links.ts: the signed
 * token names the reminder).
 */
export async function applyDeliveredAction(
  deps: ReminderDeps,
  owner: { accountId: string; reminderId: string; timezone: string },
  press: Pick<DeliveredButtonPress, 'action' | 'occurrenceMs' | 'messageSentMs'>,
  nowMs = Date.now(),
): Promise<Exclude<DeliveredButtonResult, { kind: 'gone' } | { kind: 'not-owner' }>> {
  if (press.action === 'done') {
    // A one-off is already completed once delivered; for a recurring one "done" is about this
    // message (and a snooze of it still pending: it must not come back).
    return { kind: 'done', snoozeCancelled: await cancelPendingSnooze(deps, owner.accountId, owner.reminderId, nowMs) };
  }
  let at: number;
  if (press.action === 'snooze10') at = nowMs + 10 * 60_000;
  else if (press.action === 'snooze60') at = nowMs + 60 * 60_000;
  else {
    // "Tomorrow, same time": the wall-clock time of the occurrence this message delivered (older
    // messages: the minute the message arrived), a day later.
    const occurrence = press.occurrenceMs;
    const base = occurrence !== null && Number.isSafeInteger(occurrence) && occurrence > 0 ? occurrence : Math.floor(press.messageSentMs / 60_000) * 60_000;
    at = sameTimeNextDay(base, owner.timezone, nowMs);
  }
  const updated = await snoozeReminder(deps, owner.accountId, owner.reminderId, { atMs: at }, nowMs);
  return { kind: 'snoozed', nextFireUtc: updated.next_fire_utc! };
}

/**
 * The same wall-clock time (seconds included) as `baseMs`, one calendar day later in the zone: 23 or
 * 25 hours later across a DST change. When that is not after `afterMs` (a late delivery pressed
 * the next day), the first later day at that wall-clock time.
 */
export function sameTimeNextDay(baseMs: number, timeZone: string, afterMs = Number.NEGATIVE_INFINITY): number {
  const p = zonedParts(baseMs, timeZone);
  let day = Date.UTC(p.year, p.month - 1, p.day + 1);
  if (Number.isFinite(afterMs)) {
    const n = zonedParts(afterMs, timeZone);
    day = Math.max(day, Date.UTC(n.year, n.month - 1, n.day));
  }
  for (let i = 0; i < 3; i++, day += DAY) {
    const d = new Date(day);
    const at = wallClockToInstant(
      { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: p.hour, minute: p.minute, second: p.second },
      timeZone,
    );
    if (at > afterMs) return at;
  }
  return afterMs + DAY;
}
