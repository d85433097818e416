import { DiscordAPIError, SlashCommandBuilder } from 'discord.js';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { getServerSettings } from '../../server/servers/settings.ts';
import { CONTEXTS, INTEGRATION_TYPES } from '../replies/command-text.ts';
import { answerEphemeral, replyEphemeral } from '../replies/reply.ts';
import { localizedServer, st } from '../replies/server-text.ts';
import { renderServerReminders, renderServerSettings, serverPageUrl } from '../replies/server-views.ts';
import type { BotCommand } from '../types.ts';

/** Discord's error code for a request body it refuses. */
const INVALID_FORM_BODY = 50035;

/**
 * `/server reminders` and `/server settings` (docs/discord.md "A server's reminders and rules"):
 * what the dashboard's server page shows its managers, through the same servers service calls as
 * the API (server/servers/), so who is a manager is decided there, asked of Discord, and a member
 * gets the API's NOT_SERVER_MANAGER in words. No default_member_permissions: holders of the
 * server's "Chime managers" role may lack every Discord permission.
 */
const command: BotCommand = {
  data: localizedServer(new SlashCommandBuilder(), 'commands.server.name', 'commands.server.description')
    .setIntegrationTypes(...INTEGRATION_TYPES)
    .setContexts(...CONTEXTS)
    .addSubcommand((s) => localizedServer(s, 'commands.server.subcommands.reminders.name', 'commands.server.subcommands.reminders.description'))
    .addSubcommand((s) => localizedServer(s, 'commands.server.subcommands.settings.name', 'commands.server.subcommands.settings.description')),

  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const guildId = interaction.guildId;
    if (!guildId) return replyEphemeral(interaction, st(locale, 'dmOnly'));
    const account = await ensureAccountForDiscordUser(app.db, interaction.user, locale, guildId);
    if (interaction.options.getSubcommand() === 'settings') {
      const settings = await getServerSettings(app, account.id, guildId);
      const view = renderServerSettings(locale, settings, serverPageUrl(app.config.publicUrl, guildId));
      try {
        return await answerEphemeral(interaction, { ...view, allowedMentions: { parse: [] } });
      } catch (err) {
        // Discord refuses a link button to an address it does not take as a link (50035 Invalid
        // Form Body; a development PUBLIC_URL such as http://localhost:3000 may be one): the
        // address is in the text as well, so the answer goes without the button.
        if (!(err instanceof DiscordAPIError && err.code === INVALID_FORM_BODY)) throw err;
        return answerEphemeral(interaction, { content: view.content, components: [], allowedMentions: { parse: [] } });
      }
    }
    const view = await renderServerReminders(app, account.id, guildId, locale, 0);
    await answerEphemeral(interaction, { ...view, allowedMentions: { parse: [] } });
  },
};

export default command;
