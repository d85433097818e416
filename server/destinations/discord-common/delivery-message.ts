import { ActionRowBuilder, AllowedMentionsTypes, ButtonBuilder, ButtonStyle, type RESTPostAPIChannelMessageJSONBody } from 'discord.js';
import { t } from '../../discord/i18n.ts';
import { inertEveryone, truncate, unix } from '../../discord/message-text.ts';
import type { DeliveredAction } from '../../reminders/delivered-buttons.ts';

export const MAX_CONTENT = 2000;

/** What the buttons under a delivered reminder do: server/reminders/delivered-buttons.ts. */
export type ReminderAction = DeliveredAction;
const LABELS: Record<ReminderAction, string> = {
  snooze10: 'delivery.snooze10',
  snooze60: 'delivery.snooze60',
  tomorrow: 'delivery.tomorrow',
  done: 'delivery.done',
};
export const REMINDER_ACTIONS = Object.keys(LABELS) as ReminderAction[];

/**
 * `rem:<action>:<reminderId>`; "Tomorrow" also carries the occurrence the message delivers (epoch
 * ms): tomorrow means that occurrence's wall-clock time, not the time the message happened to arrive.
 */
export const actionCustomId = (action: ReminderAction, reminderId: string, occurrenceMs?: number | null) =>
  `rem:${action}:${reminderId}${action === 'tomorrow' && occurrenceMs != null && Number.isFinite(occurrenceMs) ? `:${Math.trunc(occurrenceMs)}` : ''}`;

export function reminderButtons(reminderId: string, locale: string | null | undefined, occurrenceMs?: number | null) {
  const button = (action: ReminderAction, style: ButtonStyle, emoji: string) =>
    new ButtonBuilder().setCustomId(actionCustomId(action, reminderId, occurrenceMs)).setLabel(t(locale, LABELS[action])).setStyle(style).setEmoji(emoji);
  return new ActionRowBuilder<ButtonBuilder>()
    .addComponents(
      button('snooze10', ButtonStyle.Secondary, '💤'),
      button('snooze60', ButtonStyle.Secondary, '💤'),
      button('tomorrow', ButtonStyle.Secondary, '📅'),
      button('done', ButtonStyle.Success, '✅'),
    )
    .toJSON();
}

/**
 * "Remind me too" under a channel delivery, "Stop reminding me" under a subscriber's DM, and the
 * Stop buttons of the bot's /reminders list: `rtoo:<join|stop|unfollow>:<reminderId>`.
 */
export const REMIND_TOO_PREFIX = 'rtoo';
export type RemindTooAction = 'join' | 'stop' | 'unfollow';
export const remindTooCustomId = (action: RemindTooAction, reminderId: string) => `${REMIND_TOO_PREFIX}:${action}:${reminderId}`;

function remindTooRow(action: RemindTooAction, reminderId: string, locale: string | null | undefined) {
  const button =
    action === 'join'
      ? new ButtonBuilder().setCustomId(remindTooCustomId('join', reminderId)).setLabel(t(locale, 'remindToo.join')).setStyle(ButtonStyle.Primary).setEmoji('🔔')
      : new ButtonBuilder().setCustomId(remindTooCustomId('stop', reminderId)).setLabel(t(locale, 'remindToo.stop')).setStyle(ButtonStyle.Secondary).setEmoji('🔕');
  return new ActionRowBuilder<ButtonBuilder>().addComponents(button).toJSON();
}

export interface DeliveryMessageInput {
  reminderId: string;
  message: string;
  /** Account locale: the header and buttons are in the owner's language. */
  locale: string | null | undefined;
  roleId?: string | null;
  /** Ping @everyone (a channel destination whose role is the guild's own, already allowed by its checks). */
  everyone?: boolean;
  /**
   * Show the mention without letting it ping (a test send): the channel sees who the reminder will
   * call, and nobody is called for a test.
   */
  quiet?: boolean;
  /** An alert before the occurrence at this instant: the header says how soon (`<t:…:R>`), no buttons. */
  alertOccurrenceMs?: number | null;
  /** The scheduled occurrence when the delivery is late (shown as a note). */
  lateOccurrenceMs?: number | null;
  /** The occurrence this message delivers (the "Tomorrow" button keeps its wall-clock time). */
  occurrenceMs?: number | null;
  nonce: string;
  /** False for test sends ("does this destination work?"): there is no reminder to act on. */
  buttons?: boolean;
  /** A channel delivery whose creator offers "Remind me too": a second row with that button. */
  remindMeToo?: boolean;
  /** A subscriber's DM: only "Stop reminding me" (the owner's buttons are not theirs to press). */
  subscriber?: boolean;
}

/**
 * `<@&role> ⏰ Reminder\n<message>` (or `@everyone ⏰ Reminder\n<message>`) cut to Discord's 2000
 * characters. allowed_mentions only ever lets the chosen role, or @everyone when it is the
 * destination's choice, ping: never users, roles or @everyone/@here typed in the message.
 */
export function buildDeliveryMessage(input: DeliveryMessageInput): RESTPostAPIChannelMessageJSONBody {
  const mention = input.everyone ? (input.quiet ? '@\u200beveryone ' : '@everyone ') : input.roleId ? `<@&${input.roleId}> ` : '';
  const head = `${mention}${input.alertOccurrenceMs ? t(input.locale, 'delivery.alert', { unix: unix(input.alertOccurrenceMs) }) : t(input.locale, 'delivery.header')}\n`;
  const tail = input.lateOccurrenceMs ? `\n${t(input.locale, 'delivery.late', { unix: unix(input.lateOccurrenceMs) })}` : '';
  const room = Math.max(MAX_CONTENT - head.length - tail.length, 1);
  const message = input.everyone ? inertEveryone(input.message) : input.message;
  const content = truncate(`${head}${truncate(message, room)}${tail}`, MAX_CONTENT);
  return {
    content,
    allowed_mentions: input.quiet ? { parse: [] } : input.everyone ? { parse: [AllowedMentionsTypes.Everyone] } : input.roleId ? { parse: [], roles: [input.roleId] } : { parse: [] },
    components: componentsOf(input),
    nonce: input.nonce.slice(0, 25),
    enforce_nonce: true,
  };
}

function componentsOf(input: DeliveryMessageInput) {
  // An alert's buttons would act on an occurrence that has not come yet.
  if (input.buttons === false || input.alertOccurrenceMs) return [];
  if (input.subscriber) return [remindTooRow('stop', input.reminderId, input.locale)];
  const rows = [reminderButtons(input.reminderId, input.locale, input.occurrenceMs)];
  if (input.remindMeToo) rows.push(remindTooRow('join', input.reminderId, input.locale));
  return rows;
}
