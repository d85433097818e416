import { SlashCommandBuilder } from 'discord.js';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { CONTEXTS, INTEGRATION_TYPES, localized } from '../replies/command-text.ts';
import { renderReminderList } from '../replies/reminder-list.ts';
import { answerEphemeral } from '../replies/reply.ts';
import type { BotCommand } from '../types.ts';

const command: BotCommand = {
  data: localized(new SlashCommandBuilder(), 'commands.reminders.name', 'commands.reminders.description')
    .setIntegrationTypes(...INTEGRATION_TYPES)
    .setContexts(...CONTEXTS),
  async execute(interaction, { app }) {
    const account = await ensureAccountForDiscordUser(app.db, interaction.user, interaction.locale, interaction.guildId);
    const view = await renderReminderList(app.db, account, interaction.locale, 0);
    await answerEphemeral(interaction, { ...view, allowedMentions: { parse: [] } });
  },
};

export default command;
