import { ComponentType } from 'discord.js';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import type { RawDestination } from '../../server/destinations/validate.ts';
import { t } from '../../server/discord/i18n.ts';
import { unix } from '../../server/discord/message-text.ts';
import { AppError } from '../../server/errors.ts';
import { createReminder } from '../../server/reminders/service.ts';
import { checkInteractionChannelAccess, interactionChannelDestination } from '../access.ts';
import { FIELD_NOTE, FIELD_WHEN, FIELD_WHERE, MODAL_PREFIX } from '../commands/remind-message.ts';
import { takeDraft } from '../message-drafts.ts';
import { createdReminderText } from '../replies/created-reply.ts';
import { buildQuotedReminderText } from '../replies/message-quote.ts';
import { replyEphemeral } from '../replies/reply.ts';
import { readScheduleInput } from '../schedule-input.ts';
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

    const account = await ensureAccountForDiscordUser(app.db, interaction.user, locale, interaction.guildId);
    const now = Date.now();
    const parsed = readScheduleInput(when, null, account.timezone, locale, now);
    if (!parsed.ok) return replyEphemeral(interaction, parsed.text);

    let reminder;
    try {
      ({ reminder } = await createReminder(
        app,
        account.id,
        {
          message: buildQuotedReminderText(note, draft.message),
          date: parsed.date,
          time: parsed.time,
          timezone: account.timezone,
          recurrence: parsed.recurrence,
          rrule: parsed.rrule,
          destinations: [destination],
        },
        { nowMs: now },
      ));
    } catch (err) {
      if (err instanceof AppError && err.code === 'REMINDER_IN_PAST') {
        return replyEphemeral(interaction, t(locale, 'remind.past', { unix: unix(parsed.instantMs), examples: t(locale, 'remind.examples') }));
      }
      throw err;
    }
    const destinationText = destination.type === 'discord_dm' ? t(locale, 'remind.destinationDm') : t(locale, 'remind.destinationChannel', { channelId: draft.message.channelId });
    await replyEphemeral(interaction, await createdReminderText(app, account.id, locale, reminder, destinationText, now));
  },
};

export default modal;
