import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { command } from '../../../helpers/bot-harness.ts';
import { CH, channelReminder, type Fixture, G_MAIN, G_OTHER, linkedAccount, ROLE, startServersFixture, USER, webhook, DEFAULT_SERVER_SETTINGS } from '../../../helpers/servers-fixture.ts';

let f: Fixture;
type Account = Awaited<ReturnType<typeof linkedAccount>>;
let owner: Account;
let mod: Account;
let chime: Account;
let member: Account;
let other: Account;

beforeAll(async () => {
  f = await startServersFixture();
  owner = await linkedAccount(f, USER.owner);
  mod = await linkedAccount(f, USER.mod);
  chime = await linkedAccount(f, USER.chime);
  member = await linkedAccount(f, USER.member);
  other = await linkedAccount(f, USER.other);
  await f.server.app.bot!.whenReady();
  await f.fake.waitFor(() => f.server.app.bot!.client.guilds.cache.has(G_MAIN), 3000, 'guild cache');
});

afterAll(async () => {
  await f?.close();
});

beforeEach(async () => {
  f.server.app.discord!.invalidateCache();
  // Each test starts from a server without rules.
  await f.server.app.db.deleteFrom('server_settings').execute();
});

const put = (who: Account, patch: Record<string, unknown>, guild = G_MAIN) => who.api.put(`/api/servers/${guild}/settings`, { ...DEFAULT_SERVER_SETTINGS, ...patch });

async function rules(patch: Record<string, unknown>) {
  const res = await put(owner, patch);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('GET/PUT /api/servers/:guildId/settings', () => {
  it('answers the defaults, saves, and reads back what was saved', async () => {
    expect((await owner.api.get(`/api/servers/${G_MAIN}/settings`)).body).toEqual(DEFAULT_SERVER_SETTINGS);
    const saved = await put(mod, {
      manager_role_id: ROLE.chime,
      default_timezone: 'Europe/Paris',
      who_can_create: 'role',
      creator_role_id: ROLE.creators,
      role_mentions: 'managers',
      everyone_mention: false,
      allowed_channel_ids: [CH.general, CH.general],
      max_reminders: 3,
      former_members: 'pause',
      allow_remind_me_too: false,
    });
    const expected = {
      manager_role_id: ROLE.chime,
      default_timezone: 'Europe/Paris',
      who_can_create: 'role',
      creator_role_id: ROLE.creators,
      role_mentions: 'managers',
      everyone_mention: false,
      allowed_channel_ids: [CH.general],
      max_reminders: 3,
      former_members: 'pause',
      allow_remind_me_too: false,
    };
    expect(saved.body).toEqual(expected);
    expect((await owner.api.get(`/api/servers/${G_MAIN}/settings`)).body).toEqual(expected);
    // A client that leaves the setting out of a save keeps it as it is.
    const { allow_remind_me_too: _left, ...withoutIt } = expected;
    expect((await mod.api.put(`/api/servers/${G_MAIN}/settings`, withoutIt)).body.allow_remind_me_too).toBe(false);
  });

  it('refuses settings that name what the server does not have, with a code', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ manager_role_id: '199999999999999999' }, 400, 'VALIDATION_FAILED'],
      [{ manager_role_id: G_MAIN }, 400, 'VALIDATION_FAILED'],
      [{ who_can_create: 'role' }, 400, 'VALIDATION_FAILED'],
      [{ allowed_channel_ids: [CH.otherGeneral] }, 400, 'VALIDATION_FAILED'],
      [{ default_timezone: 'Mars/Olympus' }, 400, 'INVALID_TIMEZONE'],
      [{ who_can_create: 'admins' }, 400, 'VALIDATION_FAILED'],
      [{ max_reminders: -1 }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [patch, status, code] of cases) {
      const res = await put(owner, patch);
      expect(res.status, JSON.stringify(patch)).toBe(status);
      expect(res.body.code).toBe(code);
    }
    expect((await owner.api.get(`/api/servers/${G_MAIN}/settings`)).body).toEqual(DEFAULT_SERVER_SETTINGS);
  });

  it('is for managers: 403 NOT_SERVER_MANAGER for a member, 404 SERVER_NOT_FOUND for another server', async () => {
    expect((await member.api.get(`/api/servers/${G_MAIN}/settings`)).body.code).toBe('NOT_SERVER_MANAGER');
    expect((await put(member, { who_can_create: 'everyone' })).body.code).toBe('NOT_SERVER_MANAGER');
    expect((await other.api.get(`/api/servers/${G_MAIN}/settings`)).body.code).toBe('SERVER_NOT_FOUND');
    expect((await put(other, {})).status).toBe(404);
    // The other server's owner manages their own server only.
    expect((await put(other, {}, G_OTHER)).status).toBe(200);
  });

  it('the "Chime managers" role makes its holders managers', async () => {
    expect((await chime.api.get(`/api/servers/${G_MAIN}/reminders`)).body.code).toBe('NOT_SERVER_MANAGER');
    await rules({ manager_role_id: ROLE.chime });
    expect((await chime.api.get(`/api/servers/${G_MAIN}/reminders`)).status).toBe(200);
    expect((await chime.api.get('/api/servers')).body).toMatchObject([{ id: G_MAIN, role: 'manager' }]);
  });
});

