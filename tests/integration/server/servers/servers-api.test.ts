import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listEnabledDestinations } from '../../../../server/repositories/due-reminders.ts';
import { client } from '../../../helpers/server.ts';
import { CH, channelReminder, type Fixture, G_MAIN, G_NOBOT, G_OTHER, linkedAccount, ROLE, startServersFixture, USER, webhook } from '../../../helpers/servers-fixture.ts';

let f: Fixture;
type Account = Awaited<ReturnType<typeof linkedAccount>>;
let owner: Account;
let mod: Account;
let admin: Account;
let member: Account;
let other: Account;
let stranger: Account;

beforeAll(async () => {
  f = await startServersFixture();
  owner = await linkedAccount(f, USER.owner);
  mod = await linkedAccount(f, USER.mod);
  admin = await linkedAccount(f, USER.admin);
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

async function memberReminder(body = channelReminder(CH.general, { extra: [webhook] }), who: Account = member) {
  const res = await who.api.post('/api/reminders', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; destinations: Array<{ id: string; type: string }> };
}

const ROUTES: Array<[string, string]> = [
  ['GET', `/api/servers`],
  ['GET', `/api/servers/${G_MAIN}/reminders`],
  ['POST', `/api/servers/${G_MAIN}/reminders/x/pause`],
  ['POST', `/api/servers/${G_MAIN}/reminders/x/resume`],
  ['POST', `/api/servers/${G_MAIN}/reminders/x/take-over`],
  ['DELETE', `/api/servers/${G_MAIN}/reminders/x`],
  ['GET', `/api/servers/${G_MAIN}/settings`],
  ['PUT', `/api/servers/${G_MAIN}/settings`],
  ['GET', `/api/servers/${G_MAIN}/my-reminders`],
  ['GET', `/api/servers/${G_MAIN}/rules`],
];

describe('every servers route', () => {
  it('answers 401 without a session', async () => {
    for (const [method, url] of ROUTES) {
      const res = await client(f.server.url).call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body.code).toBe('NOT_AUTHENTICATED');
    }
  });

  it('refuses personal access tokens, even with both reminders scopes', async () => {
    const created = await owner.api.post('/api/tokens', { name: 'script', scopes: ['reminders:read', 'reminders:write'] });
    expect(created.status).toBe(201);
    const script = client(f.server.url, created.body.token);
    for (const [method, url] of ROUTES) {
      const res = await script.call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.code).toBe('TOKEN_NOT_ALLOWED');
    }
  });

  it('refuses a cookie request from another site (CSRF)', async () => {
    const login = await client(f.server.url).post('/api/auth/login', { email: owner.email, password: owner.password, remember_me: false });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const { id } = await memberReminder();
    const res = await client(f.server.url).call('POST', `/api/servers/${G_MAIN}/reminders/${id}/pause`, {}, { cookie, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('CSRF_REJECTED');
    const same = await client(f.server.url).call('POST', `/api/servers/${G_MAIN}/reminders/${id}/pause`, {}, { cookie, origin: 'http://localhost:5173' });
    expect(same.status).toBe(200);
  });

  it('answers 404 SERVER_NOT_FOUND to a member of another server, a stranger, for a server without the bot and for garbage ids; 403 NOT_SERVER_MANAGER to a member', async () => {
    const { id } = await memberReminder();
    const managerRoutes: Array<[string, string]> = [
      ['GET', `/api/servers/${G_MAIN}/reminders`],
      ['POST', `/api/servers/${G_MAIN}/reminders/${id}/pause`],
      ['POST', `/api/servers/${G_MAIN}/reminders/${id}/resume`],
      ['POST', `/api/servers/${G_MAIN}/reminders/${id}/take-over`],
      ['DELETE', `/api/servers/${G_MAIN}/reminders/${id}`],
      ['GET', `/api/servers/${G_MAIN}/settings`],
    ];
    for (const [method, url] of managerRoutes) {
      for (const who of [other, stranger]) {
        const res = await who.api.call(method, url, method === 'POST' ? {} : undefined);
        expect(res.status, `${who.username} ${method} ${url}`).toBe(404);
        expect(res.body.code).toBe('SERVER_NOT_FOUND');
      }
      const res = await member.api.call(method, url, method === 'POST' ? {} : undefined);
      expect(res.status, `member ${method} ${url}`).toBe(403);
      expect(res.body.code).toBe('NOT_SERVER_MANAGER');
    }
    for (const guild of [G_NOBOT, 'not-a-server', '999999999999999999']) {
      const res = await member.api.get(`/api/servers/${guild}/reminders`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('SERVER_NOT_FOUND');
    }
    // The reminder is untouched by all of that.
    const mine = await member.api.get(`/api/reminders/${id}`);
    expect(mine.body.destinations.map((d: { type: string }) => d.type)).toEqual(['discord_channel', 'webhook']);
    expect(mine.body.destinations[0].server_paused).toBeUndefined();
  });

  it('an account without Discord is in no server', async () => {
    const plain = await (await import('../../../helpers/server.ts')).signUp(f.server.url);
    expect((await plain.api.get('/api/servers')).body).toEqual([]);
    expect((await plain.api.get(`/api/servers/${G_MAIN}/reminders`)).body.code).toBe('SERVER_NOT_FOUND');
  });
});

describe('GET /api/servers', () => {
  it('lists the servers where the bot and the account are, with the role Discord gives', async () => {
    await memberReminder();
    const counted = (await owner.api.get('/api/servers')).body[0].reminder_count as number;
    expect(counted).toBeGreaterThan(0);
    expect((await owner.api.get('/api/servers')).body).toEqual([{ id: G_MAIN, name: 'Main', icon: 'abc123', role: 'manager', reminder_count: counted }]);
    expect((await mod.api.get('/api/servers')).body).toMatchObject([{ id: G_MAIN, role: 'manager' }]);
    expect((await admin.api.get('/api/servers')).body).toMatchObject([{ id: G_MAIN, role: 'manager' }]);
    // The member is also in a server without the bot: not listed.
    expect((await member.api.get('/api/servers')).body).toEqual([{ id: G_MAIN, name: 'Main', icon: 'abc123', role: 'member', reminder_count: counted }]);
    expect((await other.api.get('/api/servers')).body).toEqual([{ id: G_OTHER, name: 'Other', icon: null, role: 'manager', reminder_count: 0 }]);
    expect((await stranger.api.get('/api/servers')).body).toEqual([]);
  });

  it('follows role changes on Discord: losing Manage Server makes a member', async () => {
    const moderator = await linkedAccount(f, USER.mod);
    f.fake.updateMember(G_MAIN, USER.mod, { roles: [] });
    f.server.app.discord!.invalidateCache(G_MAIN);
    try {
      expect((await moderator.api.get('/api/servers')).body).toMatchObject([{ id: G_MAIN, role: 'member' }]);
      expect((await moderator.api.get(`/api/servers/${G_MAIN}/reminders`)).body.code).toBe('NOT_SERVER_MANAGER');
    } finally {
      f.fake.updateMember(G_MAIN, USER.mod, { roles: [ROLE.mods] });
      mod = await linkedAccount(f, USER.mod);
    }
  });
});

describe('GET /api/servers/:guildId/reminders', () => {
  it("shows every reminder with a channel in the server, of anyone, with only the server's destinations and who made it", async () => {
    const r = await memberReminder(channelReminder(CH.general, { extra: [webhook, { type: 'discord_dm', metadata: {} }], message: 'only-server-part' }));
    // A reminder of the member that posts elsewhere only is not the server's.
    const elsewhere = await memberReminder({ ...channelReminder(CH.general), destinations: [webhook] });
    const res = await owner.api.get(`/api/servers/${G_MAIN}/reminders?limit=100`);
    expect(res.status).toBe(200);
    const found = res.body.reminders.find((x: { id: string }) => x.id === r.id);
    expect(found).toMatchObject({
      message: 'only-server-part',
      account_id: member.id,
      created_by: { discord_user_id: USER.member, username: 'member', still_member: true },
      status: 'active',
    });
    expect(found.destinations).toHaveLength(1);
    expect(found.destinations[0]).toMatchObject({ type: 'discord_channel', metadata: { guild_id: G_MAIN, channel_id: CH.general, channel_name: 'general' } });
    expect(JSON.stringify(res.body)).not.toContain('private-hook');
    expect(res.body.reminders.some((x: { id: string }) => x.id === elsewhere.id)).toBe(false);
    // Another server's managers see nothing of it.
    expect((await other.api.get(`/api/servers/${G_OTHER}/reminders`)).body.reminders.some((x: { id: string }) => x.id === r.id)).toBe(false);
  });

  it('pages with next_cursor, newest first, and refuses a bad cursor or limit', async () => {
    for (let i = 0; i < 3; i++) await memberReminder(channelReminder(CH.announcements, { message: `page-${i}` }));
    const all = (await owner.api.get(`/api/servers/${G_MAIN}/reminders?limit=100`)).body.reminders.map((x: { id: string }) => x.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { reminders: Array<{ id: string }>; next_cursor: string | null } } = await owner.api.get(
        `/api/servers/${G_MAIN}/reminders?limit=2${cursor ? `&before=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.reminders.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.reminders.map((x) => x.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect((await owner.api.get(`/api/servers/${G_MAIN}/reminders?before=nonsense`)).body.code).toBe('CURSOR_INVALID');
    expect((await owner.api.get(`/api/servers/${G_MAIN}/reminders?limit=0`)).status).toBe(400);
    expect((await owner.api.get(`/api/servers/${G_MAIN}/reminders?limit=abc`)).status).toBe(400);
  });
});

describe('managers acting on a server reminder', () => {
  it("pause stops only the server's part; resume lets it fire again; the creator sees it", async () => {
    const r = await memberReminder();
    const paused = await mod.api.post(`/api/servers/${G_MAIN}/reminders/${r.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: r.id, is_paused: true, status: 'paused', created_by: { discord_user_id: USER.member } });
    const enabled = await listEnabledDestinations(f.server.app.db, [r.id]);
    expect(enabled.map((d) => d.type)).toEqual(['webhook']);
    const mine = (await member.api.get(`/api/reminders/${r.id}`)).body;
    expect(mine.is_paused).toBe(false);
    expect(mine.destinations[0]).toMatchObject({ type: 'discord_channel', server_paused: true });
    expect(mine.destinations[1].server_paused).toBeUndefined();

    const resumed = await admin.api.post(`/api/servers/${G_MAIN}/reminders/${r.id}/resume`);
    expect(resumed.body).toMatchObject({ is_paused: false, status: 'active' });
    expect((await listEnabledDestinations(f.server.app.db, [r.id])).map((d) => d.type)).toEqual(['discord_channel', 'webhook']);
  });

  it("a reminder without a channel in the server, or another account's id, is 404 REMINDER_NOT_FOUND", async () => {
    const elsewhere = await memberReminder({ ...channelReminder(CH.general), destinations: [webhook] });
    for (const id of [elsewhere.id, 'no-such-reminder']) {
      const res = await owner.api.post(`/api/servers/${G_MAIN}/reminders/${id}/pause`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('REMINDER_NOT_FOUND');
    }
    const theirs = await memberReminder(channelReminder(CH.otherGeneral, { guildId: G_OTHER }), other);
    expect((await owner.api.post(`/api/servers/${G_MAIN}/reminders/${theirs.id}/pause`)).body.code).toBe('REMINDER_NOT_FOUND');
  });

  it('delete removes the server destinations; the creator keeps the rest and reads why', async () => {
    const r = await memberReminder();
    const res = await owner.api.delete(`/api/servers/${G_MAIN}/reminders/${r.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, ended: false });
    const mine = (await member.api.get(`/api/reminders/${r.id}`)).body;
    expect(mine.destinations.map((d: { type: string }) => d.type)).toEqual(['webhook']);
    expect(mine.status).toBe('active');
    expect(mine.server_notice).toBe('A manager of Main removed this reminder from #general.');
    expect((await owner.api.post(`/api/servers/${G_MAIN}/reminders/${r.id}/pause`)).status).toBe(404);
  });

  it('delete of a reminder with no other destination ends it', async () => {
    const r = await memberReminder(channelReminder(CH.general));
    expect((await owner.api.delete(`/api/servers/${G_MAIN}/reminders/${r.id}`)).body).toEqual({ ok: true, ended: true });
    const mine = (await member.api.get(`/api/reminders/${r.id}`)).body;
    expect(mine).toMatchObject({ status: 'completed', next_fire_utc: null, destinations: [], server_notice: expect.stringContaining('removed') });
  });

  it("take-over splits the server's part off as the manager's own reminder", async () => {
    const r = await memberReminder(channelReminder(CH.general, { extra: [webhook], message: 'take me' }));
    const res = await mod.api.post(`/api/servers/${G_MAIN}/reminders/${r.id}/take-over`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ account_id: mod.id, message: 'take me', recurrence_type: 'DAILY', created_by: { discord_user_id: USER.mod, still_member: true } });
    expect(res.body.id).not.toBe(r.id);
    expect(res.body.destinations).toMatchObject([{ type: 'discord_channel', metadata: { channel_id: CH.general } }]);
    // The manager now owns it like any reminder of theirs.
    expect((await mod.api.get(`/api/reminders/${res.body.id}`)).status).toBe(200);
    const mine = (await member.api.get(`/api/reminders/${r.id}`)).body;
    expect(mine.destinations.map((d: { type: string }) => d.type)).toEqual(['webhook']);
    expect(mine.server_notice).toContain('took over');
    // Taking over one's own reminder changes nothing.
    const again = await mod.api.post(`/api/servers/${G_MAIN}/reminders/${res.body.id}/take-over`);
    expect(again.body.id).toBe(res.body.id);
  });
});
