import {
  ApplicationCommandType,
  ContextMenuCommandBuilder,
  InteractionContextType,
  LabelBuilder,
  ModalBuilder,
  StringSelectMenuBuilder,
  StringSelectMenuOptionBuilder,
  TextInputBuilder,
  TextDisplayBuilder,
  TextInputStyle,
} from 'discord.js';
import { t } from '../../server/discord/i18n.ts';
import { saveDraft } from '../message-drafts.ts';
import { CONTEXTS, INTEGRATION_TYPES, localizedName } from '../replies/command-text.ts';
import type { QuotedMessage } from '../replies/message-quote.ts';
import type { BotMessageCommand } from '../types.ts';

/** The modal's custom id: `remmsg:<command interaction id>` (bot/components/remind-message-modal.ts). */
export const MODAL_PREFIX = 'remmsg';
export const FIELD_WHEN = 'when';
export const FIELD_NOTE = 'note';
export const FIELD_WHERE = 'where';
/** The note's length in the modal; what still does not fit the reminder is cut (bot/replies/message-quote.ts). */
export const NOTE_MAX = 1000;

const data = localizedName(new ContextMenuCommandBuilder(), 'commands.remindMessage.name')
  .setType(ApplicationCommandType.Message)
  .setIntegrationTypes(...INTEGRATION_TYPES)
  .setContexts(...CONTEXTS);

/**
 * "Remind me about this" on a message: reads the message now (Discord sends it, text included, with
 * the command only: bot/message-drafts.ts) and opens a modal asking when, an optional note and, in a
 * server, where. The answer is the modal itself, at once: a modal cannot follow a deferral, so
 * nothing here waits on the database.
 *
 * The fields sit in Label components (type 18), Discord's form for modal fields since 2025 (text
 * inputs in Action Rows are deprecated there); a Label is also what lets a modal hold a string
 * select, so "where" is chosen in the same form, before anything is created, rather than with buttons
 * afterwards. discord.js 14.28 builds (LabelBuilder) and reads (ModalSubmitFields) both.
 */
const command: BotMessageCommand = {
  data,
  async execute(interaction) {
    const locale = interaction.locale;
    const target = interaction.targetMessage;
    const roles = interaction.guild?.roles.cache;
    const message: QuotedMessage = {
      // The message is in the channel the command was used in; a message from the interaction's
      // resolved data carries no guild id, so the link takes the interaction's.
      guildId: interaction.guildId,
      channelId: target.channelId,
      messageId: target.id,
      authorName: target.member?.displayName ?? target.author.displayName,
      content: target.content,
      attachmentNames: target.attachments.map((a) => a.name),
      userNames: Object.fromEntries(target.mentions.users.map((u) => [u.id, u.displayName])),
      // Every role written in the text, pinging or not, named from the guild cache where it is known.
      roleNames: Object.fromEntries(
        [...target.content.matchAll(/<@&(\d+)>/g)].flatMap(([, id]) => {
          const role = id ? roles?.get(id) : undefined;
          return role ? [[role.id, role.name]] : [];
        }),
      ),
    };
    saveDraft(interaction.id, { message, userId: interaction.user.id, createdMs: Date.now() });

    const modal = new ModalBuilder()
      .setCustomId(`${MODAL_PREFIX}:${interaction.id}`)
      .setTitle(t(locale, 'remindMessage.modal.title'))
      .addLabelComponents(
        new LabelBuilder()
          .setLabel(t(locale, 'remindMessage.modal.when'))
          .setDescription(t(locale, 'remindMessage.modal.whenHelp'))
          .setTextInputComponent(
            new TextInputBuilder().setCustomId(FIELD_WHEN).setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(200).setPlaceholder(t(locale, 'remindMessage.modal.whenPlaceholder')),
          ),
        new LabelBuilder()
          .setLabel(t(locale, 'remindMessage.modal.note'))
          .setTextInputComponent(
            new TextInputBuilder().setCustomId(FIELD_NOTE).setStyle(TextInputStyle.Paragraph).setRequired(false).setMaxLength(NOTE_MAX).setPlaceholder(t(locale, 'remindMessage.modal.notePlaceholder')),
          ),
      );
    // "This channel" only means something in a server channel (a DM reminder works everywhere);
    // whether Chime may post there is checked when the modal comes back, as /remind does.
    if (interaction.inGuild()) {
      modal.addLabelComponents(
        new LabelBuilder().setLabel(t(locale, 'remindMessage.modal.where')).setStringSelectMenuComponent(
          new StringSelectMenuBuilder()
            .setCustomId(FIELD_WHERE)
            .setRequired(true)
            .addOptions(
              new StringSelectMenuOptionBuilder().setValue('dm').setLabel(t(locale, 'choices.where.dm')).setDefault(true),
              new StringSelectMenuOptionBuilder().setValue('channel').setLabel(t(locale, 'choices.where.channel')),
            ),
        ),
      );
    }
    // A group DM (or a DM between other users) through a user install: Chime is not in it and can
    // never post there, so the form says where the reminder goes instead of offering "this channel".
    if (interaction.context === InteractionContextType.PrivateChannel) {
      modal.addTextDisplayComponents(new TextDisplayBuilder().setContent(t(locale, 'remindMessage.modal.dmOnlyHere')));
    }
    await interaction.showModal(modal);
  },
};

export default command;
