import { ComponentType } from 'discord.js';
import type { RawDestination } from '../../server/destinations/validate.ts';
import { t } from '../../server/discord/i18n.ts';
import { checkInteractionChannelAccess, interactionChannelDestination } from '../access.ts';
import { FIELD_NOTE, FIELD_WHEN, FIELD_WHERE, MODAL_PREFIX } from '../commands/remind-message.ts';
import { takeDraft } from '../message-drafts.ts';
import { createReminderFromWords } from '../replies/create-from-words.ts';
import { buildQuotedReminderText } from '../replies/message-quote.ts';
import { replyEphemeral } from '../replies/reply.ts';
import type { BotModal } from '../types.ts';

/**
 * The modal of "Remind me about this" (`remmsg:<command interaction id>`): reads the time like
 * /remind (same words, the account's zone, the user's language, same refusals), makes the reminder
 * with the quote of the message through the same service call, and answers with /remind's
 * confirmation.
 */
const modal: BotModal = {
  prefix: MODAL_PREFIX,
  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const draft = takeDraft(interaction.customId.slice(MODAL_PREFIX.length + 1), interaction.user.id);
    if (!draft) return replyEphemeral(interaction, t(locale, 'remindMessage.expired'));
    const when = interaction.fields.getTextInputValue(FIELD_WHEN);
    const note = interaction.fields.getTextInputValue(FIELD_NOTE);
    const whereField = interaction.fields.fields.get(FIELD_WHERE);
    const where = whereField?.type === ComponentType.StringSelect ? (whereField.values[0] ?? 'dm') : 'dm';

    let destination: RawDestination;
    if (where === 'channel') {
      if (!interaction.inGuild()) return replyEphemeral(interaction, t(locale, 'remind.channelOnlyInGuild'));
      const access = await checkInteractionChannelAccess(interaction, null);
      if (!access.ok) return replyEphemeral(interaction, t(locale, access.key, access.vars));
      destination = interactionChannelDestination(interaction, null);
    } else {
      destination = { type: 'discord_dm', metadata: {} };
    }

    const destinationText = destination.type === 'discord_dm' ? t(locale, 'remind.destinationDm') : t(locale, 'remind.destinationChannel', { channelId: draft.message.channelId });
    await createReminderFromWords(app, interaction, { message: buildQuotedReminderText(note, draft.message), when, repeat: null, destination, destinationText });
  },
};

export default modal;
