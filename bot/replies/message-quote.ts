/**
 * The text of a reminder made with "Remind me about this" (bot/commands/remind-message.ts): the
 * user's note, then a quote of the message (who wrote it, its first 300 characters, the files it
 * carried) and the link back to it. Pure: the command passes the message's parts in.
 *
 * The text is stored as the reminder's message and delivered as it is to every destination (DM,
 * channel, e-mail, push, webhooks), so it is made to read well outside Discord and to ping nobody
 * anywhere: user and role mentions become `@name`, @everyone/@here are broken with a zero-width
 * space. (The Discord senders also deliver with `allowed_mentions: { parse: [] }`, the chosen role
 * aside: server/destinations/discord-common/delivery-message.ts.)
 */
import { inertEveryone, truncate } from '../../server/discord/message-text.ts';

/** Characters of the message that are quoted. */
export const QUOTE_CHARS = 300;
/**
 * The whole text stays under this, so that the delivered message (header "⏰ Reminder", a role
 * mention, a late note: at most ~120 more) fits Discord's 2000 without cutting the link off, and
 * under the 2000 characters a reminder's message may have.
 */
export const MAX_REMINDER_TEXT = 1800;
/** File names listed, and the length of each. */
const MAX_FILES = 5;
const MAX_FILE_NAME = 60;
const MAX_AUTHOR = 80;

export interface QuotedMessage {
  /** Where the message is: `guildId` null in DMs and group DMs (the link uses `@me`). */
  guildId: string | null;
  channelId: string;
  messageId: string;
  /** The author's display name (server nickname, else global name, else username). */
  authorName: string;
  content: string;
  attachmentNames: readonly string[];
  /** Mentioned users' display names by id (Discord's `mentions`), for `<@id>`. */
  userNames?: Readonly<Record<string, string>>;
  /** Role names by id where known (the guild cache), for `<@&id>`. */
  roleNames?: Readonly<Record<string, string>>;
}

/** https://discord.com/channels/<guild or @me>/<channel>/<message>: what Discord's "Copy Message Link" gives. */
export const jumpUrl = (m: Pick<QuotedMessage, 'guildId' | 'channelId' | 'messageId'>) =>
  `https://discord.com/channels/${m.guildId ?? '@me'}/${m.channelId}/${m.messageId}`;

/** Mentions as plain names, and @everyone/@here made inert (a zero-width space after the @). */
export function defuseMentions(text: string, userNames: Readonly<Record<string, string>> = {}, roleNames: Readonly<Record<string, string>> = {}): string {
  const named = text
    .replace(/<@!?(\d{15,21})>/g, (_, id: string) => `@${userNames[id] ?? 'user'}`)
    .replace(/<@&(\d{15,21})>/g, (_, id: string) => `@${roleNames[id] ?? 'role'}`);
  return inertEveryone(named);
}

/** Discord markdown in a name shown as is (a name like `__bob__` is not underlined). */
const escapeMarkdown = (text: string) => text.replace(/([\\*_~`|])/g, '\\$1');
/** A file name as inline code: readable as plain text too, and no markdown inside it. */
const fileName = (name: string) => `\`${truncate(name.replace(/[`\n\r]/g, "'"), MAX_FILE_NAME)}\``;

/** The first QUOTE_CHARS characters, each line quoted, and a code block cut open closed again. */
function quotedBody(content: string): string {
  let body = truncate(content.trim(), QUOTE_CHARS);
  if ((body.match(/```/g) ?? []).length % 2 === 1) body += '\n```';
  return body
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** The quote alone: `💬 **author**`, the quoted lines, `📎 files`, the link. */
export function buildMessageQuote(m: QuotedMessage): string {
  const lines = [`💬 **${escapeMarkdown(truncate(defuseMentions(m.authorName), MAX_AUTHOR))}**`];
  const text = defuseMentions(m.content, m.userNames, m.roleNames);
  if (text.trim()) lines.push(quotedBody(text));
  if (m.attachmentNames.length) {
    const names = m.attachmentNames.slice(0, MAX_FILES).map(fileName);
    const more = m.attachmentNames.length - names.length;
    lines.push(`📎 ${names.join(', ')}${more > 0 ? ` (+${more})` : ''}`);
  }
  lines.push(jumpUrl(m));
  return lines.join('\n');
}

/**
 * The reminder's text: the note (mentions defused too), a blank line, the quote. What does not fit
 * is cut, never refused: the note gives way first, the quote never loses its link.
 */
export function buildQuotedReminderText(note: string, m: QuotedMessage): string {
  const quote = buildMessageQuote(m);
  const cleanNote = defuseMentions(note.trim(), m.userNames, m.roleNames);
  if (!cleanNote) return quote;
  const room = MAX_REMINDER_TEXT - quote.length - 2;
  return `${truncate(cleanNote, Math.max(room, 1))}\n\n${quote}`;
}
