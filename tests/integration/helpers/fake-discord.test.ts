import { once } from 'node:events';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
} from 'discord.js';
import { REST } from '@discordjs/rest';
import { fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  PermissionFlags,
  applyImplicitPermissions,
  canSendMessages,
  computeMemberPermissions,
  hasPermission,
  startFakeDiscord,
  type FakeDiscord,
} from '../../helpers/fake-discord/index.ts';

const DEMO = '100000000000000001';
const OTHER = '100000000000000002';
const OWNER = '100000000000000003';
const GUILD = '200000000000000001';
const NO_BOT_GUILD = '200000000000000002';
const GENERAL = '300000000000000001';
const LOCKED = '300000000000000002';
const VOICE = '300000000000000003';
const HIDDEN = '300000000000000004';
const TEAM = '400000000000000001';
const ADMINS = '400000000000000002';
const BOT_ROLE = '400000000000000003';

const P = PermissionFlags;

let fake: FakeDiscord;
let client: Client;
const interactions: Interaction[] = [];
const responses: string[] = [];
/** Error codes of showModal (null when Discord took the modal). */
const modalErrors: Array<number | null> = [];

beforeAll(async () => {
  fake = await startFakeDiscord();
  fake.addUser({ id: DEMO, username: 'demo', global_name: 'Demo User', email: 'demo@example.com' });
  fake.addUser({ id: OTHER, username: 'other' });
  fake.addUser({ id: OWNER, username: 'owner' });
  fake.addGuild({
    id: GUILD,
    name: 'Demo Server',
    ownerId: OWNER,
    channels: [
      { id: GENERAL, name: 'general', type: 0 },
      {
        id: LOCKED,
        name: 'announcements',
        type: 0,
        permission_overwrites: [
          { id: GUILD, type: 0, deny: P.SendMessages },
          { id: TEAM, type: 0, allow: P.SendMessages },
        ],
      },
      { id: VOICE, name: 'Voice', type: 2 },
      { id: HIDDEN, name: 'secret', type: 0, permission_overwrites: [{ id: GUILD, type: 'role', deny: P.ViewChannel }] },
    ],
    roles: [
      { id: TEAM, name: 'Team', color: 0x3498db, mentionable: true, permissions: 0n },
      { id: ADMINS, name: 'Admins', permissions: P.Administrator },
      { id: BOT_ROLE, name: 'Chime', managed: true, permissions: P.ViewChannel | P.SendMessages | P.EmbedLinks },
    ],
    members: [
      { userId: DEMO, roles: [TEAM] },
      { userId: OTHER, roles: [] },
    ],
  });
  fake.addGuild({ id: NO_BOT_GUILD, name: 'Elsewhere', ownerId: DEMO, botMember: false, channels: [{ id: '300000000000000009', name: 'general' }] });

  client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${fake.url}/api` } });
  client.on(Events.InteractionCreate, (i) => {
    interactions.push(i);
    void handle(i);
  });
  const ready = once(client, Events.ClientReady);
  await client.login(fake.botToken);
  await ready;
});

afterAll(async () => {
  await client?.destroy();
  await fake?.close();
});

async function handle(i: Interaction): Promise<void> {
  if (i.isChatInputCommand() && i.commandName === 'remind') {
    const sub = i.options.getSubcommand();
    const text = i.options.getString('text', true);
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('snooze:1').setLabel('Snooze').setStyle(ButtonStyle.Secondary),
    );
    await i.reply({ content: `${sub}: ${text} (${i.locale})`, components: [row], flags: MessageFlags.Ephemeral });
  } else if (i.isChatInputCommand() && i.commandName === 'ping') {
    const res = await i.reply({ content: 'pong', withResponse: true });
    responses.push(res.resource?.message?.id ?? 'none');
  } else if (i.isChatInputCommand() && i.commandName === 'later') {
    await i.deferReply();
    await i.editReply('done later');
    await i.followUp({ content: 'and a follow-up', flags: MessageFlags.Ephemeral });
  } else if (i.isMessageContextMenuCommand()) {
    const m = i.targetMessage;
    const modal = new ModalBuilder()
      .setCustomId(`quote:${m.id}`)
      .setTitle(`About ${m.author.username}`)
      .addLabelComponents(
        new LabelBuilder().setLabel('When').setTextInputComponent(new TextInputBuilder().setCustomId('when').setStyle(TextInputStyle.Short).setMaxLength(20)),
        new LabelBuilder().setLabel('Note').setTextInputComponent(new TextInputBuilder().setCustomId('note').setStyle(TextInputStyle.Paragraph).setRequired(false)),
        new LabelBuilder()
          .setLabel('Where')
          .setStringSelectMenuComponent(new StringSelectMenuBuilder().setCustomId('where').addOptions({ label: 'DM', value: 'dm', default: true }, { label: 'Here', value: 'here' })),
      );
    // The builders check lengths themselves: a raw payload reaches the fake's own checks.
    const shown = i.commandName === 'Too long' ? i.showModal({ ...modal.toJSON(), title: 'x'.repeat(46) }) : i.showModal(modal);
    modalErrors.push(await shown.then(() => null, (err: { code?: number }) => err.code ?? -1));
  } else if (i.isModalSubmit()) {
    const where = i.fields.getStringSelectValues('where');
    await i.reply({ content: `${i.customId} ${i.fields.getTextInputValue('when')}|${i.fields.getTextInputValue('note')}|${where.join(',')}`, flags: MessageFlags.Ephemeral });
  } else if (i.isButton()) {
    await i.update({ content: `snoozed by ${i.user.id}`, components: [] });
  } else if (i.isAutocomplete()) {
    const focused = i.options.getFocused();
    await i.respond([{ name: `in ${focused} minutes`, value: String(focused) }]);
  }
}

describe('fake Discord with the real discord.js client', () => {
  it('becomes ready and caches guild, channels, roles and members', () => {
    expect(client.user?.id).toBe(fake.clientId);
    expect(client.guilds.cache.has(NO_BOT_GUILD)).toBe(false);
    const guild = client.guilds.cache.get(GUILD)!;
    expect(guild.name).toBe('Demo Server');
    expect(guild.ownerId).toBe(OWNER);
    expect(guild.channels.cache.get(GENERAL)?.type).toBe(ChannelType.GuildText);
    expect(guild.channels.cache.get(VOICE)?.type).toBe(ChannelType.GuildVoice);
    expect(guild.roles.cache.get(TEAM)?.mentionable).toBe(true);
    expect(guild.roles.cache.get(TEAM)?.color).toBe(0x3498db);
    expect(guild.roles.cache.get(BOT_ROLE)?.managed).toBe(true);
    expect(guild.roles.everyone.id).toBe(GUILD);
    expect(guild.members.me?.roles.cache.has(BOT_ROLE)).toBe(true);
    expect(fake.gatewayConnections).toBe(1);
  });

  it('GUILD_CREATE / GUILD_DELETE when the bot joins and leaves', async () => {
    const joined = once(client, Events.GuildCreate);
    fake.addBotToGuild(NO_BOT_GUILD);
    const [g] = (await joined) as [{ id: string }];
    expect(g.id).toBe(NO_BOT_GUILD);
    const left = once(client, Events.GuildDelete);
    fake.removeBotFromGuild(NO_BOT_GUILD);
    await left;
    expect(client.guilds.cache.has(NO_BOT_GUILD)).toBe(false);
  });

  it('users.send DMs land in dmMessagesTo, channel.send lands in messagesIn', async () => {
    const dm = await client.users.send(DEMO, { content: 'Reminder: stand-up', allowedMentions: { parse: [] } });
    expect(dm.channel.type).toBe(ChannelType.DM);
    const [sent] = fake.dmMessagesTo(DEMO);
    expect(sent?.content).toBe('Reminder: stand-up');
    expect(sent?.body.allowed_mentions).toEqual({ parse: [] });
    // DM channel is stable per user
    const again = await client.users.createDM(DEMO, { force: true });
    expect(again.id).toBe(fake.dmChannelIdOf(DEMO));

    const channel = client.channels.cache.get(GENERAL);
    if (!channel?.isSendable()) throw new Error('not sendable');
    const msg = await channel.send({ content: `<@&${TEAM}> ping`, allowedMentions: { roles: [TEAM] }, nonce: '42', enforceNonce: true });
    expect(msg.id).toBe(fake.messagesIn(GENERAL)[0]!.id);
    expect(fake.messagesIn(GENERAL)[0]).toMatchObject({ content: `<@&${TEAM}> ping`, nonce: '42', mention_roles: [TEAM] });
    expect(msg.mentions.roles.has(TEAM)).toBe(true);
  });

  it('surfaces Discord errors (closed DMs, missing permissions, unknown channel)', async () => {
    fake.setAcceptsDms(OTHER, false);
    await expect(client.users.send(OTHER, 'hi')).rejects.toMatchObject({ code: 50007, status: 403 });
    const locked = client.channels.cache.get(LOCKED);
    if (!locked?.isSendable()) throw new Error('not sendable');
    await expect(locked.send('nope')).rejects.toMatchObject({ code: 50013 });
    fake.failNext({ method: 'POST', pathPattern: /\/channels\/\d+\/messages$/, status: 404, body: { code: 10003, message: 'Unknown Channel' } });
    const general = client.channels.cache.get(GENERAL);
    if (!general?.isSendable()) throw new Error('not sendable');
    await expect(general.send('gone')).rejects.toMatchObject({ code: 10003, status: 404 });
    await expect(client.guilds.cache.get(GUILD)!.members.fetch({ user: '100000000000000099', force: true })).rejects.toMatchObject({ code: 10007 });
  });

  it('publishes (crossposts) like Discord: announcement channels only, once, Manage Messages for a message not its own', async () => {
    const NEWS = '300000000000000031';
    fake.addChannel(GUILD, { id: NEWS, name: 'news', type: 5 });
    const rest = new REST({ api: `${fake.url}/api`, version: '10' }).setToken(fake.botToken);
    const own = (await rest.post(`/channels/${NEWS}/messages`, { body: { content: 'Release 2.0' } })) as { id: string };
    expect(await rest.post(`/channels/${NEWS}/messages/${own.id}/crosspost`)).toMatchObject({ id: own.id, flags: 1 });
    await expect(rest.post(`/channels/${NEWS}/messages/${own.id}/crosspost`)).rejects.toMatchObject({ status: 400, code: 40033 });
    const theirs = fake.postUserMessage({ channelId: NEWS, authorId: DEMO, content: 'hello' });
    await expect(rest.post(`/channels/${NEWS}/messages/${theirs.id}/crosspost`)).rejects.toMatchObject({ status: 403, code: 50013 });
    const inText = (await rest.post(`/channels/${GENERAL}/messages`, { body: { content: 'not news' } })) as { id: string };
    await expect(rest.post(`/channels/${GENERAL}/messages/${inText.id}/crosspost`)).rejects.toMatchObject({ status: 400, code: 50024 });
    // Posting in the chat of a voice channel takes View Channel and Send Messages, as in a text channel.
    expect(await rest.post(`/channels/${VOICE}/messages`, { body: { content: 'in the call chat' } })).toMatchObject({ channel_id: VOICE });
    fake.removeChannel(NEWS);
  });

  it('keeps threads as Discord does: apart from the channel list, parent overwrites, archived and locked, private ones hidden', async () => {
    const [PLANS, SECRET, JOINED, OLD] = ['300000000000000041', '300000000000000042', '300000000000000043', '300000000000000044'];
    const thread = (id: string, name: string, extra: Record<string, unknown> = {}) => ({ id, name, type: 11, parent_id: GENERAL, owner_id: DEMO, ...extra });
    const created = once(client, Events.ThreadCreate);
    fake.addChannel(GUILD, thread(PLANS, 'plans'));
    expect(((await created) as [{ id: string; parentId: string }])[0]).toMatchObject({ id: PLANS, parentId: GENERAL });
    fake.addChannel(GUILD, thread(SECRET, 'secret', { type: 12, member_ids: [DEMO] }));
    fake.addChannel(GUILD, thread(JOINED, 'joined', { type: 12, member_ids: [DEMO, fake.clientId] }));
    fake.addChannel(GUILD, thread(OLD, 'old', { thread_metadata: { archived: true } }));
    const rest = new REST({ api: `${fake.url}/api`, version: '10' }).setToken(fake.botToken);
    try {
      const channels = (await rest.get(`/guilds/${GUILD}/channels`)) as Array<{ id: string }>;
      expect(channels.map((c) => c.id)).not.toContain(PLANS);
      expect(await rest.get(`/channels/${PLANS}`)).toMatchObject({ type: 11, parent_id: GENERAL, guild_id: GUILD, thread_metadata: { archived: false, locked: false } });
      // Send Messages in Threads, not Send Messages, is what a thread takes (from its parent's overwrites).
      fake.updateChannel(GENERAL, { permission_overwrites: [{ id: fake.clientId, type: 1, deny: PermissionFlags.SendMessagesInThreads }] });
      await expect(rest.post(`/channels/${PLANS}/messages`, { body: { content: 'x' } })).rejects.toMatchObject({ status: 403, code: 50013 });
      fake.updateChannel(GENERAL, { permission_overwrites: [] });
      expect(await rest.post(`/channels/${PLANS}/messages`, { body: { content: 'in the thread' } })).toMatchObject({ channel_id: PLANS });
      // A private thread is hidden from a bot outside it; its members are answered.
      await expect(rest.get(`/channels/${SECRET}`)).rejects.toMatchObject({ status: 403, code: 50001 });
      expect(await rest.get(`/channels/${JOINED}/thread-members/${DEMO}`)).toMatchObject({ id: JOINED, user_id: DEMO });
      await expect(rest.get(`/channels/${JOINED}/thread-members/${OTHER}`)).rejects.toMatchObject({ status: 404, code: 10007 });
      const active = (await rest.get(`/guilds/${GUILD}/threads/active`)) as { threads: Array<{ id: string }>; members: Array<{ id: string }> };
      expect(active.threads.map((t) => t.id).sort()).toEqual([PLANS, JOINED].sort());
      expect(active.members.map((m) => m.id)).toEqual([JOINED]);
      // Archived: no post until reopened; reopening an unlocked one takes Send Messages in Threads, a locked one Manage Threads.
      await expect(rest.post(`/channels/${OLD}/messages`, { body: { content: 'x' } })).rejects.toMatchObject({ status: 400, code: 50083 });
      expect(((await rest.get(`/channels/${GENERAL}/threads/archived/public`)) as { threads: Array<{ id: string }> }).threads.map((t) => t.id)).toEqual([OLD]);
      fake.updateChannel(OLD, { thread_metadata: { archived: true, locked: true } });
      await expect(rest.patch(`/channels/${OLD}`, { body: { archived: false } })).rejects.toMatchObject({ status: 403, code: 50013 });
      fake.updateChannel(OLD, { thread_metadata: { archived: true, locked: false } });
      expect(await rest.patch(`/channels/${OLD}`, { body: { archived: false } })).toMatchObject({ thread_metadata: { archived: false } });
      expect(await rest.post(`/channels/${OLD}/messages`, { body: { content: 'reopened' } })).toMatchObject({ channel_id: OLD });
    } finally {
      for (const id of [PLANS, SECRET, JOINED, OLD]) fake.removeChannel(id);
    }
  });

  it('opens forum posts as Discord does: a message, the forum\'s own tags, REQUIRE_TAG, moderated tags', async () => {
    const [FORUM, TAG, MOD_TAG] = ['300000000000000051', '300000000000000052', '300000000000000053'];
    fake.addChannel(GUILD, { id: FORUM, name: 'ideas', type: 15, flags: 1 << 4, available_tags: [{ id: TAG, name: 'idea' }, { id: MOD_TAG, name: 'done', moderated: true }] });
    const rest = new REST({ api: `${fake.url}/api`, version: '10' }).setToken(fake.botToken);
    try {
      await expect(rest.post(`/channels/${FORUM}/messages`, { body: { content: 'x' } })).rejects.toMatchObject({ status: 400, code: 50008 });
      await expect(rest.post(`/channels/${FORUM}/threads`, { body: { name: 'No tag', message: { content: 'x' } } })).rejects.toMatchObject({ status: 400, code: 40067 });
      await expect(rest.post(`/channels/${FORUM}/threads`, { body: { name: 'Bad tag', applied_tags: [GENERAL], message: { content: 'x' } } })).rejects.toMatchObject({ status: 400, code: 50035 });
      await expect(rest.post(`/channels/${FORUM}/threads`, { body: { name: 'Moderated', applied_tags: [MOD_TAG], message: { content: 'x' } } })).rejects.toMatchObject({ status: 403, code: 50013 });
      const post = (await rest.post(`/channels/${FORUM}/threads`, { body: { name: 'Stand-up notes', applied_tags: [TAG], message: { content: 'First!' } } })) as {
        id: string;
        type: number;
        parent_id: string;
        applied_tags: string[];
        message: { id: string; channel_id: string; content: string };
      };
      expect(post).toMatchObject({ type: 11, parent_id: FORUM, applied_tags: [TAG], message: { id: post.id, channel_id: post.id, content: 'First!' } });
      expect(fake.threadsIn(FORUM).map((t) => t.name)).toEqual(['Stand-up notes']);
      expect(fake.messagesIn(post.id)[0]!.content).toBe('First!');
    } finally {
      for (const t of fake.threadsIn(FORUM)) fake.removeChannel(t.id);
      fake.removeChannel(FORUM);
    }
  });

  it('retries a 429 with Retry-After transparently', async () => {
    fake.rateLimitNext({ method: 'POST', pathPattern: /\/channels\/\d+\/messages$/, retryAfter: 0.2 });
    const channel = client.channels.cache.get(GENERAL);
    if (!channel?.isSendable()) throw new Error('not sendable');
    const started = Date.now();
    await channel.send('after rate limit');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    const attempts = fake.requestsTo(new RegExp(`^/channels/${GENERAL}/messages$`), 'POST').slice(-2);
    expect(attempts.map((r) => r.status)).toEqual([429, 200]);
    expect(fake.messagesIn(GENERAL).at(-1)?.content).toBe('after rate limit');
  });

  it('a 500 is retried by @discordjs/rest, and bot auth is enforced', async () => {
    fake.failNext({ method: 'GET', pathPattern: /^\/guilds\/\d+\/roles$/, status: 500, body: { message: '500: Internal Server Error', code: 0 } });
    const roles = await client.guilds.cache.get(GUILD)!.roles.fetch(undefined, { force: true });
    expect(roles.has(TEAM)).toBe(true);
    const res = await fetch(`${fake.apiUrl}/users/@me`, { headers: { authorization: 'Bot wrong' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bot');
  });

  it('registers commands (bulk overwrite) with ids', async () => {
    const body = [
      {
        name: 'remind',
        description: 'Create a reminder',
        options: [
          {
            type: 1,
            name: 'me',
            description: 'Remind me',
            options: [
              { type: 3, name: 'text', description: 'What', required: true },
              { type: 4, name: 'minutes', description: 'When', autocomplete: true },
            ],
          },
        ],
      },
      { name: 'later', description: 'Deferred reply' },
    ];
    const global = await client.application!.commands.set(body);
    expect(global.size).toBe(2);
    expect(fake.registeredCommands().map((c) => c.name)).toEqual(['remind', 'later']);
    const rest = new REST({ api: `${fake.url}/api`, version: '10' }).setToken(fake.botToken);
    await rest.put(`/applications/${fake.clientId}/guilds/${GUILD}/commands`, { body: [{ name: 'guildonly', description: 'x' }] });
    expect(fake.registeredCommands(GUILD)[0]).toMatchObject({ name: 'guildonly', guild_id: GUILD });
    await expect(rest.put(`/applications/${fake.clientId}/commands`, { body: [{ name: 'Bad Name', description: 'x' }] })).rejects.toMatchObject({
      code: 50035,
    });
  });

  it('slash command -> interactionCreate -> ephemeral reply with components; button press -> update', async () => {
    const { id } = fake.dispatchInteraction(
      fake.slashCommand({
        name: 'remind',
        userId: DEMO,
        guildId: GUILD,
        channelId: GENERAL,
        locale: 'de',
        options: [{ name: 'me', options: [{ name: 'text', value: 'water plants' }, { name: 'minutes', value: 5 }] }],
      }),
    );
    const reply = await fake.waitForInteractionResponse(id);
    expect(reply).toMatchObject({ kind: 'callback', type: 4 });
    expect(reply.data.content).toBe('me: water plants (de)');
    expect(reply.data.flags).toBe(MessageFlags.Ephemeral);
    expect(reply.data.components[0].components[0].custom_id).toBe('snooze:1');

    const received = interactions.find((i) => i.id === id)!;
    expect(received.isChatInputCommand()).toBe(true);
    expect(received.inGuild() && received.memberPermissions.has(PermissionFlagsBits.SendMessages)).toBe(true);
    expect(received.appPermissions?.has(PermissionFlagsBits.EmbedLinks)).toBe(true);
    expect(received.guildLocale).toBe('en-US');

    const original = fake.interaction(id)!.original!;
    const press = fake.dispatchInteraction(
      fake.buttonPress({ customId: 'snooze:1', userId: DEMO, guildId: GUILD, channelId: GENERAL, messageId: original.id }),
    );
    const update = await fake.waitForInteractionResponse(press.id);
    expect(update).toMatchObject({ kind: 'callback', type: 7, messageId: original.id });
    expect(update.data).toMatchObject({ content: `snoozed by ${DEMO}`, components: [] });
    expect(original.content).toBe(`snoozed by ${DEMO}`);
  });

  it('message command: the target message resolved, a modal in Labels, its submission read by discord.js', async () => {
    const rest = new REST({ api: `${fake.url}/api`, version: '10' }).setToken(fake.botToken);
    // Context-menu commands take no description and no options, like Discord says.
    await expect(rest.put(`/applications/${fake.clientId}/guilds/${GUILD}/commands`, { body: [{ type: 3, name: 'Quote', description: 'x' }] })).rejects.toMatchObject({ code: 50035 });
    await rest.put(`/applications/${fake.clientId}/guilds/${GUILD}/commands`, { body: [{ name: 'guildonly', description: 'x' }, { type: 3, name: 'Quote it' }] });
    expect(fake.registeredCommands(GUILD)[1]).toMatchObject({ type: 3, name: 'Quote it', description: '' });

    const target = fake.postUserMessage({ channelId: GENERAL, authorId: OTHER, content: `hi <@${DEMO}> <@&${TEAM}> @everyone`, attachments: [{ filename: 'a.png', contentType: 'image/png' }] });
    // OTHER may not mention everyone: @everyone stays text, the mentionable role and the user are mentions.
    expect(target).toMatchObject({ mentions: [DEMO], mention_roles: [TEAM], mention_everyone: false });
    const payload = fake.slashCommand({ name: 'Quote it', commandType: 3, targetId: target.id, userId: DEMO, guildId: GUILD, channelId: GENERAL });
    expect(payload.data).toMatchObject({ type: 3, target_id: target.id });
    expect(payload.data.resolved.messages[target.id]).not.toHaveProperty('guild_id');
    const { id } = fake.dispatchInteraction(payload);
    expect(await fake.waitForInteractionResponse(id)).toMatchObject({ kind: 'callback', type: 9 });
    const received = interactions.find((i) => i.id === id)!;
    expect(received.isMessageContextMenuCommand() && [received.targetMessage.content, received.targetMessage.attachments.first()?.name]).toEqual([
      `hi <@${DEMO}> <@&${TEAM}> @everyone`,
      'a.png',
    ]);
    // Discord numbers the components the app left unnumbered.
    const modal = fake.interaction(id)!.modal!;
    expect(modal.components.map((c) => [c.type, c.id, c.component.type, c.component.id])).toEqual([
      [18, 1, 4, 2],
      [18, 3, 4, 4],
      [18, 5, 3, 6],
    ]);

    // What the client would not let through.
    expect(() => fake.submitModal(id, { values: { when: '' } })).toThrow(/required/);
    expect(() => fake.submitModal(id, { values: { when: 'x'.repeat(21) } })).toThrow(/characters/);
    expect(() => fake.submitModal(id, { values: { when: 'soon', where: 'nowhere' } })).toThrow(/options/);
    expect(() => fake.submitModal(id, { values: { when: 'soon', other: 'x' } })).toThrow(/no field other/);

    const submitted = fake.submitModal(id, { values: { when: 'soon', where: 'here' } });
    expect(submitted).toMatchObject({ type: 5, guild_id: GUILD, channel_id: GENERAL, member: { user: { id: DEMO } } });
    expect(submitted.data).toEqual({
      custom_id: `quote:${target.id}`,
      components: [
        { type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'when', value: 'soon' } },
        { type: 18, id: 3, component: { type: 4, id: 4, custom_id: 'note', value: '' } },
        { type: 18, id: 5, component: { type: 3, id: 6, custom_id: 'where', values: ['here'] } },
      ],
    });
    const answer = fake.dispatchInteraction(submitted);
    expect((await fake.waitForInteractionResponse(answer.id)).data.content).toBe(`quote:${target.id} soon||here`);
    // The select's default when the user leaves it.
    const again = fake.dispatchInteraction(fake.slashCommand({ name: 'Quote it', commandType: 3, targetId: target.id, userId: DEMO, guildId: GUILD, channelId: GENERAL }));
    await fake.waitForInteractionResponse(again.id);
    const second = fake.dispatchInteraction(fake.submitModal(again.id, { values: { when: 'later', note: 'n' } }));
    expect((await fake.waitForInteractionResponse(second.id)).data.content).toBe(`quote:${target.id} later|n|dm`);

    // A modal Discord refuses (title over 45 characters) is a 400 Invalid Form Body, and none is shown.
    const bad = fake.dispatchInteraction(fake.slashCommand({ name: 'Too long', commandType: 3, targetId: target.id, userId: DEMO, guildId: GUILD, channelId: GENERAL }));
    await fake.waitFor(() => modalErrors.length === 3, 3000, 'modal refused');
    expect(modalErrors).toEqual([null, null, 50035]);
    expect(fake.interaction(bad.id)!.modal).toBeUndefined();
  });

  it('button press in a DM and a deferred reply + edit + follow-up', async () => {
    const press = fake.dispatchInteraction(fake.buttonPress({ customId: 'snooze:1', userId: OTHER }));
    const update = await fake.waitForInteractionResponse(press.id);
    expect(update.type).toBe(7);
    expect(interactions.find((i) => i.id === press.id)?.channel?.type).toBe(ChannelType.DM);

    const later = fake.dispatchInteraction(fake.slashCommand({ name: 'later', userId: DEMO, guildId: GUILD, channelId: GENERAL }));
    const follow = await fake.waitForInteractionResponse(later.id, { kind: 'followup' });
    expect(follow.data.content).toBe('and a follow-up');
    expect(fake.interactionResponses(later.id).map((r) => r.kind)).toEqual(['callback', 'editOriginal', 'followup']);
    expect(fake.interaction(later.id)!.original!.content).toBe('done later');
  });

  it('refuses a first response that comes more than 3 s after the interaction, like Discord', async () => {
    // A command the test client does not answer; the callback is sent by hand.
    const send = async (id: string, token: string) =>
      fetch(`${fake.url}/api/v10/interactions/${id}/${token}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 4, data: { content: 'late' } }) });
    const inTime = fake.dispatchInteraction(fake.slashCommand({ name: 'unanswered', userId: DEMO }));
    expect((await send(inTime.id, inTime.token)).status).toBe(204);
    const late = fake.dispatchInteraction(fake.slashCommand({ name: 'unanswered', userId: DEMO }));
    await new Promise((r) => setTimeout(r, 3100));
    const res = await send(late.id, late.token);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 10062, message: 'Unknown interaction' });
    expect(fake.interactionResponses(late.id)).toEqual([]);
  });

  it('reply with withResponse (with_response=true) returns the message', async () => {
    const { id } = fake.dispatchInteraction(fake.slashCommand({ name: 'ping', userId: DEMO, guildId: GUILD, channelId: GENERAL }));
    const r = await fake.waitForInteractionResponse(id);
    expect(r.withResponse).toBe(true);
    await fake.waitFor(() => responses.length > 0);
    expect(responses[0]).toBe(fake.interaction(id)!.original!.id);
  });

  it('resumes after a server-side disconnect and keeps receiving events', async () => {
    const resumed = once(client, Events.ShardResume);
    fake.disconnectGateway(4000);
    await resumed;
    expect(fake.gateway.received.some((p) => p.op === 6)).toBe(true);
    const { id } = fake.dispatchInteraction(fake.slashCommand({ name: 'ping', userId: DEMO }));
    await fake.waitForInteractionResponse(id);
  });

  it('autocomplete reaches the bot and the choices are recorded', async () => {
    const ac = fake.dispatchInteraction(
      fake.autocomplete({
        name: 'remind',
        userId: DEMO,
        guildId: GUILD,
        channelId: GENERAL,
        options: [{ name: 'me', options: [{ name: 'text', value: 'x' }, { name: 'minutes', value: '1', focused: true }] }],
      }),
    );
    const r = await fake.waitForInteractionResponse(ac.id);
    expect(r).toMatchObject({ type: 8, data: { choices: [{ name: 'in 1 minutes', value: '1' }] } });
  });

  it('computes permissions with overwrites like Discord (and like discord.js)', () => {
    const guild = client.guilds.cache.get(GUILD)!;
    const locked = guild.channels.cache.get(LOCKED)!;
    // @everyone denied SendMessages, Team role allowed
    expect(hasPermission(fake.computePermissions(GUILD, OTHER, LOCKED), P.SendMessages)).toBe(false);
    expect(hasPermission(fake.computePermissions(GUILD, DEMO, LOCKED), P.SendMessages)).toBe(true);
    expect(hasPermission(fake.computePermissions(GUILD, OTHER, GENERAL), P.SendMessages)).toBe(true);
    expect(canSendMessages(fake.computePermissions(GUILD, fake.clientId, LOCKED))).toBe(false);
    expect(fake.computePermissions(GUILD, OWNER, LOCKED)).toBe(ALL_PERMISSIONS);
    expect(applyImplicitPermissions(fake.computePermissions(GUILD, OTHER, HIDDEN))).toBe(0n);
    // cross-check with discord.js' own implementation for every member x channel
    for (const userId of [DEMO, OTHER, OWNER, fake.clientId]) {
      for (const channelId of [GENERAL, LOCKED, VOICE, HIDDEN]) {
        const djs = guild.channels.cache.get(channelId)!.permissionsFor(userId)!.bitfield;
        expect(fake.computePermissions(GUILD, userId, channelId), `${userId} in ${channelId}`).toBe(djs);
      }
    }
    expect(locked.permissionsFor(DEMO)!.has(PermissionFlagsBits.SendMessages)).toBe(true);
    // member overwrite beats role allow; Administrator beats everything
    const ctx = { guildId: GUILD, ownerId: OWNER, userId: DEMO, roles: [{ id: GUILD, permissions: P.ViewChannel | P.SendMessages }], memberRoleIds: [TEAM] };
    const ow = [
      { id: TEAM, type: 0 as const, allow: P.SendMessages, deny: 0n },
      { id: DEMO, type: 1 as const, allow: 0n, deny: P.SendMessages },
    ];
    expect(hasPermission(computeMemberPermissions(ctx, ow), P.SendMessages)).toBe(false);
    expect(computeMemberPermissions({ ...ctx, roles: [...ctx.roles, { id: ADMINS, permissions: P.Administrator }], memberRoleIds: [ADMINS] }, ow)).toBe(ALL_PERMISSIONS);
    const timedOut = computeMemberPermissions({ ...ctx, communicationDisabledUntil: new Date(Date.now() + 60_000).toISOString() }, []);
    expect(timedOut).toBe(P.ViewChannel);
  });
});

