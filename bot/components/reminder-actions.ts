import { findReminderById } from '../../server/repositories/reminders.ts';
import { snoozeReminder } from '../../server/reminders/lifecycle.ts';
import { cancelPendingSnooze } from '../../server/reminders/snooze-cancel.ts';
import { wallClockToInstant, zonedParts } from '../../server/time/zoned.ts';
import { findAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { REMINDER_ACTIONS, type ReminderAction } from '../delivery-message.ts';
import { unix } from '../format.ts';
import { t } from '../i18n.ts';
import { replyEphemeral, updateMessage } from '../reply.ts';
import type { BotComponent } from '../types.ts';

const DAY = 86_400_000;

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

/**
 * Buttons under a delivered reminder: `rem:<action>:<reminderId>`. Only the reminder's owner may
 * use them (in a channel everybody sees them).
 */
const component: BotComponent = {
  prefix: 'rem',
  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const [, rawAction, reminderId = '', rawOccurrence] = interaction.customId.split(':');
    const action = rawAction as ReminderAction;
    if (!REMINDER_ACTIONS.includes(action)) return replyEphemeral(interaction, t(locale, 'errors.generic'));
    const reminder = await findReminderById(app.db, reminderId);
    if (!reminder) return replyEphemeral(interaction, t(locale, 'delivery.gone'));
    const account = await findAccountForDiscordUser(app.db, interaction.user.id);
    if (!account || account.id !== reminder.account_id) return replyEphemeral(interaction, t(locale, 'delivery.notOwner'));

    if (action === 'done') {
      // A one-off is already completed once delivered; for a recurring one "done" is about this
      // message (and a snooze of it still pending: it must not come back). The buttons go away.
      const cancelled = await cancelPendingSnooze(app, account.id, reminder.id);
      await updateMessage(interaction, { components: [] });
      if (cancelled) await replyEphemeral(interaction, t(locale, 'delivery.snoozeCancelled'));
      return;
    }
    const now = Date.now();
    let at: number;
    if (action === 'snooze10') at = now + 10 * 60_000;
    else if (action === 'snooze60') at = now + 60 * 60_000;
    else {
      // "Tomorrow, same time": the wall-clock time of the occurrence this message delivered (in
      // the button since it was sent; older messages: the minute the message arrived), a day later.
      const occurrence = rawOccurrence ? Number(rawOccurrence) : NaN;
      const base = Number.isSafeInteger(occurrence) && occurrence > 0 ? occurrence : Math.floor(interaction.message.createdTimestamp / 60_000) * 60_000;
      at = sameTimeNextDay(base, reminder.timezone, now);
    }
    const updated = await snoozeReminder(app, account.id, reminder.id, { atMs: at }, now);
    await replyEphemeral(interaction, t(locale, 'delivery.snoozed', { unix: unix(Date.parse(updated.next_fire_utc!)) }));
  },
};

export default component;
