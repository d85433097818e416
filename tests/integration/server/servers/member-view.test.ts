/**
 * What a member (not only a manager) reads of a server (issue 28): their own reminders posting
 * there (`GET /api/servers/:guildId/my-reminders`, whole, for the usual reminder actions) and the
 * server's rules as they apply to them (`GET /api/servers/:guildId/rules`, the managers' own
 * settings left out). A member of another server, a stranger and a server without the bot are 404.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { client } from '../../../helpers/server.ts';
import { CH, channelReminder, DEFAULT_SERVER_SETTINGS, type Fixture, G_MAIN, G_NOBOT, linkedAccount, ROLE, startServersFixture, USER, webhook } from '../../../helpers/servers-fixture.ts';

let f: Fixture;
type Account = Awaited<ReturnType<typeof linkedAccount>>;
let owner: Account;
let member: Account;
let other: Account;
let stranger: Account;

beforeAll(async () => {
  f = await startServersFixture();
  owner = await linkedAccount(f, USER.owner);
  member = await linkedAccount(f, USER.member);
  other = await linkedAccount(f, USER.other);
  stranger = await linkedAccount(f, USER.stranger);
});

afterAll(async () => {
  await f?.close();
});

beforeEach(() => {
  f.server.app.discord!.invalidateCache();
});

async function create(who: Account, body: object) {
  const res = await who.api.post('/api/reminders', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

it('both routes answer 401 without a session', async () => {
  for (const url of [`/api/servers/${G_MAIN}/my-reminders`, `/api/servers/${G_MAIN}/rules`]) {
    const res = await client(f.server.url).get(url);
    expect(res.status, url).toBe(401);
    expect(res.body.code).toBe('NOT_AUTHENTICATED');
  }
});

describe('GET /api/servers/:guildId/my-reminders', () => {
  it("answers the account's own reminders posting in the server, whole, newest first, paged; nobody else's", async () => {
    const first = await create(member, channelReminder(CH.general, { message: 'mine, with a webhook', extra: [webhook] }));
    const second = await create(member, channelReminder(CH.announcements, { message: 'mine too' }));
    const elsewhere = await create(member, { ...channelReminder(CH.general), destinations: [webhook] });
    const owners = await create(owner, channelReminder(CH.general, { message: "the owner's" }));

    const res = await member.api.get(`/api/servers/${G_MAIN}/my-reminders`);
    expect(res.status).toBe(200);
    expect(res.body.reminders.map((r: { id: string }) => r.id)).toEqual([second.id, first.id]);
    expect(res.body.next_cursor).toBeNull();
    // Theirs: every destination, the webhook included (managers never see it; its owner does).
    expect(res.body.reminders[1].destinations.map((d: { type: string }) => d.type)).toEqual(['discord_channel', 'webhook']);
    expect(res.body.reminders[1]).toMatchObject({ account_id: member.id, message: 'mine, with a webhook', status: 'active' });
    expect(JSON.stringify(res.body)).not.toContain(elsewhere.id);

    // A manager reads only their own there too.
    const mine = await owner.api.get(`/api/servers/${G_MAIN}/my-reminders`);
    expect(mine.body.reminders.map((r: { id: string }) => r.id)).toEqual([owners.id]);

    const page1 = await member.api.get(`/api/servers/${G_MAIN}/my-reminders?limit=1`);
    expect(page1.body.reminders.map((r: { id: string }) => r.id)).toEqual([second.id]);
    const page2 = await member.api.get(`/api/servers/${G_MAIN}/my-reminders?limit=1&before=${page1.body.next_cursor}`);
    expect(page2.body.reminders.map((r: { id: string }) => r.id)).toEqual([first.id]);
    expect(page2.body.next_cursor).toBeNull();
    expect((await member.api.get(`/api/servers/${G_MAIN}/my-reminders?before=nonsense`)).body.code).toBe('CURSOR_INVALID');
    expect((await member.api.get(`/api/servers/${G_MAIN}/my-reminders?limit=101`)).status).toBe(400);

    // The usual actions are the reminders routes': a pause shows in the next read.
    expect((await member.api.post(`/api/reminders/${first.id}/pause`)).status).toBe(200);
    const after = await member.api.get(`/api/servers/${G_MAIN}/my-reminders`);
    expect(after.body.reminders[1]).toMatchObject({ id: first.id, is_paused: true });
  });

  it('is 404 SERVER_NOT_FOUND for a member of another server, a stranger, and a server without the bot', async () => {
    for (const who of [other, stranger]) {
      const res = await who.api.get(`/api/servers/${G_MAIN}/my-reminders`);
      expect(res.status, who.username).toBe(404);
      expect(res.body.code).toBe('SERVER_NOT_FOUND');
    }
    const nobot = await member.api.get(`/api/servers/${G_NOBOT}/my-reminders`);
    expect(nobot.status).toBe(404);
    expect(nobot.body.code).toBe('SERVER_NOT_FOUND');
  });
});

describe('GET /api/servers/:guildId/rules', () => {
  it('answers a server without saved rules: anyone may, anywhere, without limit', async () => {
    const res = await member.api.get(`/api/servers/${G_MAIN}/rules`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      role: 'member',
      bound: true,
      who_can_create: 'everyone',
      creator_role: null,
      may_create: true,
      role_mentions: 'everyone',
      may_mention_roles: true,
      everyone_mention: true,
      may_mention_everyone: true,
      allowed_channels: null,
      max_reminders: null,
      my_reminder_count: expect.any(Number),
      default_timezone: null,
      allow_remind_me_too: true,
    });
  });

  it("tells a member the rules that hold them, with names, and not the managers' own settings; a manager is held to none", async () => {
    const saved = await owner.api.put(`/api/servers/${G_MAIN}/settings`, {
      ...DEFAULT_SERVER_SETTINGS,
      manager_role_id: ROLE.chime,
      who_can_create: 'role',
      creator_role_id: ROLE.creators,
      role_mentions: 'nobody',
      everyone_mention: false,
      allowed_channel_ids: [CH.general],
      max_reminders: 5,
      former_members: 'pause',
      default_timezone: 'Europe/Paris',
      allow_remind_me_too: false,
    });
    expect(saved.status).toBe(200);
    const count = (await member.api.get(`/api/servers/${G_MAIN}/my-reminders?limit=100`)).body.reminders.length as number;
    const res = await member.api.get(`/api/servers/${G_MAIN}/rules`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      role: 'member',
      bound: true,
      who_can_create: 'role',
      creator_role: { id: ROLE.creators, name: 'Creators' },
      may_create: false,
      role_mentions: 'nobody',
      may_mention_roles: false,
      everyone_mention: false,
      may_mention_everyone: false,
      allowed_channels: [{ id: CH.general, name: 'general' }],
      max_reminders: 5,
      my_reminder_count: count,
      default_timezone: 'Europe/Paris',
      allow_remind_me_too: false,
    });
    expect(count).toBeGreaterThan(0);

    // Given the role on Discord, the member may create.
    f.fake.updateMember(G_MAIN, USER.member, { roles: [ROLE.fans, ROLE.creators] });
    f.server.app.discord!.invalidateCache(G_MAIN);
    try {
      expect((await member.api.get(`/api/servers/${G_MAIN}/rules`)).body.may_create).toBe(true);
    } finally {
      f.fake.updateMember(G_MAIN, USER.member, { roles: [ROLE.fans] });
    }

    // Managers only: no member may create, the creator role no longer counts.
    const managersOnly = await owner.api.put(`/api/servers/${G_MAIN}/settings`, { ...DEFAULT_SERVER_SETTINGS, manager_role_id: ROLE.chime, who_can_create: 'managers', allow_remind_me_too: false });
    expect(managersOnly.status).toBe(200);
    f.fake.updateMember(G_MAIN, USER.member, { roles: [ROLE.fans, ROLE.creators] });
    f.server.app.discord!.invalidateCache(G_MAIN);
    try {
      expect((await member.api.get(`/api/servers/${G_MAIN}/rules`)).body).toMatchObject({ who_can_create: 'managers', creator_role: null, may_create: false });
    } finally {
      f.fake.updateMember(G_MAIN, USER.member, { roles: [ROLE.fans] });
    }

    const managers = await owner.api.get(`/api/servers/${G_MAIN}/rules`);
    expect(managers.body).toMatchObject({ role: 'manager', bound: false, may_create: true, may_mention_roles: true, may_mention_everyone: true, allow_remind_me_too: false });
    expect(managers.body).not.toHaveProperty('manager_role_id');
    expect(managers.body).not.toHaveProperty('former_members');
  });

  it('is 404 SERVER_NOT_FOUND for a member of another server, a stranger, and a server without the bot', async () => {
    for (const who of [other, stranger]) {
      const res = await who.api.get(`/api/servers/${G_MAIN}/rules`);
      expect(res.status, who.username).toBe(404);
      expect(res.body.code).toBe('SERVER_NOT_FOUND');
    }
    expect((await member.api.get(`/api/servers/${G_NOBOT}/rules`)).body.code).toBe('SERVER_NOT_FOUND');
  });
});
