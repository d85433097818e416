import { Events, type Interaction } from 'discord.js';
import { commands, messageCommands } from '../commands/index.ts';
import { components, modals } from '../components/index.ts';
import { t } from '../../server/discord/i18n.ts';
import { deferWhenSlow, errorText, replyEphemeral } from '../replies/reply.ts';
import type { BotEvent } from '../types.ts';

const byName = new Map(commands.map((c) => [c.data.name, c]));
const byPrefix = new Map(components.map((c) => [c.prefix, c]));
const messageCommandByName = new Map(messageCommands.map((c) => [c.data.name, c]));
const modalByPrefix = new Map(modals.map((m) => [m.prefix, m]));

/**
 * The single dispatcher and error boundary: whatever a handler throws becomes a localized
 * ephemeral reply and a log line; it never reaches the process.
 */
const event: BotEvent<Events.InteractionCreate> = {
  name: Events.InteractionCreate,
  async execute(ctx, interaction: Interaction) {
    // Autocomplete cannot be deferred: it answers within 3 s or not at all. Nor can a message
    // command that answers with a modal (a modal cannot follow a deferral): it answers at once.
    const stopWaiting = interaction.isChatInputCommand() || interaction.isButton() || interaction.isModalSubmit() ? deferWhenSlow(interaction) : () => {};
    try {
      if (interaction.isChatInputCommand()) {
        const command = byName.get(interaction.commandName);
        if (!command) throw new Error(`unknown command /${interaction.commandName}`);
        await command.execute(interaction, ctx);
      } else if (interaction.isAutocomplete()) {
        const command = byName.get(interaction.commandName);
        if (command?.autocomplete) await command.autocomplete(interaction, ctx);
        else await interaction.respond([]);
      } else if (interaction.isMessageContextMenuCommand()) {
        const command = messageCommandByName.get(interaction.commandName);
        if (!command) throw new Error(`unknown message command ${interaction.commandName}`);
        await command.execute(interaction, ctx);
      } else if (interaction.isModalSubmit()) {
        const modal = modalByPrefix.get(interaction.customId.split(':')[0] ?? '');
        if (!modal) throw new Error(`unknown modal ${interaction.customId.slice(0, 40)}`);
        await modal.execute(interaction, ctx);
      } else if (interaction.isButton()) {
        const component = byPrefix.get(interaction.customId.split(':')[0] ?? '');
        if (!component) throw new Error(`unknown button ${interaction.customId.slice(0, 40)}`);
        await component.execute(interaction, ctx);
      }
    } catch (err) {
      const known = interaction.isRepliable() ? errorText(interaction.locale, err) : null;
      if (!known) {
        ctx.log.error(
          { err, interaction: { id: interaction.id, type: interaction.type, command: 'commandName' in interaction ? interaction.commandName : undefined } },
          'discord interaction failed',
        );
      }
      try {
        if (interaction.isAutocomplete()) {
          if (!interaction.responded) await interaction.respond([]);
        } else if (interaction.isRepliable()) {
          await replyEphemeral(interaction, known ?? t(interaction.locale, 'errors.generic'));
        }
      } catch (replyErr) {
        ctx.log.warn({ err: replyErr }, 'could not tell the user about a failed interaction');
      }
    } finally {
      stopWaiting();
    }
  },
};

export default event;
