/**
 * "Remind me about this" end to end: the message command on a message in the fake Discord, the
 * modal it answers with, the modal submitted as Discord sends it, the reminder stored (read back
 * through the API) and delivered by the real scheduler, in a DM or the channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../helpers/fake-discord/types.ts';
import { client } from '../../helpers/server.ts';
import { accountOf, command, EPHEMERAL, fireNow, ids, interact, sessionFor, startBotEnv, waitForMessages, type BotEnv } from '../../helpers/bot-harness.ts';

let env: BotEnv;
beforeAll(async () => {
  env = await startBotEnv();
});
afterAll(async () => {
  await env?.server.close();
  await env?.fake.close();
});

const NAME = 'Remind me about this';
const jump = (guild: string, channel: string, message: string) => `https://discord.com/channels/${guild}/${channel}/${message}`;

/** Runs the message command on `target` and returns the modal Discord shows (callback type 9). */
async function openModal(userId: string, target: StoredMessage, where: { guildId?: string; channelId?: string; locale?: string } = {}) {
  const { id } = env.fake.dispatchInteraction(env.fake.slashCommand({ userId, name: NAME, commandType: 3, targetId: target.id, ...where }));
  const response = await env.fake.waitForInteractionResponse(id, { timeoutMs: 5000 });
  expect(response).toMatchObject({ kind: 'callback', type: 9 });
  return { id, modal: env.fake.interaction(id)!.modal! };
}

/** Fills in and submits the modal shown for `commandId`; returns the answer. */
async function submit(commandId: string, values: Record<string, string | string[]>) {
  const r = await interact(env.fake, env.fake.submitModal(commandId, { values }));
  return { content: String(r.data?.content ?? ''), flags: Number(r.data?.flags ?? 0), data: r.data };
}

const idFrom = (content: string) => /reminders\/([\w-]+)/.exec(content)![1]!;

async function apiFor(discordUserId: string) {
  const account = (await accountOf(env.app, discordUserId))!;
  return client(env.server.url, await sessionFor(env.app, account.id));
}

describe('registration', () => {
  it('is a message command (type 3) with localized names, for servers, DMs and user installs', () => {
    const cmd = env.fake.registeredCommands().find((c) => c.type === 3) as any;
    expect(cmd).toMatchObject({
      name: NAME,
      name_localizations: { fr: 'Me le rappeler', 'es-ES': 'Recordármelo', 'es-419': 'Recordármelo' },
      description: '',
      integration_types: [0, 1],
      contexts: [0, 1, 2],
    });
    expect(cmd.options).toBeUndefined();
    expect(env.fake.unhandledRequests()).toEqual([]);
  });
});

