import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { localized } from '../command-text.ts';
import { renderReminderList } from '../reminder-list.ts';
import type { BotCommand } from '../types.ts';

const command: BotCommand = {
  data: localized(new SlashCommandBuilder(), 'commands.reminders.name', 'commands.reminders.description').setContexts(InteractionContextType.Guild, InteractionContextType.BotDM),
  async execute(interaction, { app }) {
    const account = await ensureAccountForDiscordUser(app.db, interaction.user, interaction.locale);
    const view = await renderReminderList(app.db, account, interaction.locale, 0);
    await interaction.reply({ ...view, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  },
};

export default command;
