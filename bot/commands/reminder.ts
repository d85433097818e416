import { SlashCommandBuilder, type SlashCommandSubcommandBuilder } from 'discord.js';
import { reminderChoices, type ReminderAct } from '../../server/reminders/listings.ts';
import { RECURRENCES } from '../../server/reminders/input.ts';
import { pauseReminder, removeReminder, resumeReminder, snoozeReminder } from '../../server/reminders/lifecycle.ts';
import { editReminder, getReminder } from '../../server/reminders/service.ts';
import { skipNextOccurrence } from '../../server/reminders/skip.ts';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { CONTEXTS, INTEGRATION_TYPES, localized, localizedChoice } from '../replies/command-text.ts';
import { formatInZone, RECURRENCE_KEYS, recurrenceLabel } from '../replies/format.ts';
import { oneLine, truncate, unix } from '../../server/discord/message-text.ts';
import { t } from '../../server/discord/i18n.ts';
import { replyEphemeral } from '../replies/reply.ts';
import { readScheduleInput } from '../schedule-input.ts';
import type { BotCommand } from '../types.ts';

/** Snooze lengths offered by /reminder snooze, in minutes, with their label keys. */
export const SNOOZE_CHOICES = {
  5: 'choices.snooze.5',
  10: 'choices.snooze.10',
  30: 'choices.snooze.30',
  60: 'choices.snooze.60',
  180: 'choices.snooze.180',
  1440: 'choices.snooze.1440',
} as const;
const DEFAULT_SNOOZE_MINUTES = 10;

type Sub = ReminderAct;

const withReminderOption = (s: SlashCommandSubcommandBuilder) =>
  s.addStringOption((o) =>
    localized(o, 'commands.reminder.options.reminder.name', 'commands.reminder.options.reminder.description')
      .setRequired(true)
      .setAutocomplete(true)
      .setMaxLength(100),
  );

const data = localized(new SlashCommandBuilder(), 'commands.reminder.name', 'commands.reminder.description')
  .setIntegrationTypes(...INTEGRATION_TYPES)
  .setContexts(...CONTEXTS)
  .addSubcommand((s) =>
    withReminderOption(localized(s, 'commands.reminder.subcommands.edit.name', 'commands.reminder.subcommands.edit.description'))
      .addStringOption((o) => localized(o, 'commands.reminder.options.message.name', 'commands.reminder.options.message.description').setMaxLength(2000))
      .addStringOption((o) => localized(o, 'commands.reminder.options.when.name', 'commands.reminder.options.when.description').setMaxLength(200))
      .addStringOption((o) =>
        localized(o, 'commands.reminder.options.repeat.name', 'commands.reminder.options.repeat.description').addChoices(
          ...RECURRENCES.map((r) => localizedChoice(RECURRENCE_KEYS[r], r)),
        ),
      ),
  )
  .addSubcommand((s) => withReminderOption(localized(s, 'commands.reminder.subcommands.skip.name', 'commands.reminder.subcommands.skip.description')))
  .addSubcommand((s) => withReminderOption(localized(s, 'commands.reminder.subcommands.pause.name', 'commands.reminder.subcommands.pause.description')))
  .addSubcommand((s) => withReminderOption(localized(s, 'commands.reminder.subcommands.resume.name', 'commands.reminder.subcommands.resume.description')))
  .addSubcommand((s) => withReminderOption(localized(s, 'commands.reminder.subcommands.delete.name', 'commands.reminder.subcommands.delete.description')))
  .addSubcommand((s) =>
    withReminderOption(localized(s, 'commands.reminder.subcommands.snooze.name', 'commands.reminder.subcommands.snooze.description')).addIntegerOption((o) =>
      localized(o, 'commands.reminder.options.minutes.name', 'commands.reminder.options.minutes.description').addChoices(
        ...Object.entries(SNOOZE_CHOICES).map(([minutes, key]) => localizedChoice(key, Number(minutes))),
      ),
    ),
  );

const MAX_CHOICE = 100;

