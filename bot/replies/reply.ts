import { type ButtonInteraction, type InteractionReplyOptions, type InteractionUpdateOptions, MessageFlags, type RepliableInteraction } from 'discord.js';
import { DatabaseBusyError } from '../../server/db/database-busy.ts';
import { StorageFullError } from '../../server/db/storage-full.ts';
import { DISCORD_FAILURE_EXPLANATIONS } from '../../server/destinations/discord-channel/failure-notice.ts';
import { AppError, type ErrorCode } from '../../server/errors.ts';
import { t } from '../../server/discord/i18n.ts';
import { truncate } from '../../server/discord/message-text.ts';

/**
 * Discord forgets an interaction that gets no first response within 3 seconds: the user reads "The
 * application did not respond" although the command may still do its work. A /remind held up by a
 * busy database would then create the reminder while the user is told it failed, and create it again
 * when they retry. So an answer not ready after ACKNOWLEDGE_AFTER_MS is deferred (a command shows
 * "Chime is thinking…", a button just stays pressed), and the answer takes its place.
 */
export const ACKNOWLEDGE_AFTER_MS = 2000;

/** Deferrals under way: an answer waits for them rather than racing them (Discord takes one first response). */
const deferring = new WeakMap<RepliableInteraction, Promise<unknown>>();
/** Commands whose "thinking" message was already replaced by the answer (the next one is a follow-up). */
const thinkingReplaced = new WeakSet<RepliableInteraction>();

/** Defers the interaction if no answer went out within `afterMs`; call the result once the handler is done. */
export function deferWhenSlow(interaction: RepliableInteraction, afterMs = ACKNOWLEDGE_AFTER_MS): () => void {
  const timer = setTimeout(() => {
    if (interaction.deferred || interaction.replied) return;
    const deferral = interaction.isMessageComponent() ? interaction.deferUpdate() : interaction.deferReply({ flags: MessageFlags.Ephemeral });
    // A failed deferral (the interaction had already expired) shows again when the answer is sent.
    deferring.set(interaction, deferral.catch(() => undefined));
  }, afterMs);
  return () => clearTimeout(timer);
}

type Answer = Omit<InteractionReplyOptions, 'flags' | 'withResponse' | 'fetchReply'>;

/**
 * An ephemeral answer: the first response, or in place of a command's "thinking" message, or a
 * follow-up (after a button's update, or a second answer).
 */
export async function answerEphemeral(interaction: RepliableInteraction, answer: Answer): Promise<void> {
  await deferring.get(interaction);
  if (interaction.deferred && !interaction.isMessageComponent() && !thinkingReplaced.has(interaction)) {
    thinkingReplaced.add(interaction);
    await interaction.editReply(answer);
  } else if (interaction.deferred || interaction.replied) {
    await interaction.followUp({ ...answer, flags: MessageFlags.Ephemeral });
  } else {
    await interaction.reply({ ...answer, flags: MessageFlags.Ephemeral });
  }
}

/** Edits the message a button is on: at once, or after its deferral. */
export async function updateMessage(interaction: ButtonInteraction, update: Omit<InteractionUpdateOptions, 'withResponse' | 'fetchReply'>): Promise<void> {
  await deferring.get(interaction);
  if (interaction.deferred) await interaction.editReply(update);
  else await interaction.update(update);
}

/** Ephemeral text reply that never pings anyone, whatever the text contains. */
export async function replyEphemeral(interaction: RepliableInteraction, content: string): Promise<void> {
  await answerEphemeral(interaction, { content: truncate(content, 2000), allowedMentions: { parse: [] } });
}

/** AppError codes the bot can run into, with their bot.json keys. */
const ERROR_KEYS: Partial<Record<ErrorCode, string>> = {
  MESSAGE_REQUIRED: 'errors.MESSAGE_REQUIRED',
  MESSAGE_TOO_LONG: 'errors.MESSAGE_TOO_LONG',
  REMINDER_IN_PAST: 'errors.REMINDER_IN_PAST',
  REMINDER_NOT_FOUND: 'errors.REMINDER_NOT_FOUND',
  INVALID_TIMEZONE: 'errors.INVALID_TIMEZONE',
  INVALID_RECURRENCE: 'errors.INVALID_RECURRENCE',
  RRULE_INVALID: 'errors.RRULE_INVALID',
  OCCURRENCE_INVALID: 'errors.OCCURRENCE_INVALID',
  SKIP_LIMIT: 'errors.SKIP_LIMIT',
  DATABASE_BUSY: 'errors.DATABASE_BUSY',
  DESTINATION_LIMIT: 'errors.DESTINATION_LIMIT',
  REMINDER_LIMIT: 'errors.REMINDER_LIMIT',
  DISCORD_UNAVAILABLE: 'errors.DISCORD_UNAVAILABLE',
  NOT_SERVER_MANAGER: 'errors.NOT_SERVER_MANAGER',
  SERVER_NOT_FOUND: 'errors.SERVER_NOT_FOUND',
  DISCORD_BOT_NOT_IN_GUILD: 'failureNotice.explain.botNotInGuild',
  // A forum that requires tags, chosen in /remind without `tags`.
  DISCORD_FORUM_TAG_REQUIRED: 'errors.DISCORD_FORUM_TAG_REQUIRED',
};

