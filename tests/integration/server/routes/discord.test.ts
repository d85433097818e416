import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../../../server/lib/ids.ts';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from '../../../helpers/fake-discord/index.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

const SCOPES = ['identify', 'email', 'guilds', 'guilds.members.read'];

// Ids: guilds 1xx, channels 2xx, roles 3xx, users 4xx (all snowflake-shaped).
const sf = (n: number) => `1${String(n).padStart(17, '0')}`;
const G_MAIN = sf(101);
const G_NOBOT = sf(102);
const G_FOREIGN = sf(103);
const G_INVITE = sf(104);
const CH = {
  general: sf(201),
  voice: sf(202),
  news: sf(203),
  category: sf(204),
  staff: sf(205),
  readonly: sf(206),
  muted: sf(207),
  botblind: sf(208),
  zeta: sf(209),
  nobotGeneral: sf(210),
};
const ROLE = { staff: sf(301), fans: sf(302), secret: sf(303), managed: sf(304), crew: sf(305) };
const OWNER = sf(401);
const MEMBER = sf(402);
const STAFFER = sf(403);
const OUTSIDER = sf(404);

let fake: FakeDiscord;
let server: TestServer;

/** A Chime account linked to a Discord user with fresh OAuth tokens of the fake. */
async function linkedAccount(discordId: string, scopes = SCOPES) {
  const user = await signUp(server.url);
  // One Chime account per Discord user: the newest test account takes the Discord user over.
  await server.app.db.deleteFrom('identities').where('provider', '=', 'discord').where('external_id', '=', discordId).execute();
  const tokens = fake.issueTokens(discordId, scopes);
  const now = nowIso();
  await server.app.db
    .insertInto('identities')
    .values({
      id: newId(),
      account_id: user.id,
      provider: 'discord',
      external_id: discordId,
      username: fake.users.get(discordId)!.username,
      password_hash: null,
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      token_expires_at: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
      scope: tokens.scope,
      dm_channel_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return user;
}

const identity = (accountId: string) =>
  server.app.db.selectFrom('identities').selectAll().where('account_id', '=', accountId).where('provider', '=', 'discord').executeTakeFirstOrThrow();

function tomorrow() {
  return new Date(Date.now() + 36 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

function channelReminder(channelId: string, mentionRoleId?: string, guildId = G_MAIN) {
  return {
    date: tomorrow(),
    time: '09:00',
    message: 'Stand-up',
    recurrence: 'ONCE',
    timezone: 'UTC',
    destinations: [{ type: 'discord_channel', metadata: { guild_id: guildId, channel_id: channelId, ...(mentionRoleId ? { mention_role_id: mentionRoleId } : {}) } }],
  };
}

beforeAll(async () => {
  fake = await startFakeDiscord();
  for (const [id, username] of [
    [OWNER, 'owner'],
    [MEMBER, 'member'],
    [STAFFER, 'staffer'],
    [OUTSIDER, 'outsider'],
  ] as const) {
    fake.addUser({ id, username, email: `${username}@discord.example` });
  }
  const deny = (id: string, bits: bigint, type: 0 | 1 = 0) => ({ id, type, deny: bits });
  fake.addGuild({
    id: G_MAIN,
    name: 'Main',
    icon: 'a1b2c3',
    ownerId: OWNER,
    roles: [
      { id: ROLE.staff, name: 'Staff', color: 0x3498db, position: 5, permissions: PermissionFlags.MentionEveryone },
      { id: ROLE.fans, name: 'Fans', color: 0xff0000, position: 2, mentionable: true },
      { id: ROLE.secret, name: 'Secret', color: 0, position: 3, mentionable: false },
      { id: ROLE.managed, name: 'SomeBot', position: 4, managed: true, mentionable: true, tags: { bot_id: sf(499) } },
      { id: ROLE.crew, name: 'Crew', color: 0x00ff00, position: 1, mentionable: true },
    ],
    channels: [
      { id: CH.zeta, name: 'zeta', position: 0, parent_id: CH.category },
      { id: CH.general, name: 'general', position: 1 },
      { id: CH.voice, name: 'Voice', type: 2, position: 2 },
      { id: CH.news, name: 'news', type: 5, position: 3 },
      { id: CH.category, name: 'Work', type: 4, position: 0 },
      { id: CH.staff, name: 'staff-only', position: 4, permission_overwrites: [deny(G_MAIN, PermissionFlags.ViewChannel), { id: ROLE.staff, type: 0, allow: PermissionFlags.ViewChannel }, { id: fake.clientId, type: 1, allow: PermissionFlags.ViewChannel }] },
      { id: CH.readonly, name: 'readonly', position: 5, permission_overwrites: [deny(G_MAIN, PermissionFlags.SendMessages), { id: fake.clientId, type: 1, allow: PermissionFlags.SendMessages }] },
      { id: CH.muted, name: 'muted', position: 6, permission_overwrites: [deny(MEMBER, PermissionFlags.SendMessages, 1)] },
      { id: CH.botblind, name: 'botblind', position: 7, permission_overwrites: [deny(fake.clientId, PermissionFlags.ViewChannel, 1)] },
    ],
    members: [
      { userId: MEMBER, roles: [ROLE.crew] },
      { userId: STAFFER, roles: [ROLE.staff] },
    ],
    // Discord pings a non-mentionable role only when the bot itself may mention everyone.
    botRoles: [ROLE.staff],
  });
  fake.addGuild({ id: G_NOBOT, name: 'No Bot Land', ownerId: OWNER, botMember: false, members: [{ userId: MEMBER }], channels: [{ id: CH.nobotGeneral, name: 'general' }] });
  fake.addGuild({ id: G_FOREIGN, name: 'Foreign', ownerId: OUTSIDER, members: [] });
  fake.addGuild({ id: G_INVITE, name: 'Invite Me', ownerId: MEMBER, botMember: false, channels: [{ id: sf(211), name: 'lobby' }] });

  server = await startTestServer({
    env: {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_CLIENT_ID: fake.clientId,
      DISCORD_CLIENT_SECRET: fake.clientSecret,
      DISCORD_API_URL: fake.apiUrl,
      PUBLIC_URL: 'http://localhost:5173',
    },
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

beforeEach(() => {
  // Tests change the fake's guilds: start each from fresh Discord data.
  server.app.discord!.invalidateCache();
  fake.clearFailures();
});

describe('POST /api/discord/guilds', () => {
  it("lists the user's servers with the bot's presence, from the user's own OAuth token", async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.post('/api/discord/guilds', { account_id: 'someone-else' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: G_INVITE, name: 'Invite Me', icon: null, bot_present: false },
      { id: G_MAIN, name: 'Main', icon: 'a1b2c3', bot_present: true },
      { id: G_NOBOT, name: 'No Bot Land', icon: null, bot_present: false },
    ]);
    const guildCalls = fake.requestsTo(/^\/users\/@me\/guilds$/);
    expect(guildCalls.some((r) => r.auth === 'bearer')).toBe(true);
    expect(guildCalls.some((r) => r.auth === 'bot')).toBe(true);
    // Works with an empty body too (a dashboard may send none).
    const empty = await member.api.call('POST', '/api/discord/guilds');
    expect(empty.status).toBe(200);
  });

  it('asks to connect Discord first when the account has no Discord identity', async () => {
    const plain = await signUp(server.url);
    const res = await plain.api.post('/api/discord/guilds', {});
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'DISCORD_IDENTITY_REQUIRED', error: 'Connect your Discord account first' });
  });

  it('needs a session', async () => {
    const res = await client(server.url).post('/api/discord/guilds', {});
    expect(res.status).toBe(401);
  });

  it('refreshes an access token whose stored expiry has passed, and saves the new pair', async () => {
    const member = await linkedAccount(MEMBER);
    const before = await identity(member.id);
    await server.app.db.updateTable('identities').set({ token_expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', before.id).execute();
    const refreshesBefore = fake.requestsTo(/^\/oauth2\/token$/).filter((r) => r.body?.grant_type === 'refresh_token').length;

    const res = await member.api.post('/api/discord/guilds', {});
    expect(res.status).toBe(200);
    const after = await identity(member.id);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(Date.parse(after.token_expires_at!)).toBeGreaterThan(Date.now() + 24 * 60 * 60 * 1000);
    expect(fake.requestsTo(/^\/oauth2\/token$/).filter((r) => r.body?.grant_type === 'refresh_token').length).toBe(refreshesBefore + 1);
  });

  it('refreshes when Discord says the token expired early (401), and concurrent requests share one refresh', async () => {
    const member = await linkedAccount(MEMBER);
    const before = await identity(member.id);
    fake.expireAccessToken(before.access_token!);
    const results = await Promise.all([member.api.post('/api/discord/guilds', {}), member.api.post('/api/discord/guilds', {})]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const after = await identity(member.id);
    expect(after.access_token).not.toBe(before.access_token);
  });

  it('asks to reconnect (403, never 401) when the grant was revoked', async () => {
    const member = await linkedAccount(MEMBER);
    const before = await identity(member.id);
    fake.expireAccessToken(before.access_token!);
    // Burn the refresh token, as if the user revoked Chime in Discord's settings.
    await fetch(`${fake.apiUrl}/oauth2/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: fake.clientId, client_secret: fake.clientSecret, token: before.refresh_token! }).toString(),
    });
    const res = await member.api.post('/api/discord/guilds', {});
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('DISCORD_IDENTITY_REQUIRED');
    expect((await identity(member.id)).access_token).toBeNull();
  });

  it('reports Discord outages as 502 DISCORD_UNAVAILABLE', async () => {
    const member = await linkedAccount(MEMBER);
    fake.failNext({ method: 'GET', pathPattern: /^\/users\/@me\/guilds$/, status: 500, body: { message: 'boom', code: 0 } });
    const res = await member.api.post('/api/discord/guilds', {});
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('DISCORD_UNAVAILABLE');
  });

  it('never exposes Discord tokens', async () => {
    const member = await linkedAccount(MEMBER);
    const row = await identity(member.id);
    const account = await member.api.get('/api/account');
    const guilds = await member.api.post('/api/discord/guilds', {});
    for (const body of [account.body, guilds.body]) {
      expect(JSON.stringify(body)).not.toContain(row.access_token!);
      expect(JSON.stringify(body)).not.toContain(row.refresh_token!);
    }
  });
});

describe('POST /api/discord/guilds/channels', () => {
  it("tells the user the bot's token was rejected, not that Discord is down (a bot 401 is recognised as Discord's)", async () => {
    const member = await linkedAccount(MEMBER);
    fake.failNext({ method: 'GET', pathPattern: /^\/guilds\/\d+$/, status: 401, body: { message: '401: Unauthorized', code: 0 } });
    try {
      const res = await member.api.post('/api/discord/guilds/channels', { guild_id: G_MAIN });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'DISCORD_UNAVAILABLE', error: expect.stringContaining('its token was rejected') });
    } finally {
      // @discordjs/rest drops a token Discord answered 401 to; the next tests need it back.
      server.app.discord!.rest.setToken(fake.botToken);
    }
  });

  it('lists the channels the user can view and post in (text, announcement, voice chat), in Discord order', async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.post('/api/discord/guilds/channels', { account_id: 'ignored', guild_id: G_MAIN });
    expect(res.status).toBe(200);
    // No category, no staff-only (hidden), no readonly/muted (no send); the voice channel's chat and
    // the announcement channel are listed with their type; botblind is listed (the user may post
    // there) but marked: the picker shows it disabled with the reason.
    expect(res.body).toEqual([
      { id: CH.general, name: 'general', type: 0, bot_can_send: true, bot_can_mention: true, reason: null },
      { id: CH.voice, name: 'Voice', type: 2, bot_can_send: true, bot_can_mention: true, reason: null },
      { id: CH.news, name: 'news', type: 5, bot_can_send: true, bot_can_mention: true, reason: null },
      { id: CH.botblind, name: 'botblind', type: 0, bot_can_send: false, bot_can_mention: false, reason: 'DISCORD_CANNOT_POST' },
      { id: CH.zeta, name: 'zeta', type: 0, bot_can_send: true, bot_can_mention: true, reason: null },
    ]);
  });

  it('a role overwrite opens a private channel; the owner sees everything', async () => {
    const staffer = await linkedAccount(STAFFER);
    const res = await staffer.api.post('/api/discord/guilds/channels', { guild_id: G_MAIN });
    expect(res.body.map((c: { name: string }) => c.name)).toEqual(['general', 'Voice', 'news', 'staff-only', 'muted', 'botblind', 'zeta']);
    const owner = await linkedAccount(OWNER);
    const all = await owner.api.post('/api/discord/guilds/channels', { guild_id: G_MAIN });
    expect(all.body.map((c: { name: string }) => c.name)).toEqual(['general', 'Voice', 'news', 'staff-only', 'readonly', 'muted', 'botblind', 'zeta']);
  });

  it('says "Bot is not a member of this guild" when the bot is absent', async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.post('/api/discord/guilds/channels', { guild_id: G_NOBOT });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'DISCORD_BOT_NOT_IN_GUILD', error: 'Bot is not a member of this guild' });
  });

  it('refuses servers the user is not in, and ids that are not snowflakes', async () => {
    const member = await linkedAccount(MEMBER);
    const foreign = await member.api.post('/api/discord/guilds/channels', { guild_id: G_FOREIGN });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('DISCORD_PERMISSION_DENIED');
    const bad = await member.api.post('/api/discord/guilds/channels', { guild_id: '../../users/@me' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('guild_id must be a Discord server id');
    const missing = await member.api.post('/api/discord/guilds/channels', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('guild_id is required');
  });

  it('caches guild data briefly: a second picker step costs one member lookup', async () => {
    const member = await linkedAccount(MEMBER);
    await member.api.post('/api/discord/guilds/channels', { guild_id: G_MAIN });
    const before = fake.requests.length;
    await member.api.post('/api/discord/guilds/roles', { guild_id: G_MAIN });
    const routes = fake.requests.slice(before).map((r) => `${r.method} ${r.route}`);
    expect(routes).toEqual([`GET /guilds/${G_MAIN}/members/${MEMBER}`]);
  });
});

describe('POST /api/discord/guilds/roles', () => {
  it('lists the roles the user may mention: no @everyone, no managed roles, colours kept, highest first', async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.post('/api/discord/guilds/roles', { guild_id: G_MAIN });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: ROLE.fans, name: 'Fans', color: 0xff0000, managed: false },
      { id: ROLE.crew, name: 'Crew', color: 0x00ff00, managed: false },
    ]);
  });

  it('with Mention @everyone the user may mention non-mentionable roles too, and @everyone (first)', async () => {
    const staffer = await linkedAccount(STAFFER);
    const res = await staffer.api.post('/api/discord/guilds/roles', { guild_id: G_MAIN });
    expect(res.body).toEqual([
      { id: G_MAIN, name: '@everyone', color: 0, managed: false },
      { id: ROLE.staff, name: 'Staff', color: 0x3498db, managed: false },
      { id: ROLE.secret, name: 'Secret', color: 0, managed: false },
      { id: ROLE.fans, name: 'Fans', color: 0xff0000, managed: false },
      { id: ROLE.crew, name: 'Crew', color: 0x00ff00, managed: false },
    ]);
  });

  it('says the bot is absent for a server without it', async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.post('/api/discord/guilds/roles', { guild_id: G_NOBOT });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Bot is not a member of this guild');
  });
});

describe('GET /api/discord/invite-url', () => {
  it('builds the bot invite for one server with the permissions the bot needs', async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.get(`/api/discord/invite-url?guild_id=${G_INVITE}`);
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(fake.clientId);
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    const expected =
      PermissionFlags.ViewChannel |
      PermissionFlags.SendMessages |
      PermissionFlags.EmbedLinks |
      PermissionFlags.ReadMessageHistory |
      PermissionFlags.MentionEveryone |
      PermissionFlags.UseApplicationCommands |
      PermissionFlags.SendMessagesInThreads;
    expect(url.searchParams.get('permissions')).toBe(expected.toString());
    expect(url.searchParams.get('permissions')).toBe('277025606656');
    expect(url.searchParams.get('guild_id')).toBe(G_INVITE);
    expect(url.searchParams.get('disable_guild_select')).toBe('true');

    // Following it adds the bot; the picker then works for that server.
    expect((await member.api.post('/api/discord/guilds/channels', { guild_id: G_INVITE })).status).toBe(400);
    fake.setAuthorizingUser(MEMBER);
    const page = await fetch(res.body.url, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const channels = await member.api.post('/api/discord/guilds/channels', { guild_id: G_INVITE });
    expect(channels.status).toBe(200);
    // The invite's Mention Everyone reached the bot's role: role and @everyone pings can go out.
    expect(channels.body).toEqual([{ id: sf(211), name: 'lobby', type: 0, bot_can_send: true, bot_can_mention: true, reason: null }]);
  });

  it('validates guild_id and works without one', async () => {
    const member = await linkedAccount(MEMBER);
    expect((await member.api.get('/api/discord/invite-url?guild_id=abc')).status).toBe(400);
    const res = await member.api.get('/api/discord/invite-url');
    expect(res.status).toBe(200);
    expect(new URL(res.body.url).searchParams.has('guild_id')).toBe(false);
  });
});

describe('POST /api/destinations/check with Discord destinations', () => {
  it('answers the precise reason with the names a translation quotes', async () => {
    const member = await linkedAccount(MEMBER);
    const check = (metadata: Record<string, unknown>) => member.api.post('/api/destinations/check', { type: 'discord_channel', metadata });
    expect((await check({ guild_id: G_MAIN, channel_id: CH.general })).body).toEqual({ ok: true });
    expect((await check({ guild_id: G_MAIN, channel_id: CH.botblind })).body).toEqual({
      ok: false,
      code: 'DISCORD_CANNOT_POST',
      error: "The bot can't send messages in #botblind. Give it the View Channel and Send Messages permissions there.",
      params: { channel: 'botblind', who: 'bot' },
    });
    expect((await check({ guild_id: G_MAIN, channel_id: CH.general, mention_role_id: ROLE.secret })).body).toMatchObject({
      ok: false,
      code: 'DISCORD_ROLE_NOT_MENTIONABLE',
      params: { role: 'Secret', who: 'user' },
    });
    expect((await check({ guild_id: G_MAIN, channel_id: 'abc' })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    expect((await member.api.post('/api/destinations/check', { type: 'discord_dm', metadata: {} })).body).toEqual({ ok: true });
  });

  it('names the destination at fault when a create is refused', async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.post('/api/reminders', {
      ...channelReminder(CH.general),
      destinations: [channelReminder(CH.general).destinations[0], channelReminder(CH.botblind).destinations[0]],
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_CANNOT_POST', destination: 1, params: { channel: 'botblind', who: 'bot' } });
  });
});

describe('reminders with a Discord channel destination', () => {
  it('refuses a channel the user cannot post in, with a readable message', async () => {
    const member = await linkedAccount(MEMBER);
    const readonly = await member.api.post('/api/reminders', channelReminder(CH.readonly));
    expect(readonly.status).toBe(403);
    expect(readonly.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', error: "You can't send messages in #readonly", reason: 'DISCORD_CANNOT_POST' });
    const hidden = await member.api.post('/api/reminders', channelReminder(CH.staff));
    expect(hidden.status).toBe(403);
    expect(hidden.body.error).toBe("You can't see #staff-only");
    const muted = await member.api.post('/api/reminders', channelReminder(CH.muted));
    expect(muted.body.error).toBe("You can't send messages in #muted");
  });

  it('refuses a role the user may not mention', async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.post('/api/reminders', channelReminder(CH.general, ROLE.secret));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', error: "The role @Secret can't be mentioned by you", reason: 'DISCORD_ROLE_NOT_MENTIONABLE' });
    const staffer = await linkedAccount(STAFFER);
    expect((await staffer.api.post('/api/reminders', channelReminder(CH.general, ROLE.secret))).status).toBe(201);
  });

  it('refuses a non-mentionable role when the bot could not ping it, even for a user who may', async () => {
    const staffer = await linkedAccount(STAFFER);
    fake.updateMember(G_MAIN, fake.clientId, { roles: [] });
    try {
      server.app.discord!.invalidateCache(G_MAIN);
      const res = await staffer.api.post('/api/reminders', channelReminder(CH.general, ROLE.secret));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ reason: 'DISCORD_ROLE_NOT_MENTIONABLE' });
      expect(res.body.error).toContain("The bot can't mention @Secret");
      const roles = await staffer.api.post('/api/discord/guilds/roles', { guild_id: G_MAIN });
      expect(roles.body.map((r: { name: string }) => r.name)).toEqual(['Fans', 'Crew']);
    } finally {
      fake.updateMember(G_MAIN, fake.clientId, { roles: [ROLE.staff] });
      server.app.discord!.invalidateCache(G_MAIN);
    }
  });

  it('accepts an allowed channel and mentionable role (201), also on update', async () => {
    const member = await linkedAccount(MEMBER);
    const res = await member.api.post('/api/reminders', channelReminder(CH.general, ROLE.fans));
    expect(res.status).toBe(201);
    expect(res.body.destinations[0]).toMatchObject({ type: 'discord_channel', metadata: { guild_id: G_MAIN, channel_id: CH.general, mention_role_id: ROLE.fans } });
    // Display names recorded at save time, so the dashboard need not ask Discord to show them.
    expect(res.body.destinations[0].metadata).toMatchObject({ guild_name: 'Main', channel_name: 'general', mention_role_name: 'Fans' });
    expect((await member.api.get(`/api/reminders/${res.body.id}`)).body.destinations[0].metadata.channel_name).toBe('general');
    const update = await member.api.put(`/api/reminders/${res.body.id}`, channelReminder(CH.readonly));
    expect(update.status).toBe(403);
  });

  it('explains when the bot is missing or cannot post there', async () => {
    const member = await linkedAccount(MEMBER);
    const absent = await member.api.post('/api/reminders', channelReminder(CH.nobotGeneral, undefined, G_NOBOT));
    expect(absent.status).toBe(400);
    expect(absent.body).toMatchObject({ code: 'DISCORD_BOT_NOT_IN_GUILD', error: 'Bot is not a member of this guild' });
    const blind = await member.api.post('/api/reminders', channelReminder(CH.botblind));
    expect(blind.status).toBe(403);
    expect(blind.body.error).toMatch(/^The bot can't send messages in #botblind/);
  });

  it('refuses channels and roles that are not in that server, channels that take no messages and strangers', async () => {
    const member = await linkedAccount(MEMBER);
    const elsewhere = await member.api.post('/api/reminders', channelReminder(CH.nobotGeneral));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toMatchObject({ code: 'INVALID_DESTINATION', reason: 'DISCORD_UNKNOWN_CHANNEL' });
    const category = await member.api.post('/api/reminders', channelReminder(CH.category));
    expect(category.body).toMatchObject({ code: 'INVALID_DESTINATION', error: '#Work is not a channel reminders can post in (text, announcement, voice or stage chat, thread or forum)' });
    const role = await member.api.post('/api/reminders', channelReminder(CH.general, sf(399)));
    expect(role.body).toMatchObject({ code: 'INVALID_DESTINATION', reason: 'DISCORD_UNKNOWN_ROLE' });
    // @everyone is the role whose id is the guild's: it takes Mention Everyone, which a member lacks.
    const everyone = await member.api.post('/api/reminders', channelReminder(CH.general, G_MAIN));
    expect(everyone.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_CANNOT_MENTION_EVERYONE', params: { who: 'user', permission: 'MENTION_EVERYONE' } });
    const outsider = await linkedAccount(OUTSIDER);
    const stranger = await outsider.api.post('/api/reminders', channelReminder(CH.general));
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ error: 'You are not a member of Main', reason: 'DISCORD_NOT_MEMBER' });
  });

  it('sees permission changes once the cache is invalidated (what the bot does on gateway events)', async () => {
    const member = await linkedAccount(MEMBER);
    expect((await member.api.post('/api/reminders', channelReminder(CH.general))).status).toBe(201);
    fake.updateChannel(CH.general, { permission_overwrites: [{ id: ROLE.crew, type: 0, deny: PermissionFlags.SendMessages }] });
    try {
      server.app.discord!.invalidateCache(G_MAIN);
      const res = await member.api.post('/api/reminders', channelReminder(CH.general));
      expect(res.status).toBe(403);
    } finally {
      fake.updateChannel(CH.general, { permission_overwrites: [] });
    }
  });

  it('is checked by the exported checkChannelAccess the bot uses', async () => {
    const d = server.app.discord!;
    await expect(d.checkChannelAccess({ userId: MEMBER, guildId: G_MAIN, channelId: CH.general, mentionRoleId: ROLE.fans })).resolves.toMatchObject({ ok: true, channel: { id: CH.general, type: 0 } });
    await expect(d.checkChannelAccess({ userId: MEMBER, guildId: G_MAIN, channelId: CH.readonly })).resolves.toEqual({
      ok: false,
      code: 'DISCORD_CANNOT_POST',
      message: "You can't send messages in #readonly",
      params: { channel: 'readonly', who: 'user' },
    });
    await expect(d.checkChannelAccess({ userId: MEMBER, guildId: G_NOBOT, channelId: CH.nobotGeneral })).resolves.toMatchObject({ ok: false, code: 'DISCORD_BOT_NOT_IN_GUILD' });
  });
});

describe('without Discord settings', () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startTestServer({ env: { DISCORD_TOKEN: '', DISCORD_CLIENT_ID: '', DISCORD_CLIENT_SECRET: '' } });
  });
  afterAll(async () => bare?.close());

  it('every Discord route answers 503 DISCORD_NOT_CONFIGURED', async () => {
    const user = await signUp(bare.url);
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/api/discord/guilds', {}],
      ['POST', '/api/discord/guilds/channels', { guild_id: G_MAIN }],
      ['POST', '/api/discord/guilds/roles', { guild_id: G_MAIN }],
      ['GET', '/api/discord/invite-url?guild_id=' + G_MAIN],
      ['GET', '/api/auth/discord/authorize-url?mode=login'],
      ['POST', '/api/auth/discord/callback', { code: 'x', state: 'y' }],
      ['POST', '/api/auth/discord/setup', { account_id: 'x' }],
    ];
    for (const api of [user.api, client(bare.url)]) {
      for (const [method, path, body] of calls) {
        const res = await api.call(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(503);
        expect(res.body).toEqual({ code: 'DISCORD_NOT_CONFIGURED', error: 'Discord is not configured on this server' });
      }
    }
    expect(bare.app.discord).toBeNull();
  });
});
