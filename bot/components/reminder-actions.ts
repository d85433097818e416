import { pressDeliveredButton } from '../../server/reminders/delivered-buttons.ts';
import { REMINDER_ACTIONS, type ReminderAction } from '../../server/destinations/discord-common/delivery-message.ts';
import { unix } from '../../server/discord/message-text.ts';
import { t } from '../../server/discord/i18n.ts';
import { replyEphemeral, updateMessage } from '../replies/reply.ts';
import type { BotComponent } from '../types.ts';

/** Buttons under a delivered reminder: `rem:<action>:<reminderId>[:<occurrence ms>]`. */
const component: BotComponent = {
  prefix: 'rem',
  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const [, rawAction, reminderId = '', rawOccurrence] = interaction.customId.split(':');
    const action = rawAction as ReminderAction;
    if (!REMINDER_ACTIONS.includes(action)) return replyEphemeral(interaction, t(locale, 'errors.generic'));
    const result = await pressDeliveredButton(app, {
      discordUserId: interaction.user.id,
      reminderId,
      action,
      occurrenceMs: rawOccurrence ? Number(rawOccurrence) : null,
      messageSentMs: interaction.message.createdTimestamp,
    });
    if (result.kind === 'gone') return replyEphemeral(interaction, t(locale, 'delivery.gone'));
    if (result.kind === 'not-owner') return replyEphemeral(interaction, t(locale, 'delivery.notOwner'));
    if (result.kind === 'done') {
      // The buttons go away.
      await updateMessage(interaction, { components: [] });
      if (result.snoozeCancelled) await replyEphemeral(interaction, t(locale, 'delivery.snoozeCancelled'));
      return;
    }
    await replyEphemeral(interaction, t(locale, 'delivery.snoozed', { unix: unix(Date.parse(result.nextFireUtc)) }));
  },
};

export default component;
