// Runs on SQLite only: the bot calls the reminder service that the API suites run on both databases (vitest.config.ts).
/**
 * Slash commands end to end: the real discord.js client connected to the fake Discord, a real
 * Chime server and SQLite file. Interactions go in through the fake's gateway, replies come back
 * through its REST API.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInteractionChannelAccess } from '../../../bot/access.ts';
import { createReminder } from '../../../server/reminders/service.ts';
import { instantToDateTime } from '../../../server/time/zoned.ts';
import { accountOf, command, EPHEMERAL, fireNow, ids, interact, P, PUBLIC_URL, reminderRows, startBotEnv, waitForMessages, type BotEnv } from '../../helpers/bot-harness.ts';

let env: BotEnv;
beforeAll(async () => {
  env = await startBotEnv();
});
afterAll(async () => {
  await env?.server.close();
  await env?.fake.close();
});

const remind = (userId: string, options: Array<{ name: string; value: string | number }>, extra: { guildId?: string; channelId?: string; locale?: string } = {}) =>
  command(env.fake, { userId, name: 'remind', options, ...extra });
/** /remind in a server without the bot, through the user's own installation of the app. */
const inOtherGuild = (userId: string, options: Array<{ name: string; value: string }>, locale?: string) =>
  remind(userId, options, { guildId: ids.otherGuild, channelId: ids.otherChannel, ...(locale ? { locale } : {}) });

describe('connection and registration', () => {
  it('identifies with the Guilds intent only and registers the commands globally, localized in fr and es', async () => {
    const identify = env.fake.gateway.received.find((p) => p.op === 2);
    expect((identify?.d as { intents: number }).intents).toBe(1);
    const commands = env.fake.registeredCommands();
    expect(commands.filter((c) => c.type === 1).map((c) => c.name).sort()).toEqual(['remind', 'reminder', 'reminders', 'server', 'timezone']);
    // The message command: tests/integration/bot/remind-message.test.ts.
    expect(commands.filter((c) => c.type !== 1).map((c) => [c.type, c.name])).toEqual([[3, 'Remind me about this']]);
    const remindCmd = commands.find((c) => c.name === 'remind') as any;
    expect(remindCmd.name_localizations).toMatchObject({ fr: 'rappeler', 'es-ES': 'recordar', 'es-419': 'recordar' });
    expect(remindCmd.description_localizations).toMatchObject({ fr: 'Créer un rappel', 'es-ES': 'Crear un recordatorio' });
    const repeat = remindCmd.options.find((o: any) => o.name === 'repeat');
    expect(repeat.name_localizations.fr).toBe('répétition');
    expect(repeat.choices).toHaveLength(8);
    expect(repeat.choices.find((c: any) => c.value === 'WORKDAYS').name_localizations['es-ES']).toBe('Entre semana (de lunes a viernes)');
    const where = remindCmd.options.find((o: any) => o.name === 'where');
    expect(where.choices.map((c: any) => c.value)).toEqual(['dm', 'channel']);
    const reminder = commands.find((c) => c.name === 'reminder') as any;
    expect(reminder.options.map((o: any) => o.name)).toEqual(['edit', 'skip', 'pause', 'resume', 'delete', 'snooze']);
    expect(reminder.options[5].name_localizations).toMatchObject({ fr: 'reporter', 'es-ES': 'posponer' });
    expect(reminder.options[0].options.map((o: any) => o.name)).toEqual(['reminder', 'message', 'when', 'repeat']);
    expect(env.fake.unhandledRequests()).toEqual([]);
  });

  it('offers every command to servers and to users who add Chime to their account (user install)', () => {
    for (const c of env.fake.registeredCommands() as any[]) {
      // 0 GUILD_INSTALL, 1 USER_INSTALL; contexts 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL (group DMs).
      expect({ name: c.name, integration_types: c.integration_types, contexts: c.contexts }).toEqual({ name: c.name, integration_types: [0, 1], contexts: [0, 1, 2] });
    }
  });
});