describe('in a server', () => {
  it('quotes the message (author, text without pings, files, link) in a DM reminder, and delivers it', async () => {
    const target = env.fake.postUserMessage({
      channelId: ids.general,
      authorId: ids.bob,
      content: `Ship the plan <@${ids.alice}> <@&${ids.team}> @everyone`,
      attachments: [{ filename: 'plan.pdf', contentType: 'application/pdf' }],
    });
    const { id, modal } = await openModal(ids.alice, target, { guildId: ids.guild, channelId: ids.general });
    // The fields are Labels (18) around a text input (4) or a string select (3).
    expect(modal.title).toBe('Remind me about this message');
    expect(modal.components.map((c: any) => [c.type, c.label, c.component.type, c.component.custom_id])).toEqual([
      [18, 'When', 4, 'when'],
      [18, 'Note (optional)', 4, 'note'],
      [18, 'Where', 3, 'where'],
    ]);
    expect(modal.components[2].component.options.map((o: any) => [o.value, o.label, o.default ?? false])).toEqual([
      ['dm', 'Direct message', true],
      ['channel', 'This channel', false],
    ]);

    const r = await submit(id, { when: 'in 10 minutes', note: 'Read it before the meeting' });
    expect(r.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(r.data.allowed_mentions).toEqual({ parse: [] });
    const unixes = [...r.content.matchAll(/<t:(\d+):([FR])>/g)];
    expect(unixes.map((m) => m[2])).toEqual(['F', 'R']);
    expect(Math.abs(Number(unixes[0]![1]) * 1000 - (Date.now() + 600_000))).toBeLessThan(5_000);
    expect(r.content).toContain('**Repeats:** Once');
    expect(r.content).toContain('**Where:** your direct messages');

    const reminderId = idFrom(r.content);
    const link = jump(ids.guild, ids.general, target.id);
    const shown = await (await apiFor(ids.alice)).get(`/api/reminders/${reminderId}`);
    expect(shown.status).toBe(200);
    expect(shown.body.message).toBe(`Read it before the meeting\n\n💬 **bob**\n> Ship the plan @alice @team @\u200beveryone\n📎 \`plan.pdf\`\n${link}`);
    expect(shown.body.destinations.map((d: any) => d.type)).toEqual(['discord_dm']);

    await fireNow(env.app, reminderId);
    const [dm] = await waitForMessages(env.fake, () => env.fake.dmMessagesTo(ids.alice).filter((m) => m.content.includes(link)));
    expect(dm!.content).toBe(`⏰ **Reminder**\n${shown.body.message}`);
    expect(dm!.body.allowed_mentions).toEqual({ parse: [] });
    expect(dm!).toMatchObject({ mention_everyone: false, mentions: [], mention_roles: [] });
  });

  it('posts in the channel when asked there, without pinging anyone the message mentioned', async () => {
    const target = env.fake.postUserMessage({ channelId: ids.general, authorId: ids.bob, content: `Standup notes for <@&${ids.team}> and <@${ids.bob}>` });
    const { id } = await openModal(ids.alice, target, { guildId: ids.guild, channelId: ids.general });
    const r = await submit(id, { when: 'tomorrow at 9', where: 'channel' });
    expect(r.content).toContain(`**Where:** <#${ids.general}>`);
    const reminderId = idFrom(r.content);
    const shown = await (await apiFor(ids.alice)).get(`/api/reminders/${reminderId}`);
    expect(shown.body.destinations).toMatchObject([{ type: 'discord_channel', metadata: { guild_id: ids.guild, channel_id: ids.general, channel_name: 'general' } }]);

    const link = jump(ids.guild, ids.general, target.id);
    await fireNow(env.app, reminderId);
    const [msg] = await waitForMessages(env.fake, () => env.fake.messagesIn(ids.general).filter((m) => m.content.includes(link)));
    expect(msg!.content).toBe(`⏰ **Reminder**\n💬 **bob**\n> Standup notes for @team and @bob\n${link}`);
    expect(msg!.body.allowed_mentions).toEqual({ parse: [] });
    expect(msg!).toMatchObject({ mention_everyone: false, mentions: [], mention_roles: [] });
  });

  it('refuses "this channel" where the user may not post, with /remind\'s words', async () => {
    const target = env.fake.postUserMessage({ channelId: ids.readonly, authorId: ids.bob, content: 'Release on friday' });
    const { id } = await openModal(ids.alice, target, { guildId: ids.guild, channelId: ids.readonly });
    const r = await submit(id, { when: 'in 1 hour', where: 'channel' });
    expect(r.content).toBe(`You can't send messages in <#${ids.readonly}>, so you can't set a reminder there.`);
  });

  it('through a user install in a server without the bot: a DM reminder works, "this channel" is refused', async () => {
    const target = env.fake.postUserMessage({ channelId: ids.otherChannel, authorId: ids.alice, content: 'Pay the invoice' });
    const where = { guildId: ids.otherGuild, channelId: ids.otherChannel };
    const first = await openModal(ids.alice, target, where);
    expect((await submit(first.id, { when: 'in 1 hour', where: 'channel' })).content).toBe(
      "Chime isn't a member of this server, so it can't post here. Ask an admin to invite it, or use direct messages.",
    );
    const second = await openModal(ids.alice, target, where);
    const r = await submit(second.id, { when: 'in 1 hour' });
    const shown = await (await apiFor(ids.alice)).get(`/api/reminders/${idFrom(r.content)}`);
    expect(shown.body.message).toBe(`💬 **alice**\n> Pay the invoice\n${jump(ids.otherGuild, ids.otherChannel, target.id)}`);
    expect(shown.body.destinations.map((d: any) => d.type)).toEqual(['discord_dm']);
  });

  it('a message with files and no text still makes a reminder; long text is cut, not refused', async () => {
    const files = env.fake.postUserMessage({ channelId: ids.general, authorId: ids.bob, attachments: [{ filename: 'photo.png' }, { filename: 'notes.txt' }] });
    const opened = await openModal(ids.alice, files, { guildId: ids.guild, channelId: ids.general });
    const r = await submit(opened.id, { when: 'in 2 hours' });
    const shown = await (await apiFor(ids.alice)).get(`/api/reminders/${idFrom(r.content)}`);
    expect(shown.body.message).toBe(`💬 **bob**\n📎 \`photo.png\`, \`notes.txt\`\n${jump(ids.guild, ids.general, files.id)}`);

    const long = env.fake.postUserMessage({ channelId: ids.general, authorId: ids.bob, content: 'x'.repeat(1999) });
    const second = await openModal(ids.alice, long, { guildId: ids.guild, channelId: ids.general });
    const note = 'n'.repeat(1000);
    const r2 = await submit(second.id, { when: 'in 2 hours', note });
    const stored = (await (await apiFor(ids.alice)).get(`/api/reminders/${idFrom(r2.content)}`)).body.message as string;
    expect(stored).toBe(`${note}\n\n💬 **bob**\n> ${'x'.repeat(299)}…\n${jump(ids.guild, ids.general, long.id)}`);
  });

  it('an unreadable time gets the same answer as /remind, and nothing is created', async () => {
    const account = (await accountOf(env.app, ids.alice))!;
    const count = async () => (await env.app.db.selectFrom('reminders').select('id').where('account_id', '=', account.id).execute()).length;
    const before = await count();
    const target = env.fake.postUserMessage({ channelId: ids.general, authorId: ids.bob, content: 'Something' });
    const { id } = await openModal(ids.alice, target, { guildId: ids.guild, channelId: ids.general });
    const r = await submit(id, { when: 'when pigs fly' });
    const slash = await command(env.fake, { userId: ids.alice, name: 'remind', options: [{ name: 'message', value: 'x' }, { name: 'when', value: 'when pigs fly' }] });
    expect(r.content).toContain('when pigs fly');
    expect(r.content).toBe(slash.content);
    expect(r.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(await count()).toBe(before);
  });
});

describe('in a DM, in French and in Spanish', () => {
  it('in the DM with the bot: no "where" field, a DM reminder, the link with @me', async () => {
    // Alice's DM with the bot exists from the deliveries above.
    const dmChannel = env.fake.dmChannelIdOf(ids.alice)!;
    const target = env.fake.postUserMessage({ channelId: dmChannel, authorId: ids.alice, content: 'Buy milk' });
    const { id, modal } = await openModal(ids.alice, target, { channelId: dmChannel });
    expect(modal.components.map((c: any) => c.component.custom_id)).toEqual(['when', 'note']);
    const r = await submit(id, { when: 'in 3 hours' });
    expect(r.content).toContain('your direct messages');
    const shown = await (await apiFor(ids.alice)).get(`/api/reminders/${idFrom(r.content)}`);
    expect(shown.body.message).toBe(`💬 **alice**\n> Buy milk\n${jump('@me', dmChannel, target.id)}`);
  });

  it('speaks French: the modal, the time read in French, the confirmation', async () => {
    const target = env.fake.postUserMessage({ channelId: ids.general, authorId: ids.alice, content: 'Revue de code' });
    const { id, modal } = await openModal(ids.bob, target, { guildId: ids.guild, channelId: ids.general, locale: 'fr' });
    expect(modal.title).toBe('Me rappeler ce message');
    expect(modal.components.map((c: any) => c.label)).toEqual(['Quand', 'Note (facultative)', 'Où']);
    const r = await submit(id, { when: 'tous les lundis à 9h', note: 'À relire' });
    expect(r.content).toContain('✅ Rappel programmé : <t:');
    expect(r.content).toMatch(/<t:\d+:R>/);
    expect(r.content).toContain('**Où :** vos messages privés');
    const shown = await (await apiFor(ids.bob)).get(`/api/reminders/${idFrom(r.content)}`);
    expect(shown.body.recurrence_type).toBe('WEEKLY');
    expect(shown.body.message).toBe(`À relire\n\n💬 **alice**\n> Revue de code\n${jump(ids.guild, ids.general, target.id)}`);
    const bad = await openModal(ids.bob, target, { guildId: ids.guild, channelId: ids.general, locale: 'fr' });
    expect((await submit(bad.id, { when: 'quand les poules auront des dents' })).content).toBe("Je n'ai pas compris « quand les poules auront des dents » comme une date ou une heure. Essayez par exemple : `dans 10 minutes`, `demain à 9h`, `vendredi 18h30`, `2027-01-05 08:00`");
  });

  it('speaks Spanish too', async () => {
    const target = env.fake.postUserMessage({ channelId: ids.general, authorId: ids.alice, content: 'Factura' });
    const { id, modal } = await openModal(ids.carol, target, { guildId: ids.guild, channelId: ids.general, locale: 'es-ES' });
    expect(modal.title).toBe('Recordarme este mensaje');
    expect(modal.components.map((c: any) => c.label)).toEqual(['Cuándo', 'Nota (opcional)', 'Dónde']);
    expect(modal.components[2].component.options.map((o: any) => o.label)).toEqual(['Mensaje directo', 'Este canal']);
    const r = await submit(id, { when: 'mañana a las 9' });
    expect(r.content).toMatch(/^✅ Recordatorio programado: <t:\d+:F> \(<t:\d+:R>\)/);
    expect(r.content).toContain('**Dónde:** tus mensajes directos');
  });

  it('in a group DM (user install, Chime not in it): the form says the reminder comes by DM, which it does; "this channel" is refused', async () => {
    const groupId = '300000000000000777';
    env.fake.addGroupDm({ id: groupId, ownerId: ids.bob, recipientIds: [ids.alice, ids.carol], name: 'weekend' });
    const target = env.fake.postUserMessage({ channelId: groupId, authorId: ids.bob, content: 'Book the cabin <@' + ids.carol + '>' });
    const { id, modal } = await openModal(ids.alice, target, { channelId: groupId });
    // As Discord sends it: PRIVATE_CHANNEL (2), no guild, the group DM (type 3), the user's install.
    const payload = env.fake.interaction(id)!.payload;
    expect(payload).toMatchObject({ context: 2, channel: { id: groupId, type: 3 }, authorizing_integration_owners: { '1': ids.alice } });
    expect(payload.guild_id).toBeUndefined();
    // No "where" field: a Text Display (10) says where it goes instead.
    expect(modal.components.map((c: any) => c.type)).toEqual([18, 18, 10]);
    expect(modal.components.map((c: any) => c.component?.custom_id ?? null)).toEqual(['when', 'note', null]);
    expect(modal.components[2].content).toBe("Chime isn't in this conversation, so it can't post here: the reminder will come to you by direct message.");

    const r = await submit(id, { when: 'in 1 hour', note: 'Before friday' });
    expect(r.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(r.content).toContain('**Where:** your direct messages');
    const reminderId = idFrom(r.content);
    const link = jump('@me', groupId, target.id);
    const shown = await (await apiFor(ids.alice)).get(`/api/reminders/${reminderId}`);
    expect(shown.body.message).toBe(`Before friday\n\n💬 **bob**\n> Book the cabin @carol\n${link}`);
    expect(shown.body.destinations.map((d: any) => d.type)).toEqual(['discord_dm']);

    await fireNow(env.app, reminderId);
    const [dm] = await waitForMessages(env.fake, () => env.fake.dmMessagesTo(ids.alice).filter((m) => m.content.includes(link)));
    expect(dm!.content).toBe(`⏰ **Reminder**\n${shown.body.message}`);
    // Nothing was (or could be) posted in the group DM itself: only the user's message is there.
    expect(env.fake.messagesIn(groupId).map((m) => m.id)).toEqual([target.id]);
    expect(env.fake.requestsTo(new RegExp(`^/channels/${groupId}/messages`), 'POST')).toEqual([]);

    // /remind where:channel in the group DM gets the same answer; where:dm works there.
    const slash = await command(env.fake, { userId: ids.alice, channelId: groupId, name: 'remind', options: [{ name: 'message', value: 'x' }, { name: 'when', value: 'in 1 hour' }, { name: 'where', value: 'channel' }] });
    expect(slash.content).toBe('"This channel" only works in a server channel. Here, I can remind you by direct message.');
    expect(env.fake.unhandledRequests()).toEqual([]);
  });

  it('a modal whose form is no longer known (restart, expiry) asks to run the command again', async () => {
    const r = await interact(env.fake, env.fake.modalSubmit({ userId: ids.alice, customId: 'remmsg:123456789012345678', fields: { when: 'in 1 hour', note: '' } }));
    expect(r.data.content).toBe('This form has expired (or Chime restarted in the meantime). Use **Remind me about this** on the message again.');
  });
});