const command: BotCommand = {
  data,
  async autocomplete(interaction, { app }) {
    const sub = interaction.options.getSubcommand() as Sub;
    const query = oneLine(String(interaction.options.getFocused() ?? ''));
    const locale = interaction.locale;
    // Discord shows at most 25 choices.
    const found = await reminderChoices(app.db, interaction.user.id, sub, query, 25);
    if (!found) return interaction.respond([]);
    const choices = found.choices.map((r) => {
      const when = r.next_fire_utc ? formatInZone(Date.parse(r.next_fire_utc), found.timezone, locale) : t(locale, 'manage.choiceDone');
      const suffix = ` — ${when}${r.is_paused ? ` (${t(locale, 'manage.choicePaused')})` : ''}`;
      return { name: `${truncate(oneLine(r.message), MAX_CHOICE - suffix.length)}${suffix}`, value: r.id };
    });
    await interaction.respond(choices);
  },

  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const sub = interaction.options.getSubcommand() as Sub;
    const id = interaction.options.getString('reminder', true).trim();
    const account = await ensureAccountForDiscordUser(app.db, interaction.user, locale, interaction.guildId);
    const existing = await getReminder(app, account.id, id);
    const message = truncate(oneLine(existing.message), 200);

    if (sub === 'edit') {
      const newMessage = interaction.options.getString('message');
      const when = interaction.options.getString('when');
      const repeat = interaction.options.getString('repeat');
      if (newMessage === null && when === null && repeat === null) return replyEphemeral(interaction, t(locale, 'manage.editNothing'));
      let patch: Parameters<typeof editReminder>[3] = { message: newMessage ?? undefined };
      if (when !== null) {
        // Times are read in the reminder's own zone, as the dashboard edits it.
        const parsed = readScheduleInput(when, repeat, existing.timezone, locale, Date.now());
        if (!parsed.ok) return replyEphemeral(interaction, parsed.text);
        // A plain new time keeps the reminder's repetition; words or the option replace it.
        const keeps = parsed.recurrence === 'ONCE' && repeat === null && existing.recurrence_type !== 'ONCE';
        patch = { ...patch, date: parsed.date, time: parsed.time, ...(keeps ? {} : { recurrence: parsed.recurrence, rrule: parsed.rrule }) };
      } else if (repeat !== null) {
        patch = { ...patch, recurrence: repeat, rrule: null };
      }
      const { reminder: r } = await editReminder(app, account.id, id, patch);
      const edited = truncate(oneLine(r.message), 200);
      const line = r.next_fire_utc ? t(locale, 'manage.edited', { message: edited, unix: unix(Date.parse(r.next_fire_utc)) }) : t(locale, 'manage.editedNothingLeft', { message: edited });
      return replyEphemeral(interaction, `${line}\n${t(locale, 'remind.repeats', { recurrence: recurrenceLabel(locale, r) })}`);
    }
    if (sub === 'skip') {
      const { reminder: r, skippedMs } = await skipNextOccurrence(app, account.id, id);
      return replyEphemeral(
        interaction,
        r.next_fire_utc
          ? t(locale, 'manage.skipped', { message, skipped: unix(skippedMs), unix: unix(Date.parse(r.next_fire_utc)) })
          : t(locale, 'manage.skippedLast', { message, skipped: unix(skippedMs) }),
      );
    }
    if (sub === 'pause') {
      await pauseReminder(app, account.id, id);
      return replyEphemeral(interaction, t(locale, 'manage.paused', { message }));
    }
    if (sub === 'resume') {
      const r = await resumeReminder(app, account.id, id);
      return replyEphemeral(
        interaction,
        r.next_fire_utc ? t(locale, 'manage.resumed', { message, unix: unix(Date.parse(r.next_fire_utc)) }) : t(locale, 'manage.resumedNothingLeft', { message }),
      );
    }
    if (sub === 'delete') {
      await removeReminder(app, account.id, id);
      return replyEphemeral(interaction, t(locale, 'manage.deleted', { message }));
    }
    const minutes = interaction.options.getInteger('minutes') ?? DEFAULT_SNOOZE_MINUTES;
    const r = await snoozeReminder(app, account.id, id, { minutes });
    return replyEphemeral(interaction, t(locale, 'manage.snoozed', { message, unix: unix(Date.parse(r.next_fire_utc!)) }));
  },
};

export default command;