describe('/remind', () => {
  it('creates the account on first use, replies ephemerally, and the DM arrives with buttons', async () => {
    const r = await remind(ids.alice, [
      { name: 'message', value: 'Water the plants @everyone' },
      { name: 'when', value: 'in 10 minutes' },
    ]);
    expect(r.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(r.data.allowed_mentions).toEqual({ parse: [] });
    const unixes = [...r.content.matchAll(/<t:(\d+):([FR])>/g)];
    expect(unixes.map((m) => m[2])).toEqual(['F', 'R']);
    const fire = Number(unixes[0]![1]) * 1000;
    expect(Math.abs(fire - (Date.now() + 600_000))).toBeLessThan(5_000);
    expect(r.content).toContain('Once');
    expect(r.content).toContain('your direct messages');

    const account = (await accountOf(env.app, ids.alice))!;
    expect(account).toMatchObject({ email: null, username: 'alice', timezone: 'UTC', locale: 'en-US' });
    const [row] = await reminderRows(env.app, account.id);
    expect(row).toMatchObject({ message: 'Water the plants @everyone', recurrence_type: 'ONCE', timezone: 'UTC', is_paused: 0 });
    expect(r.content).toContain(`${PUBLIC_URL}/reminders/${row!.id}`);
    const dest = await env.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', row!.id).execute();
    expect(dest.map((d) => [d.type, d.metadata])).toEqual([['discord_dm', '{}']]);

    // Due now: the real scheduler delivers it through the DM sender.
    await fireNow(env.app, row!.id);
    const [dm] = await waitForMessages(env.fake, () => env.fake.dmMessagesTo(ids.alice));
    expect(dm!.content).toBe('⏰ **Reminder**\nWater the plants @everyone');
    expect(dm!.mention_everyone).toBe(false);
    expect(dm!.body.allowed_mentions).toEqual({ parse: [] });
    expect(dm!.body.enforce_nonce).toBe(true);
    expect(String(dm!.nonce)).toHaveLength(25);
    expect((dm!.components as any[])[0].components.map((c: any) => c.custom_id)).toEqual([
      `rem:snooze10:${row!.id}`,
      `rem:snooze60:${row!.id}`,
      // Tomorrow carries the occurrence it delivered (the fired one-off's instant).
      expect.stringMatching(new RegExp(`^rem:tomorrow:${row!.id}:\\d+$`)),
      `rem:done:${row!.id}`,
    ]);
    const identity = await env.app.db.selectFrom('identities').selectAll().where('external_id', '=', ids.alice).executeTakeFirstOrThrow();
    expect(identity.dm_channel_id).toBe(env.fake.dmChannelIdOf(ids.alice));
    await env.fake.waitFor(async () => {
      const d = await env.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', row!.id).executeTakeFirst();
      return d?.status === 'delivered';
    }, 3000, 'delivered');
    const after = await env.app.db.selectFrom('reminders').selectAll().where('id', '=', row!.id).executeTakeFirstOrThrow();
    expect(after.next_fire_utc).toBeNull();
  });

  it('posts in the channel mentioning the role, and only that role may ping', async () => {
    const r = await remind(
      ids.alice,
      [
        { name: 'message', value: 'Stand-up <@&300000000000000022>' },
        { name: 'when', value: 'tomorrow at 9' },
        { name: 'repeat', value: 'WORKDAYS' },
        { name: 'where', value: 'channel' },
        { name: 'role', value: ids.team },
      ],
      { guildId: ids.guild, channelId: ids.general },
    );
    expect(r.content).toContain(`<#${ids.general}>, mentioning <@&${ids.team}>`);
    expect(r.content).toContain('Weekdays (Monday to Friday)');
    const id = /reminders\/([\w-]+)/.exec(r.content)![1]!;
    const dest = await env.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(dest.metadata)).toMatchObject({ guild_id: ids.guild, channel_id: ids.general, mention_role_id: ids.team, mention_role_name: 'team' });
    expect(JSON.parse(dest.metadata).channel_name).toBe('general');

    await fireNow(env.app, id);
    const [msg] = await waitForMessages(env.fake, () => env.fake.messagesIn(ids.general));
    expect(msg!.content).toBe(`<@&${ids.team}> ⏰ **Reminder**\nStand-up <@&300000000000000022>`);
    expect(msg!.body.allowed_mentions).toEqual({ parse: [], roles: [ids.team] });
    expect(msg!.mention_roles).toEqual([ids.team]);
    expect((msg!.components as any[])[0].components).toHaveLength(4);
    // A recurring reminder goes on.
    const row = await env.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.next_fire_utc).not.toBeNull();
  });

  it('works in the text chat of a voice channel: created there, labelled with its kind, delivered there', async () => {
    const r = await remind(
      ids.alice,
      [
        { name: 'message', value: 'Game night' },
        { name: 'when', value: 'tomorrow at 9' },
        { name: 'where', value: 'channel' },
      ],
      { guildId: ids.guild, channelId: ids.voice },
    );
    expect(r.content).toContain(`<#${ids.voice}>`);
    const id = /reminders\/([\w-]+)/.exec(r.content)![1]!;
    const dest = await env.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(dest.metadata)).toMatchObject({ guild_id: ids.guild, channel_id: ids.voice, channel_name: 'voice', channel_type: 2 });

    await fireNow(env.app, id);
    const [msg] = await waitForMessages(env.fake, () => env.fake.messagesIn(ids.voice));
    expect(msg!.content).toBe('⏰ **Reminder**\nGame night');
  });

  it('works in a thread: created there with the thread kind, delivered into it; refused in a private thread the bot is not in, saying so', async () => {
    const r = await remind(ids.alice, [{ name: 'message', value: 'Ship it' }, { name: 'when', value: 'tomorrow at 9' }, { name: 'where', value: 'channel' }], {
      guildId: ids.guild,
      channelId: ids.thread,
    });
    expect(r.content).toContain(`<#${ids.thread}>`);
    const id = /reminders\/([\w-]+)/.exec(r.content)![1]!;
    const dest = await env.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(dest.metadata)).toMatchObject({ guild_id: ids.guild, channel_id: ids.thread, channel_name: 'plans', channel_type: 11 });
    await fireNow(env.app, id);
    const [msg] = await waitForMessages(env.fake, () => env.fake.messagesIn(ids.thread));
    expect(msg!.content).toBe('⏰ **Reminder**\nShip it');

    // Alice is in this private thread; the bot was never added.
    const secret = '300000000000000032';
    env.fake.addChannel(ids.guild, { id: secret, name: 'secret-plans', type: 12, parent_id: ids.general, owner_id: ids.alice, member_ids: [ids.alice] });
    const refused = await remind(ids.alice, [{ name: 'message', value: 'x' }, { name: 'when', value: 'in 1 hour' }, { name: 'where', value: 'channel' }], {
      guildId: ids.guild,
      channelId: secret,
    });
    // Discord hides the thread from the bot: the save's check cannot tell it from a deleted channel, and says both.
    expect(refused.content).toContain('or is a private thread Chime was not added to');
    expect(refused.content).not.toContain('/reminders/');
    // Chosen from another channel, the thread is checked when saved.
    const chosen = await remind(ids.alice, [{ name: 'message', value: 'Plan' }, { name: 'when', value: 'tomorrow at 9' }, { name: 'channel', value: ids.thread }], {
      guildId: ids.guild,
      channelId: ids.general,
    });
    expect(chosen.content).toContain(`<#${ids.thread}>`);
  });

  it('channel: a forum opens a new post each time; one that requires a tag is refused without tags (remind-forum-tags.test.ts)', async () => {
    const forum = '300000000000000033';
    const strict = '300000000000000034';
    env.fake.addChannel(ids.guild, { id: forum, name: 'ideas', type: 15 });
    env.fake.addChannel(ids.guild, { id: strict, name: 'bugs', type: 15, flags: 1 << 4, available_tags: [{ id: '300000000000000035', name: 'bug' }] });
    const fromGeneral = (channelId: string, message: string) =>
      remind(ids.alice, [{ name: 'message', value: message }, { name: 'when', value: 'tomorrow at 9' }, { name: 'channel', value: channelId }], { guildId: ids.guild, channelId: ids.general });
    const r = await fromGeneral(forum, 'Weekly retro');
    expect(r.content).toContain(`<#${forum}>`);
    const id = /reminders\/([\w-]+)/.exec(r.content)![1]!;
    await fireNow(env.app, id);
    const post = await env.fake.waitFor(() => env.fake.threadsIn(forum)[0] ?? null, 5000, 'a forum post');
    expect(post.name).toBe('Weekly retro');
    expect(env.fake.messagesIn(post.id)[0]!.content).toBe('⏰ **Reminder**\nWeekly retro');
    const refused = await fromGeneral(strict, 'Triage');
    expect(refused.content).toBe('This forum requires a tag on each post: choose one in `tags` (or in the dashboard), or pick another channel.');
  });

  it('channel: posts in another channel of the server, offered for the kinds reminders can post in and checked when saved', async () => {
    const registered = (env.fake.registeredCommands() as any[]).find((c) => c.name === 'remind');
    expect(registered.options.find((o: any) => o.name === 'channel')).toMatchObject({ type: 7, channel_types: [0, 5, 2, 13, 10, 11, 12, 15, 16], name_localizations: { fr: 'salon', 'es-ES': 'canal' } });
    const fromGeneral = (extra: Array<{ name: string; value: string }>) =>
      remind(ids.alice, [{ name: 'message', value: 'Raid' }, { name: 'when', value: 'tomorrow at 9' }, ...extra], { guildId: ids.guild, channelId: ids.general });
    const r = await fromGeneral([{ name: 'channel', value: ids.voice }]);
    expect(r.content).toContain(`<#${ids.voice}>`);
    const id = /reminders\/([\w-]+)/.exec(r.content)![1]!;
    const dest = await env.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(dest.metadata)).toMatchObject({ guild_id: ids.guild, channel_id: ids.voice, channel_name: 'voice', channel_type: 2 });
    // A chosen channel alice may not write in is refused by the save's own check, naming it.
    const refused = await fromGeneral([{ name: 'channel', value: ids.readonly }]);
    expect(refused.content).toContain('#announcements');
    expect(refused.content).not.toContain('/reminders/');
    expect((await fromGeneral([{ name: 'channel', value: ids.voice }, { name: 'where', value: 'dm' }])).content).toContain('A channel was chosen, but where says direct message');
  });

  it('speaks the user\'s language and parses it: French and Spanish', async () => {
    const fr = await remind(ids.bob, [{ name: 'message', value: 'Appeler maman' }, { name: 'when', value: 'demain à 9h' }, { name: 'repeat', value: 'DAILY' }], { locale: 'fr' });
    expect(fr.content).toContain('✅ Rappel programmé : <t:');
    expect(fr.content).toContain('Chaque jour');
    expect(fr.content).toContain('vos messages privés');
    expect((await accountOf(env.app, ids.bob))!.locale).toBe('fr');

    const es = await remind(ids.carol, [{ name: 'message', value: 'Llamar a mamá' }, { name: 'when', value: 'mañana a las 9' }], { locale: 'es-ES' });
    expect(es.content).toContain('✅ Recordatorio programado: <t:');
    const carol = (await accountOf(env.app, ids.carol))!;
    const [row] = await reminderRows(env.app, carol.id);
    const expected = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(row!.remind_at_utc).toBe(`${expected}T09:00:00.000Z`);
  });

  it('alert: one alert before each occurrence, in the confirmation with its time, sent before the reminder', async () => {
    const r = await remind(ids.carol, [
      { name: 'message', value: 'Team sync' },
      { name: 'when', value: 'in 2 hours' },
      { name: 'repeat', value: 'DAILY' },
      { name: 'alert', value: 60 },
    ], { locale: 'en-US' });
    const account = (await accountOf(env.app, ids.carol))!;
    const row = (await reminderRows(env.app, account.id)).find((x) => x.message === 'Team sync');
    expect(JSON.parse(row!.alerts)).toEqual([60]);
    const fire = Date.parse(row!.next_fire_utc!);
    expect(row!.next_alert_utc).toBe(new Date(fire - 3_600_000).toISOString());
    expect(r.content).toContain(`**Alert:** 1 hour before, <t:${(fire - 3_600_000) / 1000}:f>`);
    // The commands offer the alert in the users' languages.
    const alert = (env.fake.registeredCommands().find((c) => c.name === 'remind') as any).options.find((o: any) => o.name === 'alert');
    expect(alert.name_localizations).toMatchObject({ fr: 'alerte', 'es-ES': 'aviso' });
    expect(alert.choices.find((c: any) => c.value === 1440).name_localizations.fr).toBe('1 jour');

    // Moved to 59 minutes from now, its alert (an hour before) is due: it arrives by DM, the
    // occurrence itself still ahead.
    const soon = Date.now() + 59 * 60_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    await env.app.db.updateTable('reminders').set({ next_fire_utc: iso(soon), next_occurrence_utc: iso(soon), next_alert_utc: iso(soon - 3_600_000) }).where('id', '=', row!.id).execute();
    const before = env.fake.dmMessagesTo(ids.carol).length;
    env.app.scheduler.wake();
    const dms = await waitForMessages(env.fake, () => env.fake.dmMessagesTo(ids.carol), before + 1);
    // In the account's language (Carol's is Spanish when the whole file runs).
    expect(dms.at(-1)!.content).toMatch(new RegExp(`^🔔 \\*\\*(Reminder|Recordatorio) <t:${Math.floor(soon / 1000)}:R>\\*\\*\\nTeam sync$`));
    expect((await reminderRows(env.app, account.id)).find((x) => x.id === row!.id)!.next_occurrence_utc).toBe(iso(soon));
  });

  it('refuses unparseable and past times with examples, and creates nothing', async () => {
    const account = (await accountOf(env.app, ids.alice))!;
    const before = (await reminderRows(env.app, account.id)).length;
    const bad = await remind(ids.alice, [{ name: 'message', value: 'x' }, { name: 'when', value: 'whenever you like' }]);
    expect(bad.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(bad.content).toContain('I couldn\'t understand "whenever you like"');
    expect(bad.content).toContain('`tomorrow at 9`');
    const past = await remind(ids.alice, [{ name: 'message', value: 'x' }, { name: 'when', value: 'yesterday at 9' }]);
    expect(past.content).toMatch(/^<t:\d+:F> is in the past/);
    const frBad = await remind(ids.bob, [{ name: 'message', value: 'x' }, { name: 'when', value: 'nimporte' }], { locale: 'fr' });
    expect(frBad.content).toContain('`demain à 9h`');
    expect((await reminderRows(env.app, account.id)).length).toBe(before);
  });

  it('refuses channels and roles the caller or the bot may not use', async () => {
    const inGuild = (channelId: string, extra: Array<{ name: string; value: string }> = []) =>
      remind(ids.alice, [{ name: 'message', value: 'x' }, { name: 'when', value: 'in 1 hour' }, { name: 'where', value: 'channel' }, ...extra], { guildId: ids.guild, channelId });

    expect((await inGuild(ids.readonly)).content).toBe(`You can't send messages in <#${ids.readonly}>, so you can't set a reminder there.`);
    expect((await inGuild(ids.hidden)).content).toContain(`I can't send messages in <#${ids.hidden}>`);
    expect((await inGuild(ids.general, [{ name: 'role', value: ids.locked }])).content).toContain(`You can't mention <@&${ids.locked}>`);
    // @everyone (the guild's own id) takes the Mention Everyone permission, which alice lacks.
    expect((await inGuild(ids.general, [{ name: 'role', value: ids.guild }])).content).toBe(
      `You can't mention @everyone in <#${ids.general}>: you don't have the Mention @everyone, @here and All Roles permission there.`,
    );
    // A server the bot is not a member of (the user has the app installed on their account).
    const client = env.app.bot!.client;
    const seen = new Promise<ChatInputCommandInteraction>((resolve) =>
      client.prependOnceListener('interactionCreate', (i) => resolve(i as ChatInputCommandInteraction)),
    );
    const userInstalled = await inOtherGuild(ids.alice, [{ name: 'message', value: 'x' }, { name: 'when', value: 'in 1 hour' }, { name: 'where', value: 'channel' }]);
    expect(await checkInteractionChannelAccess(await seen, null)).toEqual({ ok: false, key: 'remind.botNotInGuild', vars: {} });
    expect(userInstalled.content).toContain("Chime isn't a member of this server");
    // "This channel" in a DM, a role for a DM.
    expect((await remind(ids.alice, [{ name: 'message', value: 'x' }, { name: 'when', value: 'in 1 hour' }, { name: 'where', value: 'channel' }])).content).toContain(
      'only works in a server channel',
    );
    expect(
      (await remind(ids.alice, [{ name: 'message', value: 'x' }, { name: 'when', value: 'in 1 hour' }, { name: 'where', value: 'dm' }, { name: 'role', value: ids.team }], {
        guildId: ids.guild,
        channelId: ids.general,
      })).content,
    ).toContain('A role can only be mentioned in a channel reminder');

    // A caller allowed to mention every role passes; then it is the bot that lacks the permission.
    env.fake.addRole(ids.guild, { id: '300000000000000023', name: 'mods', permissions: P.MentionEveryone });
    env.fake.updateMember(ids.guild, ids.alice, { roles: ['300000000000000023'] });
    const botLacks = await inGuild(ids.general, [{ name: 'role', value: ids.locked }]);
    expect(botLacks.content).toContain(`I can't mention <@&${ids.locked}>`);
    env.fake.updateMember(ids.guild, ids.alice, { roles: [] });
  });
});