describe('OAuth2 with plain fetch', () => {
  const redirectUri = 'http://localhost:5173/auth/callback';

  async function token(form: Record<string, string>, basic = false) {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams(form);
    if (basic) headers.authorization = `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`;
    else {
      body.set('client_id', fake.clientId);
      body.set('client_secret', form.client_secret ?? fake.clientSecret);
    }
    const res = await fetch(`${fake.apiUrl}/oauth2/token`, { method: 'POST', headers, body });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  it('authorize redirect -> code -> token -> users/@me + guilds + member; refresh after expiry', async () => {
    fake.setAuthorizingUser(DEMO);
    const authorize = new URL(`${fake.url}/oauth2/authorize`);
    authorize.search = new URLSearchParams({
      client_id: fake.clientId,
      response_type: 'code',
      scope: 'identify email guilds guilds.members.read',
      redirect_uri: redirectUri,
      state: 'xyz',
    }).toString();
    const res = await fetch(authorize, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('xyz');
    const code = location.searchParams.get('code')!;

    const bad = await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://evil.example/cb' });
    expect(bad).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' } });
    const wrongSecret = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_secret: 'nope' });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe('invalid_client');

    const ok = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }, true);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', scope: 'identify email guilds guilds.members.read', expires_in: 604800 });
    const reused = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    expect(reused.body.error).toBe('invalid_grant');

    const auth = { authorization: `Bearer ${ok.body.access_token}` };
    const me = (await (await fetch(`${fake.apiUrl}/users/@me`, { headers: auth })).json()) as Record<string, unknown>;
    expect(me).toMatchObject({ id: DEMO, username: 'demo', global_name: 'Demo User', email: 'demo@example.com', verified: true, avatar: null });

    const guilds = (await (await fetch(`${fake.apiUrl}/users/@me/guilds`, { headers: auth })).json()) as Array<Record<string, any>>;
    const demoServer = guilds.find((g) => g.id === GUILD)!;
    expect(demoServer.owner).toBe(false);
    expect(BigInt(demoServer.permissions)).toBe(fake.computePermissions(GUILD, DEMO));
    expect(guilds.find((g) => g.id === NO_BOT_GUILD)).toMatchObject({ owner: true, permissions: ALL_PERMISSIONS.toString() });

    const member = (await (await fetch(`${fake.apiUrl}/users/@me/guilds/${GUILD}/member`, { headers: auth })).json()) as Record<string, any>;
    expect(member.roles).toEqual([TEAM]);
    expect(member.user.id).toBe(DEMO);

    fake.expireAccessToken(ok.body.access_token);
    expect((await fetch(`${fake.apiUrl}/users/@me`, { headers: auth })).status).toBe(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: ok.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(ok.body.access_token);
    const me2 = await fetch(`${fake.url}/api/users/@me`, { headers: { authorization: `Bearer ${refreshed.body.access_token}` } });
    expect(me2.status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: ok.body.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('authorizeCode helper and access_denied when no user is authorizing', async () => {
    const code = fake.authorizeCode(OTHER, { scopes: ['identify'] });
    const ok = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    expect(ok.body.scope).toBe('identify');
    const me = (await (await fetch(`${fake.apiUrl}/users/@me`, { headers: { authorization: `Bearer ${ok.body.access_token}` } })).json()) as Record<string, unknown>;
    expect(me.id).toBe(OTHER);
    expect(me.email).toBeUndefined();
    expect((await fetch(`${fake.apiUrl}/users/@me/guilds`, { headers: { authorization: `Bearer ${ok.body.access_token}` } })).status).toBe(401);

    fake.setAuthorizingUser(null);
    const res = await fetch(
      `${fake.url}/oauth2/authorize?client_id=${fake.clientId}&response_type=code&scope=identify&redirect_uri=${encodeURIComponent(redirectUri)}&state=s`,
      { redirect: 'manual' },
    );
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s');
  });

  it('unknown routes are 404 and recorded', async () => {
    const res = await fetch(`${fake.apiUrl}/nope/123`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: '404: Not Found', code: 0 });
    expect(fake.unhandledRequests().at(-1)?.route).toBe('/nope/123');
  });
});

describe('bookkeeping', () => {
  it('discord.js only used routes the fake implements', () => {
    expect(fake.unhandledRequests().map((r) => `${r.method} ${r.route}`)).toEqual(['GET /nope/123']);
  });
});