describe('the rules, applied to every create and edit', () => {
  it('who_can_create "managers": a member is refused, a manager is not, a reminder elsewhere is not concerned', async () => {
    const before = await member.api.post('/api/reminders', channelReminder(CH.general));
    expect(before.status).toBe(201);
    await rules({ who_can_create: 'managers' });
    const refused = await member.api.post('/api/reminders', channelReminder(CH.general));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'SERVER_RULE_WHO_CAN_CREATE', rule: 'who_can_create', error: "In Main, only the server's managers can make reminders" });
    // An edit of a reminder made before the rule meets it too.
    const edit = await member.api.put(`/api/reminders/${before.body.id}`, { ...channelReminder(CH.general), message: 'edited' });
    expect(edit.body.code).toBe('SERVER_RULE_WHO_CAN_CREATE');
    expect((await mod.api.post('/api/reminders', channelReminder(CH.general))).status).toBe(201);
    expect((await member.api.post('/api/reminders', { ...channelReminder(CH.general), destinations: [webhook] })).status).toBe(201);
  });

  it('who_can_create "role": only holders of the role (read from Discord now)', async () => {
    await rules({ who_can_create: 'role', creator_role_id: ROLE.creators });
    const refused = await member.api.post('/api/reminders', channelReminder(CH.general));
    expect(refused.body).toMatchObject({ code: 'SERVER_RULE_WHO_CAN_CREATE', error: 'In Main, only members with the role @Creators can make reminders' });
    f.fake.updateMember(G_MAIN, USER.member, { roles: [ROLE.fans, ROLE.creators] });
    f.server.app.discord!.invalidateCache(G_MAIN);
    try {
      expect((await member.api.post('/api/reminders', channelReminder(CH.general))).status).toBe(201);
    } finally {
      f.fake.updateMember(G_MAIN, USER.member, { roles: [ROLE.fans] });
    }
  });

  it('allowed_channel_ids: other channels are refused for members', async () => {
    await rules({ allowed_channel_ids: [CH.general] });
    expect((await member.api.post('/api/reminders', channelReminder(CH.general))).status).toBe(201);
    const refused = await member.api.post('/api/reminders', channelReminder(CH.announcements));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'SERVER_RULE_CHANNEL', error: 'Main does not allow reminders in #announcements', params: { channel: 'announcements' } });
    expect((await owner.api.post('/api/reminders', channelReminder(CH.announcements))).status).toBe(201);
  });

  it("a channel a member cannot see (permission overwrite) is still Discord's refusal first", async () => {
    await rules({ allowed_channel_ids: [CH.staff] });
    const refused = await member.api.post('/api/reminders', channelReminder(CH.staff));
    expect(refused.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_CANNOT_POST' });
    // The moderator's role is allowed in by the channel's overwrite.
    expect((await mod.api.post('/api/reminders', channelReminder(CH.staff))).status).toBe(201);
  });

  it('role_mentions: "nobody" refuses every role mention of a member, "managers" lets managers mention', async () => {
    await rules({ role_mentions: 'nobody' });
    const nobody = await member.api.post('/api/reminders', channelReminder(CH.general, { mentionRoleId: ROLE.fans }));
    expect(nobody.body).toMatchObject({ code: 'SERVER_RULE_ROLE_MENTIONS', error: 'Main does not allow reminders to mention roles' });
    expect((await member.api.post('/api/reminders', channelReminder(CH.general))).status).toBe(201);
    await rules({ role_mentions: 'managers' });
    expect((await member.api.post('/api/reminders', channelReminder(CH.general, { mentionRoleId: ROLE.fans }))).body.code).toBe('SERVER_RULE_ROLE_MENTIONS');
    expect((await mod.api.post('/api/reminders', channelReminder(CH.general, { mentionRoleId: ROLE.fans }))).status).toBe(201);
  });

  it('max_reminders: per member in the server; an edit of one of them is not a new one', async () => {
    await f.server.app.db.deleteFrom('destinations').where('guild_id', '=', G_MAIN).execute();
    await rules({ max_reminders: 1 });
    const first = await member.api.post('/api/reminders', channelReminder(CH.general));
    expect(first.status).toBe(201);
    const second = await member.api.post('/api/reminders', channelReminder(CH.announcements));
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({ code: 'SERVER_RULE_MAX_REMINDERS', params: { max: '1' } });
    expect((await member.api.put(`/api/reminders/${first.body.id}`, { ...channelReminder(CH.general), message: 'edited' })).status).toBe(200);
    expect((await mod.api.post('/api/reminders', channelReminder(CH.general))).status).toBe(201);
  });

  it('default_timezone: a first /remind in the server makes the account in its zone; an account that exists keeps its own', async () => {
    await rules({ default_timezone: 'Asia/Tokyo' });
    const remind = (userId: string) =>
      command(f.fake, {
        userId,
        name: 'remind',
        guildId: G_MAIN,
        channelId: CH.general,
        options: [
          { name: 'message', value: `Zone of ${userId}` },
          { name: 'when', value: 'tomorrow at 9' },
        ],
      });
    const zoneOf = async (message: string) =>
      f.server.app.db.selectFrom('reminders').innerJoin('accounts', 'accounts.id', 'reminders.account_id').select(['reminders.timezone', 'reminders.local_time', 'accounts.timezone as account_zone']).where('reminders.message', '=', message).executeTakeFirstOrThrow();
    // USER.leaver is in the server and has never used Chime.
    expect((await remind(USER.leaver)).content).toMatch(/^✅/);
    expect(await zoneOf(`Zone of ${USER.leaver}`)).toEqual({ timezone: 'Asia/Tokyo', local_time: '09:00', account_zone: 'Asia/Tokyo' });
    // USER.member's account was made before (linkedAccount, in UTC): the server's zone does not replace it.
    expect((await remind(USER.member)).content).toMatch(/^✅/);
    expect(await zoneOf(`Zone of ${USER.member}`)).toMatchObject({ timezone: 'UTC', account_zone: 'UTC' });
  });

  it('through the bot: /remind in the server and /reminder edit meet the same rules, in the user\'s language', async () => {
    const made = await command(f.fake, {
      userId: USER.member,
      name: 'remind',
      guildId: G_MAIN,
      channelId: CH.announcements,
      options: [
        { name: 'message', value: 'Bot reminder' },
        { name: 'when', value: 'tomorrow at 9' },
        { name: 'where', value: 'channel' },
      ],
    });
    expect(made.content).toMatch(/^✅/);
    const id = /reminders\/([\w-]+)/.exec(made.content)![1]!;
    await rules({ allowed_channel_ids: [CH.general] });
    const refused = await command(f.fake, {
      userId: USER.member,
      name: 'remind',
      locale: 'fr',
      guildId: G_MAIN,
      channelId: CH.announcements,
      options: [
        { name: 'message', value: 'Bot reminder' },
        { name: 'when', value: 'tomorrow at 9' },
        { name: 'where', value: 'channel' },
      ],
    });
    expect(refused.content).toBe("Main n'autorise pas les rappels dans #announcements. Demandez à ses gestionnaires quels salons vous pouvez utiliser.");
    const edit = await command(f.fake, {
      userId: USER.member,
      name: 'reminder',
      locale: 'es-ES',
      options: [{ name: 'edit', options: [{ name: 'reminder', value: id }, { name: 'message', value: 'Edited' }] }],
    });
    expect(edit.content).toBe('Main no permite recordatorios en #announcements. Pregunta a sus administradores qué canales puedes usar.');
    const row = await f.server.app.db.selectFrom('reminders').select('message').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.message).toBe('Bot reminder');
  });
});
