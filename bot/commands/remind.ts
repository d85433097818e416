import { SlashCommandBuilder, type APIRole, type Role } from 'discord.js';
import type { RawDestination } from '../../server/destinations/validate.ts';
import { AppError } from '../../server/errors.ts';
import { RECURRENCES } from '../../server/reminders/input.ts';
import { createReminder } from '../../server/reminders/service.ts';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { checkInteractionChannelAccess, interactionChannelDestination } from '../access.ts';
import { CONTEXTS, INTEGRATION_TYPES, localized, localizedChoice } from '../replies/command-text.ts';
import { RECURRENCE_KEYS } from '../replies/format.ts';
import { createdReminderText } from '../replies/created-reply.ts';
import { unix } from '../../server/discord/message-text.ts';
import { t } from '../../server/discord/i18n.ts';
import { readScheduleInput } from '../schedule-input.ts';
import { replyEphemeral } from '../replies/reply.ts';
import type { BotCommand } from '../types.ts';

const data = localized(new SlashCommandBuilder(), 'commands.remind.name', 'commands.remind.description')
  .setIntegrationTypes(...INTEGRATION_TYPES)
  .setContexts(...CONTEXTS)
  .addStringOption((o) =>
    localized(o, 'commands.remind.options.message.name', 'commands.remind.options.message.description').setRequired(true).setMaxLength(2000),
  )
  .addStringOption((o) => localized(o, 'commands.remind.options.when.name', 'commands.remind.options.when.description').setRequired(true).setMaxLength(200))
  .addStringOption((o) =>
    localized(o, 'commands.remind.options.repeat.name', 'commands.remind.options.repeat.description').addChoices(
      ...RECURRENCES.map((r) => localizedChoice(RECURRENCE_KEYS[r], r)),
    ),
  )
  .addStringOption((o) =>
    localized(o, 'commands.remind.options.where.name', 'commands.remind.options.where.description').addChoices(
      localizedChoice('choices.where.dm', 'dm'),
      localizedChoice('choices.where.channel', 'channel'),
    ),
  )
  .addRoleOption((o) => localized(o, 'commands.remind.options.role.name', 'commands.remind.options.role.description'));

const command: BotCommand = {
  data,
  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const message = interaction.options.getString('message', true);
    const when = interaction.options.getString('when', true);
    const repeatOption = interaction.options.getString('repeat');
    const role = interaction.options.getRole('role') as Role | APIRole | null;
    const where = interaction.options.getString('where') ?? (role ? 'channel' : 'dm');

    let destination: RawDestination;
    if (where === 'channel') {
      if (!interaction.inGuild()) return replyEphemeral(interaction, t(locale, 'remind.channelOnlyInGuild'));
      const access = await checkInteractionChannelAccess(interaction, role ? { id: role.id, mentionable: role.mentionable } : null);
      if (!access.ok) return replyEphemeral(interaction, t(locale, access.key, access.vars));
      destination = interactionChannelDestination(interaction, role);
    } else {
      if (role) return replyEphemeral(interaction, t(locale, 'remind.roleNeedsChannel'));
      destination = { type: 'discord_dm', metadata: {} };
    }

    const account = await ensureAccountForDiscordUser(app.db, interaction.user, locale, interaction.guildId);
    const examples = t(locale, 'remind.examples');
    const now = Date.now();
    const parsed = readScheduleInput(when, repeatOption, account.timezone, locale, now);
    if (!parsed.ok) return replyEphemeral(interaction, parsed.text);

    // The same call, rules and error codes as POST /api/reminders.
    let reminder;
    try {
      ({ reminder } = await createReminder(
        app,
        account.id,
        { message, date: parsed.date, time: parsed.time, timezone: account.timezone, recurrence: parsed.recurrence, rrule: parsed.rrule, destinations: [destination] },
        { nowMs: now },
      ));
    } catch (err) {
      if (err instanceof AppError && err.code === 'REMINDER_IN_PAST') return replyEphemeral(interaction, t(locale, 'remind.past', { unix: unix(parsed.instantMs), examples }));
      throw err;
    }
    const destinationText =
      destination.type === 'discord_dm'
        ? t(locale, 'remind.destinationDm')
        : role && role.id === interaction.guildId
          ? t(locale, 'remind.destinationChannelEveryone', { channelId: interaction.channelId })
          : role
            ? t(locale, 'remind.destinationChannelRole', { channelId: interaction.channelId, roleId: role.id })
          : t(locale, 'remind.destinationChannel', { channelId: interaction.channelId });
    await replyEphemeral(interaction, await createdReminderText(app, account.id, locale, reminder, destinationText, now));
  },
};

export default command;
