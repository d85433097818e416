/**
 * `/remind role:@everyone` (issue 28): discord.js gives @everyone as the role whose id is the
 * guild's. The bot applies the same checks as the API (both permissions in the channel, then the
 * server's `everyone_mention` rule through the reminders service), and the delivery pings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountOf, command, EPHEMERAL, fireNow, reminderRows, waitForMessages } from '../../helpers/bot-harness.ts';
import { PermissionFlags } from '../../helpers/fake-discord/index.ts';
import { CH, DEFAULT_SERVER_SETTINGS, type Fixture, G_MAIN, linkedAccount, ROLE, sf, startServersFixture, USER } from '../../helpers/servers-fixture.ts';

let f: Fixture;
const HERALDS = sf(351);
const BOT_HERALD = sf(352);

beforeAll(async () => {
  f = await startServersFixture();
  f.fake.addRole(G_MAIN, { id: HERALDS, name: 'Heralds', permissions: PermissionFlags.MentionEveryone });
  f.fake.addRole(G_MAIN, { id: BOT_HERALD, name: 'Bot herald', permissions: PermissionFlags.MentionEveryone });
  f.fake.updateMember(G_MAIN, USER.member, { roles: [ROLE.fans, HERALDS] });
  f.fake.updateMember(G_MAIN, USER.mod, { roles: [ROLE.mods, HERALDS] });
  await f.server.app.bot!.whenReady();
  await f.fake.waitFor(() => f.server.app.bot!.client.guilds.cache.has(G_MAIN), 3000, 'guild cache');
});

afterAll(async () => {
  await f?.close();
});

beforeEach(async () => {
  f.fake.updateMember(G_MAIN, f.fake.clientId, { roles: [BOT_HERALD] });
  f.server.app.discord!.invalidateCache();
  await f.server.app.db.deleteFrom('server_settings').execute();
});

const remindEveryone = (userId: string, message: string, locale?: string) =>
  command(f.fake, {
    userId,
    name: 'remind',
    guildId: G_MAIN,
    channelId: CH.general,
    ...(locale ? { locale } : {}),
    options: [
      { name: 'message', value: message },
      { name: 'when', value: 'in 1 hour' },
      { name: 'role', value: G_MAIN },
    ],
  });

describe('/remind role:@everyone', () => {
  it('is made when the user and the bot may mention everyone, and pings @everyone when it fires', async () => {
    const made = await remindEveryone(USER.member, 'Town hall @here');
    expect(made.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(made.content).toMatch(/^✅/);
    expect(made.content).toContain(`<#${CH.general}>, mentioning @everyone`);
    const account = await accountOf(f.server.app, USER.member);
    const [row] = (await reminderRows(f.server.app, account!.id)).filter((r) => r.message === 'Town hall @here');
    const destination = await f.server.app.db.selectFrom('destinations').selectAll().where('reminder_id', '=', row!.id).executeTakeFirstOrThrow();
    expect(JSON.parse(String(destination.metadata))).toMatchObject({ mention_role_id: G_MAIN, mention_role_name: '@everyone' });

    await fireNow(f.server.app, row!.id);
    const [message] = await waitForMessages(f.fake, () => f.fake.messagesIn(CH.general).filter((m) => String(m.content).includes('Town hall')));
    expect(String(message!.content)).toMatch(/^@everyone ⏰/);
    expect(String(message!.content)).toContain('Town hall @\u200bhere');
    expect(message!.allowed_mentions).toEqual({ parse: ['everyone'] });
    expect(message!.mention_everyone).toBe(true);
  });

  it('is refused without Mention Everyone, saying who lacks it', async () => {
    const user = await remindEveryone(USER.chime, 'No right');
    expect(user.content).toBe(`You can't mention @everyone in <#${CH.general}>: you don't have the Mention @everyone, @here and All Roles permission there.`);
    f.fake.updateMember(G_MAIN, f.fake.clientId, { roles: [] });
    // The interaction carries the bot's permissions in the channel (app_permissions).
    const bot = await remindEveryone(USER.member, 'Bot has no right', 'fr');
    expect(bot.content).toBe(
      `Je ne peux pas mentionner @everyone dans <#${CH.general}> : demandez à un administrateur de donner à Chime la permission Mentionner @everyone, @here et tous les rôles dans ce salon.`,
    );
    const account = await accountOf(f.server.app, USER.member);
    expect((await reminderRows(f.server.app, account!.id)).some((r) => r.message === 'Bot has no right')).toBe(false);
  });

  it("meets the server's everyone_mention rule: a member is refused in their language, a manager is not", async () => {
    const owner = await linkedAccount(f, USER.owner);
    const saved = await owner.api.put(`/api/servers/${G_MAIN}/settings`, { ...DEFAULT_SERVER_SETTINGS, everyone_mention: false });
    expect(saved.status).toBe(200);
    expect((await remindEveryone(USER.member, 'Refused by the rule')).content).toBe("In Main, only the server's managers can mention @everyone in reminders.");
    expect((await remindEveryone(USER.member, 'Refusé par la règle', 'es')).content).toBe('En Main, solo los administradores del servidor pueden mencionar a @everyone en los recordatorios.');
    expect((await remindEveryone(USER.mod, 'Manager may')).content).toMatch(/^✅/);
  });
});
