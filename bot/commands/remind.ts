import { ChannelType, SlashCommandBuilder, type APIRole, type Role } from 'discord.js';
import type { RawDestination } from '../../server/destinations/validate.ts';
import { RECURRENCES } from '../../server/reminders/input.ts';
import { MAX_FORUM_TAGS } from '../../server/destinations/discord-channel/index.ts';
import { forumTagsOf } from '../../server/discord/access.ts';
import { splitTagWords, tagCompletions } from '../replies/forum-tag-input.ts';
import { checkInteractionChannelAccess, chosenChannelDestination, interactionChannelDestination } from '../access.ts';
import { CONTEXTS, INTEGRATION_TYPES, localized, localizedChoice } from '../replies/command-text.ts';
import { ALERT_CHOICES, RECURRENCE_KEYS } from '../replies/format.ts';
import { t } from '../../server/discord/i18n.ts';
import { createReminderFromWords } from '../replies/create-from-words.ts';
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
  .addRoleOption((o) => localized(o, 'commands.remind.options.role.name', 'commands.remind.options.role.description'))
  // Another channel of the server: the kinds a reminder can post in (server/discord/channel-rule.ts).
  .addChannelOption((o) =>
    localized(o, 'commands.remind.options.channel.name', 'commands.remind.options.channel.description').addChannelTypes(
      ChannelType.GuildText,
      ChannelType.GuildAnnouncement,
      ChannelType.GuildVoice,
      ChannelType.GuildStageVoice,
      ChannelType.AnnouncementThread,
      ChannelType.PublicThread,
      ChannelType.PrivateThread,
      ChannelType.GuildForum,
      ChannelType.GuildMedia,
    ),
  )
  // Channel reminders: a "Remind me too" button under each delivery (server/reminders/subscriptions.ts).
  .addBooleanOption((o) => localized(o, 'commands.remind.options.remind_me_too.name', 'commands.remind.options.remind_me_too.description'))
  // A forum or media channel chosen in `channel`: the tags of each new post, by name, comma-separated,
  // suggested from the forum's own tags (bot/replies/forum-tag-input.ts).
  .addStringOption((o) => localized(o, 'commands.remind.options.tags.name', 'commands.remind.options.tags.description').setAutocomplete(true).setMaxLength(600))
  // One alert before each occurrence, as the dashboard offers them (its presets; up to 3 there).
  .addIntegerOption((o) =>
    localized(o, 'commands.remind.options.alert.name', 'commands.remind.options.alert.description').addChoices(
      ...Object.entries(ALERT_CHOICES).map(([minutes, key]) => localizedChoice(key, Number(minutes))),
    ),
  );

const command: BotCommand = {
  data,
  /** `tags`: the tags of the forum chosen in `channel` (none before one is chosen). */
  async autocomplete(interaction, { app }) {
    const focused = interaction.options.getFocused(true);
    const forumId = interaction.options.get('channel')?.value;
    if (focused.name !== 'tags' || !interaction.guildId || typeof forumId !== 'string' || !app.discord) return interaction.respond([]);
    const tags = await forumTagsOf(app.discord.rest, interaction.guildId, interaction.user.id, forumId);
    await interaction.respond(tags ? tagCompletions(tags, String(focused.value ?? ''), t(interaction.locale, 'remind.tagModerated'), MAX_FORUM_TAGS) : []);
  },

  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const message = interaction.options.getString('message', true);
    const when = interaction.options.getString('when', true);
    const repeatOption = interaction.options.getString('repeat');
    const role = interaction.options.getRole('role') as Role | APIRole | null;
    const chosen = interaction.options.getChannel('channel');
    const remindMeToo = interaction.options.getBoolean('remind_me_too') === true;
    const tagWords = splitTagWords(interaction.options.getString('tags') ?? '');
    const alertMinutes = interaction.options.getInteger('alert');
    const where = interaction.options.getString('where') ?? (role || chosen ? 'channel' : 'dm');
    // The channel the reminder posts in: the one chosen, else this one.
    const channelId = chosen?.id ?? interaction.channelId;

    let destination: RawDestination;
    if (where === 'channel') {
      if (!interaction.inGuild()) return replyEphemeral(interaction, t(locale, 'remind.channelOnlyInGuild'));
      if (chosen && chosen.id !== interaction.channelId) {
        // What the interaction carries is about this channel, not the chosen one: the save checks
        // the chosen one over REST (the API's check, with the same rule and refusals).
        destination = chosenChannelDestination(interaction, chosen, role);
      } else {
        const access = await checkInteractionChannelAccess(interaction, role ? { id: role.id, mentionable: role.mentionable } : null);
        if (!access.ok) return replyEphemeral(interaction, t(locale, access.key, access.vars));
        destination = interactionChannelDestination(interaction, role);
      }
      if (remindMeToo) destination = { ...destination, metadata: { ...destination.metadata, remind_me_too: true } };
      if (tagWords.length > MAX_FORUM_TAGS) return replyEphemeral(interaction, t(locale, 'remind.tooManyTags', { max: MAX_FORUM_TAGS }));
      // Names as typed: the save reads them with the forum's tags and applies the API's rules.
      if (tagWords.length) destination = { ...destination, metadata: { ...destination.metadata, forum_tag_names: tagWords } };
    } else if (tagWords.length) {
      return replyEphemeral(interaction, t(locale, 'remind.tagsNeedForum'));
    } else if (chosen) {
      return replyEphemeral(interaction, t(locale, 'remind.channelNeedsChannel'));
    } else if (remindMeToo) {
      return replyEphemeral(interaction, t(locale, 'remind.remindMeTooNeedsChannel'));
    } else {
      if (role) return replyEphemeral(interaction, t(locale, 'remind.roleNeedsChannel'));
      destination = { type: 'discord_dm', metadata: {} };
    }

    const destinationText =
      destination.type === 'discord_dm'
        ? t(locale, 'remind.destinationDm')
        : role && role.id === interaction.guildId
          ? t(locale, 'remind.destinationChannelEveryone', { channelId })
          : role
            ? t(locale, 'remind.destinationChannelRole', { channelId, roleId: role.id })
          : t(locale, 'remind.destinationChannel', { channelId });
    await createReminderFromWords(app, interaction, { message, when, repeat: repeatOption, destination, destinationText, alerts: alertMinutes ? [alertMinutes] : [] });
  },
};

export default command;
