import { SlashCommandBuilder, type APIRole, type Role } from 'discord.js';
import type { RawDestination } from '../../server/destinations/validate.ts';
import { AppError } from '../../server/errors.ts';
import { RECURRENCES } from '../../server/reminders/input.ts';
import { listOccurrences } from '../../server/reminders/occurrences.ts';
import { createReminder } from '../../server/reminders/service.ts';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { checkInteractionChannelAccess } from '../access.ts';
import { CONTEXTS, INTEGRATION_TYPES, localized, localizedChoice } from '../replies/command-text.ts';
import { RECURRENCE_KEYS, recurrenceLabel } from '../replies/format.ts';
import { truncate, unix } from '../../server/discord/message-text.ts';
import { reminderPageUrl } from '../../server/lib/reminder-page-url.ts';
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
      destination = {
        type: 'discord_channel',
        metadata: {
          guild_id: interaction.guildId,
          channel_id: interaction.channelId,
          ...(role ? { mention_role_id: role.id, mention_role_name: role.name } : {}),
          // Display names for the dashboard, as the API records them for destinations it saves.
          ...(interaction.guild ? { guild_name: interaction.guild.name } : {}),
          ...(interaction.channel && 'name' in interaction.channel && interaction.channel.name ? { channel_name: interaction.channel.name } : {}),
        },
      };
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
    const fireMs = Date.parse(reminder.next_fire_utc ?? reminder.remind_at_utc);
    const destinationText =
      destination.type === 'discord_dm'
        ? t(locale, 'remind.destinationDm')
        : role
          ? t(locale, 'remind.destinationChannelRole', { channelId: interaction.channelId, roleId: role.id })
          : t(locale, 'remind.destinationChannel', { channelId: interaction.channelId });
    // A repeating reminder shows its next occurrences, so the rule can be checked at a glance.
    const next = reminder.recurrence_type === 'ONCE' ? [] : await listOccurrences(app, account.id, reminder.id, { count: 3 }, now);
    const top = [
      t(locale, 'remind.created', { unix: unix(fireMs) }),
      t(locale, 'remind.repeats', { recurrence: recurrenceLabel(locale, reminder) }),
      ...(next.length > 1 ? [t(locale, 'remind.next', { list: next.map((iso) => `<t:${unix(Date.parse(iso))}:f>`).join(', ') })] : []),
      t(locale, 'remind.where', { destination: destinationText }),
    ].join('\n');
    const link = t(locale, 'remind.link', { url: reminderPageUrl(app.config.publicUrl, reminder.id) });
    // The echo of the message is what gets shortened when the whole reply would exceed 2000.
    const room = 2000 - top.length - link.length - t(locale, 'remind.message', { message: '' }).length - 2;
    const echo = t(locale, 'remind.message', { message: truncate(reminder.message, Math.max(room, 10)) });
    await replyEphemeral(interaction, `${top}\n${echo}\n${link}`);
  },
};

export default command;