describe('/remind through a user install', () => {
  it('in a server without the bot: a DM reminder is created and delivered, a channel one is refused in the user\'s language', async () => {
    const fr = await inOtherGuild(ids.alice, [{ name: 'message', value: 'x' }, { name: 'when', value: 'in 1 hour' }, { name: 'where', value: 'channel' }], 'fr');
    expect(fr.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(fr.content).toBe("Chime n'est pas membre de ce serveur et ne peut donc pas y publier. Demandez à un administrateur de l'inviter, ou utilisez les messages privés.");

    const account = (await accountOf(env.app, ids.alice))!;
    const before = (await reminderRows(env.app, account.id)).length;
    const ok = await inOtherGuild(ids.alice, [{ name: 'message', value: 'Pay the rent (user install)' }, { name: 'when', value: 'in 2 hours' }]);
    expect(ok.content).toContain('your direct messages');
    const rows = await reminderRows(env.app, account.id);
    expect(rows.length).toBe(before + 1);
    const row = rows.find((r) => r.message === 'Pay the rent (user install)')!;
    const dests = await env.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', row.id).execute();
    expect(dests.map((d) => d.type)).toEqual(['discord_dm']);
    await fireNow(env.app, row.id);
    const msgs = await waitForMessages(env.fake, () => env.fake.dmMessagesTo(ids.alice).filter((m) => m.content.includes('Pay the rent (user install)')));
    expect(msgs).toHaveLength(1);
  });
});

describe('/reminders', () => {
  it('lists upcoming reminders five per page with Previous/Next', async () => {
    // Dave has 7 reminders (made through the service, like /remind does).
    env.fake.addUser({ id: '200000000000000004', username: 'dave' });
    const empty = await command(env.fake, { userId: '200000000000000004', name: 'reminders' });
    expect(empty.content).toBe('You have no upcoming reminders. Create one with /remind.');
    const dave = (await accountOf(env.app, '200000000000000004'))!;
    for (let i = 1; i <= 7; i++) {
      await createReminder(env.app, dave.id, {
        message: `Task ${i}`,
        ...instantToDateTime(Date.now() + i * 3_600_000, 'UTC'),
        timezone: 'UTC',
        recurrence: 'ONCE',
        destinations: [{ type: 'discord_dm', metadata: {} }],
        // Task 2 with alerts before it, as the dashboard sets them.
        ...(i === 2 ? { alerts: [{ before_minutes: 30 }, { before_minutes: 60 }] } : {}),
      });
    }
    const first = await command(env.fake, { userId: '200000000000000004', name: 'reminders' });
    expect(first.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(first.content).toContain('(1–5 of 7)');
    expect(first.content).toContain('> Task 1');
    expect(first.content).not.toContain('Task 6');
    const lines = first.content.split('\n');
    expect(lines[lines.indexOf('> Task 2') - 1]).toMatch(/ · Once · 🔔 1 hour and 30 minutes before$/);
    expect(lines[lines.indexOf('> Task 1') - 1]).not.toContain('🔔');
    const french = await command(env.fake, { userId: '200000000000000004', name: 'reminders', locale: 'fr' });
    expect(french.content).toMatch(/ · 🔔 1\sheure et 30\sminutes avant\n/);
    const row = first.data.components[0].components;
    expect(row.map((b: any) => [b.custom_id, !!b.disabled])).toEqual([
      ['list:-1', true],
      ['list:1', false],
    ]);
    const original = env.fake.interaction(first.id)!.original!;
    const next = await interact(env.fake, env.fake.buttonPress({ userId: '200000000000000004', customId: 'list:1', messageId: original.id }));
    expect(next.type).toBe(7);
    expect(next.data.content).toContain('(6–7 of 7)');
    expect(next.data.content).toContain('> Task 7');
    expect(next.data.components[0].components.map((b: any) => !!b.disabled)).toEqual([false, true]);
    const back = await interact(env.fake, env.fake.buttonPress({ userId: '200000000000000004', customId: 'list:0', messageId: original.id }));
    expect(back.data.content).toContain('(1–5 of 7)');
  });
});

describe('/timezone', () => {
  it('autocompletes IANA zones, shows and sets the account zone, which /remind then uses', async () => {
    const ac = await interact(env.fake, env.fake.autocomplete({ userId: ids.carol, name: 'timezone', options: [{ name: 'zone', value: 'new york' }], focused: 'zone' }));
    expect(ac.type).toBe(8);
    expect(ac.data.choices[0]).toEqual({ name: 'America/New_York', value: 'America/New_York' });
    const many = await interact(env.fake, env.fake.autocomplete({ userId: ids.carol, name: 'timezone', options: [{ name: 'zone', value: 'a' }], focused: 'zone' }));
    expect(many.data.choices).toHaveLength(25);

    const show = await command(env.fake, { userId: ids.carol, name: 'timezone', locale: 'es-ES' });
    expect(show.content).toContain('Tu zona horaria es **UTC**');
    const bad = await command(env.fake, { userId: ids.carol, name: 'timezone', options: [{ name: 'zone', value: 'Mars/Olympus' }], locale: 'en-US' });
    expect(bad.content).toContain('"Mars/Olympus" isn\'t a time zone I know');
    const set = await command(env.fake, { userId: ids.carol, name: 'timezone', options: [{ name: 'zone', value: 'america/new_york' }], locale: 'en-US' });
    expect(set.content).toContain('Time zone set to **America/New_York**');
    const carol = (await accountOf(env.app, ids.carol))!;
    expect(carol.timezone).toBe('America/New_York');

    await remind(ids.carol, [{ name: 'message', value: 'NY time' }, { name: 'when', value: '2030-01-05 08:00' }]);
    const rows = await reminderRows(env.app, carol.id);
    const ny = rows.find((r) => r.message === 'NY time')!;
    expect(ny).toMatchObject({ timezone: 'America/New_York', remind_at_utc: '2030-01-05T13:00:00.000Z' });
  });
});

describe('/reminder', () => {
  it('autocompletes the caller\'s reminders and pauses, resumes, snoozes and deletes them', async () => {
    env.fake.addUser({ id: '200000000000000005', username: 'erin' });
    const erin = '200000000000000005';
    await remind(erin, [{ name: 'message', value: 'Buy milk' }, { name: 'when', value: 'in 2 hours' }, { name: 'repeat', value: 'DAILY' }]);
    await remind(erin, [{ name: 'message', value: 'Call the bank' }, { name: 'when', value: 'in 3 hours' }]);
    const account = (await accountOf(env.app, erin))!;
    const rows = await reminderRows(env.app, account.id);
    const milk = rows.find((r) => r.message === 'Buy milk')!;

    const complete = (sub: string, value: string) =>
      interact(env.fake, env.fake.autocomplete({ userId: erin, name: 'reminder', options: [{ name: sub, options: [{ name: 'reminder', value, focused: true }] }] }));
    const all = await complete('delete', '');
    expect(all.type).toBe(8);
    expect(all.data.choices.map((c: any) => c.value)).toEqual([milk.id, rows.find((r) => r.message === 'Call the bank')!.id]);
    expect(all.data.choices[0].name).toMatch(/^Buy milk — \d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/);
    expect((await complete('pause', 'MILK')).data.choices.map((c: any) => c.value)).toEqual([milk.id]);
    expect((await complete('resume', '')).data.choices).toEqual([]);
    // Another user's reminders never show up.
    const other = await interact(env.fake, env.fake.autocomplete({ userId: ids.alice, name: 'reminder', options: [{ name: 'delete', options: [{ name: 'reminder', value: 'milk', focused: true }] }] }));
    expect(other.data.choices).toEqual([]);

    const sub = (name: string, options: any[] = []) =>
      command(env.fake, { userId: erin, name: 'reminder', options: [{ name, options: [{ name: 'reminder', value: milk.id }, ...options] }] });
    const row = () => env.app.db.selectFrom('reminders').selectAll().where('id', '=', milk.id).executeTakeFirst();

    expect((await sub('pause')).content).toBe('⏸ Paused: Buy milk');
    expect((await row())!.is_paused).toBe(1);
    expect((await complete('resume', '')).data.choices.map((c: any) => c.value)).toEqual([milk.id]);
    expect((await complete('resume', '')).data.choices[0].name).toContain('(paused)');
    expect((await sub('resume')).content).toMatch(/^▶️ Resumed: Buy milk\. Next: <t:\d+:F>/);
    expect((await row())!.is_paused).toBe(0);

    const before = (await row())!;
    const snoozed = await sub('snooze', [{ name: 'minutes', value: 30 }]);
    expect(snoozed.content).toMatch(/^💤 Snoozed until <t:\d+:F>/);
    const after = (await row())!;
    expect(Math.abs(Date.parse(after.next_fire_utc!) - (Date.now() + 30 * 60_000))).toBeLessThan(5_000);
    expect(after.snoozed_at_utc).toBe(after.next_fire_utc);
    expect(after.next_occurrence_utc).toBe(before.next_occurrence_utc);
    const defaultSnooze = await sub('snooze');
    expect(defaultSnooze.content).toMatch(/^💤 Snoozed until/);
    expect(Math.abs(Date.parse((await row())!.next_fire_utc!) - (Date.now() + 10 * 60_000))).toBeLessThan(5_000);

    // Alice cannot touch Erin's reminder, even with its id.
    const foreign = await command(env.fake, { userId: ids.alice, name: 'reminder', options: [{ name: 'delete', options: [{ name: 'reminder', value: milk.id }] }] });
    expect(foreign.content).toBe("That reminder doesn't exist anymore.");
    expect(await row()).toBeDefined();

    expect((await sub('delete')).content).toBe('🗑️ Deleted: Buy milk');
    expect(await row()).toBeUndefined();
    expect((await sub('pause')).content).toBe("That reminder doesn't exist anymore.");
  });
});

describe('repetition in plain words', () => {
  const user = '200000000000000021';
  const stamps = (content: string, style: string) => [...content.matchAll(new RegExp(`<t:(\\d+):${style}>`, 'g'))].map((m) => Number(m[1]));
  const rowsOf = async () => reminderRows(env.app, (await accountOf(env.app, user))!.id);

  beforeAll(() => {
    env.fake.addUser({ id: user, username: 'frank' });
  });

  it('/remind understands "every monday at 9" and shows the rule and the next 3 occurrences', async () => {
    const r = await remind(user, [{ name: 'message', value: 'Stand-up' }, { name: 'when', value: 'every monday at 9' }]);
    expect(r.content).toContain('Every week');
    const next = stamps(r.content, 'f');
    expect(next).toHaveLength(3);
    expect(next[1]! - next[0]!).toBe(7 * 86_400);
    expect(next[2]! - next[1]!).toBe(7 * 86_400);
    expect(new Date(next[0]! * 1000).getUTCDay()).toBe(1);
    expect(new Date(next[0]! * 1000).getUTCHours()).toBe(9);
    const row = (await rowsOf()).find((x) => x.message === 'Stand-up')!;
    expect(row).toMatchObject({ recurrence_type: 'WEEKLY', rrule: null, local_time: '09:00' });
  });

  it('a rule no preset can say becomes a custom rule, in French and Spanish too', async () => {
    const en = await remind(user, [{ name: 'message', value: 'Bins' }, { name: 'when', value: 'every 2 weeks on tuesday at 8' }]);
    const next = stamps(en.content, 'f');
    expect(next[1]! - next[0]!).toBe(14 * 86_400);
    expect(en.content).toContain('Every 2 weeks on Tuesday');
    const fr = await remind(user, [{ name: 'message', value: 'Réunion' }, { name: 'when', value: 'un lundi sur deux à 9h' }], { locale: 'fr' });
    expect(fr.content).toMatch(/^✅/);
    const es = await remind(user, [{ name: 'message', value: 'Agua' }, { name: 'when', value: 'cada 2 horas' }], { locale: 'es-ES' });
    expect(stamps(es.content, 'f')[1]! - stamps(es.content, 'f')[0]!).toBe(7200);
    const rows = await rowsOf();
    expect(rows.find((x) => x.message === 'Bins')).toMatchObject({ recurrence_type: 'CUSTOM', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU' });
    expect(rows.find((x) => x.message === 'Réunion')).toMatchObject({ recurrence_type: 'CUSTOM', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO' });
    expect(rows.find((x) => x.message === 'Agua')).toMatchObject({ recurrence_type: 'CUSTOM', rrule: 'FREQ=HOURLY;INTERVAL=2' });
  });

  it('never drops a repetition: words it cannot read, and words that contradict the repeat option, are refused', async () => {
    const before = (await rowsOf()).length;
    const bad = await remind(user, [{ name: 'message', value: 'X' }, { name: 'when', value: 'every blurday at 9' }]);
    expect(bad.content).toContain('every monday at 9');
    const badFr = await remind(user, [{ name: 'message', value: 'X' }, { name: 'when', value: 'tous les machins' }], { locale: 'fr' });
    expect(badFr.content).toContain('tous les lundis');
    const conflict = await remind(user, [{ name: 'message', value: 'X' }, { name: 'when', value: 'every day at 9' }, { name: 'repeat', value: 'WEEKLY' }]);
    expect(conflict.content).toContain('Every day');
    expect(conflict.content).toContain('Every week');
    // Words and option that agree are fine.
    const agree = await remind(user, [{ name: 'message', value: 'Agree' }, { name: 'when', value: 'every day at 9' }, { name: 'repeat', value: 'DAILY' }]);
    expect(agree.content).toMatch(/^✅/);
    expect((await rowsOf()).length).toBe(before + 1);
  });

  it('/reminder edit changes the message, the time or the repetition; /reminder skip skips the next occurrence', async () => {
    await remind(user, [{ name: 'message', value: 'Edit me' }, { name: 'when', value: 'every day at 7' }]);
    const id = (await rowsOf()).find((x) => x.message === 'Edit me')!.id;
    const row = () => env.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const edit = (options: any[]) => command(env.fake, { userId: user, name: 'reminder', options: [{ name: 'edit', options: [{ name: 'reminder', value: id }, ...options] }] });

    expect((await edit([])).content).toContain('`message`');
    const renamed = await edit([{ name: 'message', value: 'Edited' }]);
    expect(renamed.content).toMatch(/^✏️ Updated: Edited\. Next: <t:\d+:F>/);
    expect(await row()).toMatchObject({ message: 'Edited', recurrence_type: 'DAILY', local_time: '07:00' });

    // A new time alone keeps the repetition.
    await edit([{ name: 'when', value: 'tomorrow at 6:30' }]);
    expect(await row()).toMatchObject({ recurrence_type: 'DAILY', local_time: '06:30' });
    // Repetition words replace it.
    const custom = await edit([{ name: 'when', value: 'every 3 days at 7' }]);
    expect(custom.content).toMatch(/^✏️ Updated/);
    expect(await row()).toMatchObject({ recurrence_type: 'CUSTOM', rrule: 'FREQ=DAILY;INTERVAL=3', local_time: '07:00' });
    // The repeat option alone sets a preset and drops the rule.
    await edit([{ name: 'repeat', value: 'WEEKLY' }]);
    expect(await row()).toMatchObject({ recurrence_type: 'WEEKLY', rrule: null, local_time: '07:00' });

    const pending = Date.parse((await row()).next_fire_utc!);
    const skipped = await command(env.fake, { userId: user, name: 'reminder', options: [{ name: 'skip', options: [{ name: 'reminder', value: id }] }] });
    expect(skipped.content).toMatch(/^⏭️ Skipped <t:\d+:F> of Edited\. Next: <t:\d+:F>/);
    expect(stamps(skipped.content, 'F')[0]).toBe(pending / 1000);
    expect(Date.parse((await row()).next_fire_utc!)).toBe(pending + 7 * 86_400_000);
    expect(JSON.parse((await row()).exceptions)).toEqual([new Date(pending).toISOString()]);

    // Another user cannot edit or skip it.
    const foreign = await command(env.fake, { userId: ids.alice, name: 'reminder', options: [{ name: 'skip', options: [{ name: 'reminder', value: id }] }] });
    expect(foreign.content).toBe("That reminder doesn't exist anymore.");
  });
});

describe('refusals in the user\'s language', () => {
  it('an edit refused because Chime can no longer post in the channel says who and where, in French', async () => {
    const made = await command(env.fake, {
      userId: ids.bob,
      name: 'remind',
      locale: 'fr',
      guildId: ids.guild,
      channelId: ids.general,
      options: [{ name: 'message', value: 'Réunion' }, { name: 'when', value: 'demain à 9h' }, { name: 'where', value: 'channel' }],
    });
    expect(made.content).toMatch(/^✅/);
    const bob = (await accountOf(env.app, ids.bob))!;
    const id = (await reminderRows(env.app, bob.id)).find((r) => r.message === 'Réunion')!.id;
    env.fake.updateChannel(ids.general, { permission_overwrites: [{ id: env.fake.clientId, type: 1, deny: P.SendMessages }] });
    try {
      const refused = await command(env.fake, {
        userId: ids.bob,
        name: 'reminder',
        locale: 'fr',
        guildId: ids.guild,
        channelId: ids.general,
        options: [{ name: 'edit', options: [{ name: 'reminder', value: id }, { name: 'message', value: 'Réunion déplacée' }] }],
      });
      expect(refused.flags & EPHEMERAL).toBe(EPHEMERAL);
      expect(refused.content).toBe(
        'Je ne peux pas envoyer de messages dans #general. Demandez à un administrateur de donner à Chime les permissions Voir le salon et Envoyer des messages dans ce salon.',
      );
      // Now it is Bob who may no longer write there.
      env.fake.updateChannel(ids.general, { permission_overwrites: [{ id: ids.bob, type: 1, deny: P.SendMessages }] });
      const mine = await command(env.fake, {
        userId: ids.bob,
        name: 'reminder',
        locale: 'fr',
        options: [{ name: 'edit', options: [{ name: 'reminder', value: id }, { name: 'message', value: 'Réunion déplacée' }] }],
      });
      expect(mine.content).toBe("Vous ne pouvez pas envoyer de messages dans #general, Chime n'y publiera donc pas pour vous.");
    } finally {
      env.fake.updateChannel(ids.general, { permission_overwrites: [] });
    }
    expect((await reminderRows(env.app, bob.id)).find((r) => r.id === id)!.message).toBe('Réunion');
  });

  it('a /remind past the account limit says so, in Spanish', async () => {
    const made = await command(env.fake, { userId: ids.carol, name: 'reminders', locale: 'es-ES' });
    expect(made.flags & EPHEMERAL).toBe(EPHEMERAL);
    const carol = (await accountOf(env.app, ids.carol))!;
    const have = (await reminderRows(env.app, carol.id)).length;
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const rows = Array.from({ length: 10_000 - have }, (_, i) => ({
      id: `limit-${i}`,
      account_id: carol.id,
      message: `Filler ${i}`,
      local_date: '2031-01-01',
      local_time: '09:00',
      timezone: 'UTC',
      recurrence_type: 'ONCE' as const,
      remind_at_utc: at,
      next_fire_utc: at,
      next_occurrence_utc: at,
      is_paused: 0,
      created_at: at,
      updated_at: at,
    }));
    await env.app.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) await trx.insertInto('reminders').values(rows.slice(i, i + 500)).execute();
    });
    try {
      const refused = await command(env.fake, { userId: ids.carol, name: 'remind', locale: 'es-ES', options: [{ name: 'message', value: 'Uno más' }, { name: 'when', value: 'mañana a las 9' }] });
      expect(refused.content).toBe('Tienes 10.000 recordatorios, el máximo para una cuenta. Borra algunos primero.');
      expect((await reminderRows(env.app, carol.id)).length).toBe(10_000);
    } finally {
      await env.app.db.deleteFrom('reminders').where('id', 'like', 'limit-%').execute();
    }
  });
});

describe('error boundary', () => {
  it('an unexpected failure becomes a localized ephemeral "something went wrong"', async () => {
    const r = await interact(env.fake, env.fake.buttonPress({ userId: ids.bob, customId: 'nope:1', locale: 'fr' }));
    expect(r.data.content).toBe('Une erreur est survenue. Réessayez dans un instant.');
    expect(r.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    // The bot is still there.
    const ok = await command(env.fake, { userId: ids.bob, name: 'reminders', locale: 'fr' });
    expect(ok.content).toContain('rappels');
  });
});
