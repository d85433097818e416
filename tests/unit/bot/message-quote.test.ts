/** The text of a "Remind me about this" reminder: note, quote of the message, link back to it. */
import { describe, expect, it } from 'vitest';
import { buildMessageQuote, buildQuotedReminderText, defuseMentions, jumpUrl, MAX_REMINDER_TEXT, QUOTE_CHARS, type QuotedMessage } from '../../../bot/replies/message-quote.ts';
import { MAX_MESSAGE_LENGTH } from '../../../server/reminders/input.ts';

const msg = (over: Partial<QuotedMessage> = {}): QuotedMessage => ({
  guildId: '300000000000000001',
  channelId: '300000000000000011',
  messageId: '400000000000000001',
  authorName: 'alice',
  content: 'Deploy at 5',
  attachmentNames: [],
  ...over,
});

describe('jumpUrl', () => {
  it('is the message link Discord copies: the guild, or @me in DMs', () => {
    expect(jumpUrl(msg())).toBe('https://discord.com/channels/300000000000000001/300000000000000011/400000000000000001');
    expect(jumpUrl(msg({ guildId: null }))).toBe('https://discord.com/channels/@me/300000000000000011/400000000000000001');
  });
});

describe('buildMessageQuote', () => {
  it('names the author, quotes the text and ends with the link', () => {
    expect(buildMessageQuote(msg())).toBe('💬 **alice**\n> Deploy at 5\nhttps://discord.com/channels/300000000000000001/300000000000000011/400000000000000001');
  });

  it('quotes every line and keeps the first 300 characters, with an ellipsis when cut', () => {
    const long = `${'a'.repeat(QUOTE_CHARS)}bcdef`;
    const quote = buildMessageQuote(msg({ content: `first line\n${long}` }));
    const quoted = quote.split('\n').filter((l) => l.startsWith('> '));
    expect(quoted[0]).toBe('> first line');
    expect(quoted[1]!.endsWith('…')).toBe(true);
    expect(quoted.map((l) => l.slice(2)).join('\n')).toHaveLength(QUOTE_CHARS);
    expect(quote).not.toContain('b');
    // Short text is not cut.
    expect(buildMessageQuote(msg({ content: 'a'.repeat(QUOTE_CHARS) }))).not.toContain('…');
  });

  it('names the attachments, and a message with files but no text still has a quote', () => {
    const quote = buildMessageQuote(msg({ content: '', attachmentNames: ['photo.png', 'my_report.pdf'] }));
    expect(quote).toBe('💬 **alice**\n📎 `photo.png`, `my_report.pdf`\nhttps://discord.com/channels/300000000000000001/300000000000000011/400000000000000001');
    const many = buildMessageQuote(msg({ attachmentNames: ['1.png', '2.png', '3.png', '4.png', '5.png', '6.png', '7.png'] }));
    expect(many).toContain('📎 `1.png`, `2.png`, `3.png`, `4.png`, `5.png` (+2)');
  });

  it('never pings: mentions become names, @everyone and @here are broken', () => {
    const quote = buildMessageQuote(
      msg({
        authorName: 'eve @everyone',
        content: 'hey <@200000000000000002> <@!200000000000000003> and <@&300000000000000021> <@&300000000000000099> @everyone @here',
        userNames: { '200000000000000002': 'bob' },
        roleNames: { '300000000000000021': 'team' },
      }),
    );
    expect(quote).toContain('> hey @bob @user and @team @role @\u200beveryone @\u200bhere');
    expect(quote).toContain('**eve @\u200beveryone**');
    expect(quote).not.toMatch(/<@|@everyone|@here/);
  });

  it('keeps markdown in names as text and closes a code block that the cut left open', () => {
    expect(buildMessageQuote(msg({ authorName: '__bob__' }))).toContain('**\\_\\_bob\\_\\_**');
    const quote = buildMessageQuote(msg({ content: `\`\`\`js\n${'x'.repeat(400)}\n\`\`\`` }));
    expect((quote.match(/```/g) ?? []).length).toBe(2);
    expect(quote.split('\n').at(-1)).toMatch(/^https:\/\/discord\.com\/channels\//);
  });
});

describe('buildQuotedReminderText', () => {
  it('puts the note first, then the quote; no note is the quote alone', () => {
    expect(buildQuotedReminderText('  Review this  ', msg())).toBe(`Review this\n\n${buildMessageQuote(msg())}`);
    expect(buildQuotedReminderText('   ', msg())).toBe(buildMessageQuote(msg()));
    expect(buildQuotedReminderText('ping @everyone', msg())).toMatch(/^ping @\u200beveryone\n\n/);
  });

  it('cuts a note that is too long instead of refusing it, and keeps the link', () => {
    const m = msg({ content: 'x'.repeat(1000), attachmentNames: Array.from({ length: 8 }, (_, i) => `${'f'.repeat(80)}${i}.png`) });
    const text = buildQuotedReminderText('n'.repeat(5000), m);
    expect(text.length).toBeLessThanOrEqual(MAX_REMINDER_TEXT);
    expect([...text].length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(text).toMatch(/^n+…\n\n💬/);
    expect(text.endsWith(jumpUrl(m))).toBe(true);
  });
});

describe('defuseMentions', () => {
  it('leaves text without mentions alone', () => {
    expect(defuseMentions('mail me at a@b.c, see <#300000000000000011>')).toBe('mail me at a@b.c, see <#300000000000000011>');
  });
});