/** An AppError in the user's language, else its English message; null for anything else (a bug). */
export function errorText(locale: string | null | undefined, err: unknown): string | null {
  if (err instanceof DatabaseBusyError) return t(locale, 'errors.DATABASE_BUSY');
  if (err instanceof StorageFullError) return t(locale, 'errors.STORAGE_FULL');
  if (!(err instanceof AppError)) return null;
  const key = ERROR_KEYS[err.code];
  if (key) return t(locale, key);
  return serverRuleText(locale, err) ?? forumTagText(locale, err) ?? refusalText(locale, err) ?? err.message;
}

/** /remind's `tags` refused by the API's rules for forum tags (server/destinations/discord-channel/index.ts), with the names they quote. */
function forumTagText(locale: string | null | undefined, err: AppError): string | null {
  const raw = err.details?.params;
  const params = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const channel = typeof params.channel === 'string' ? params.channel : null;
  const tag = typeof params.tag === 'string' ? params.tag : null;
  if (!channel) return null;
  if (err.code === 'DISCORD_TAGS_NOT_FORUM') return t(locale, 'errors.forumTags.notForum', { channel });
  if (!tag) return null;
  if (err.code === 'DISCORD_UNKNOWN_FORUM_TAG') return t(locale, 'errors.forumTags.unknown', { channel, tag });
  if (err.code === 'DISCORD_FORUM_TAG_MODERATED') return t(locale, params.who === 'bot' ? 'errors.forumTags.moderatedBot' : 'errors.forumTags.moderatedUser', { channel, tag });
  return null;
}

/** The `kind` of a server rule's refusal (server/servers/rules.ts) -> its bot.json key. */
const SERVER_RULE_KEYS: Record<string, string> = {
  creatorsManagers: 'errors.serverRules.creatorsManagers',
  creatorsRole: 'errors.serverRules.creatorsRole',
  channel: 'errors.serverRules.channel',
  roleMentionsNobody: 'errors.serverRules.roleMentionsNobody',
  roleMentionsManagers: 'errors.serverRules.roleMentionsManagers',
  everyoneMention: 'errors.serverRules.everyoneMention',
  maxReminders: 'errors.serverRules.maxReminders',
  remindMeToo: 'errors.serverRules.remindMeToo',
};

/** A save refused by the rules of the server it posts in (server/servers/rules.ts), with the names it quotes. */
function serverRuleText(locale: string | null | undefined, err: AppError): string | null {
  const kind = err.details?.kind;
  const key = typeof kind === 'string' && err.code.startsWith('SERVER_RULE_') ? SERVER_RULE_KEYS[kind] : undefined;
  if (!key) return null;
  const raw = err.details?.params;
  const params = raw && typeof raw === 'object' ? Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) : {};
  return t(locale, key, params as Record<string, string>);
}

/**
 * A save refused for its channel: who cannot post or mention, and where, when the server says so
 * (its `params`); else the words of the failure notice for that reason.
 */
function refusalText(locale: string | null | undefined, err: AppError): string | null {
  const reason = err.details?.reason;
  if (typeof reason !== 'string') return null;
  const raw = err.details?.params;
  const params = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const who = params.who === 'bot' ? 'bot' : params.who === 'user' ? 'user' : null;
  if (reason === 'DISCORD_CANNOT_POST' && who && typeof params.channel === 'string') {
    return t(locale, who === 'bot' ? 'errors.refused.botCannotSend' : 'errors.refused.userCannotSend', { channel: params.channel });
  }
  if (reason === 'DISCORD_ROLE_NOT_MENTIONABLE' && who && typeof params.role === 'string') {
    return t(locale, who === 'bot' ? 'errors.refused.botCannotMentionRole' : 'errors.refused.userCannotMentionRole', { role: params.role });
  }
  if (reason === 'DISCORD_CANNOT_MENTION_EVERYONE' && who && typeof params.channel === 'string') {
    return t(locale, who === 'bot' ? 'errors.refused.botCannotMentionEveryone' : 'errors.refused.userCannotMentionEveryone', { channel: params.channel });
  }
  if (reason === 'DISCORD_NOT_MEMBER' && typeof params.guild === 'string') return t(locale, 'errors.refused.notMember', { guild: params.guild });
  const explanation = DISCORD_FAILURE_EXPLANATIONS[reason];
  return explanation ? t(locale, explanation) : null;
}
