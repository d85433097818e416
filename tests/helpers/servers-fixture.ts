/**
 * A Chime server over the fake Discord with two servers and the people the servers tests need:
 * the owner, a moderator (Manage Server), an admin (Administrator), a holder of the "Chime
 * managers" role, a member, a member of another server only, and a stranger in neither.
 */
import { newId, nowIso } from '../../server/lib/ids.ts';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from './fake-discord/index.ts';
import { signUp, startTestServer, type TestServer } from './server.ts';

export const sf = (n: number) => `1${String(n).padStart(17, '0')}`;
export const G_MAIN = sf(101);
export const G_OTHER = sf(102);
export const G_NOBOT = sf(103);
export const CH = { general: sf(201), announcements: sf(202), staff: sf(203), otherGeneral: sf(211), nobot: sf(221) };
export const ROLE = { mods: sf(301), admins: sf(302), chime: sf(303), fans: sf(304), creators: sf(305) };
export const USER = { owner: sf(401), mod: sf(402), admin: sf(403), chime: sf(404), member: sf(405), other: sf(406), stranger: sf(407), leaver: sf(408) };

/** A server's settings before its managers change any (GET /api/servers/:guildId/settings). */
export const DEFAULT_SERVER_SETTINGS = {
  manager_role_id: null,
  default_timezone: null,
  who_can_create: 'everyone',
  creator_role_id: null,
  role_mentions: 'everyone',
  everyone_mention: true,
  allowed_channel_ids: null,
  max_reminders: null,
  former_members: 'keep',
  allow_remind_me_too: true,
};

export interface Fixture {
  fake: FakeDiscord;
  server: TestServer;
  close(): Promise<void>;
}

export async function startServersFixture(): Promise<Fixture> {
  const fake = await startFakeDiscord();
  for (const [name, id] of Object.entries(USER)) fake.addUser({ id, username: name, email: `${name}@discord.example` });
  fake.addGuild({
    id: G_MAIN,
    name: 'Main',
    icon: 'abc123',
    ownerId: USER.owner,
    roles: [
      { id: ROLE.mods, name: 'Mods', position: 4, permissions: PermissionFlags.ManageGuild },
      { id: ROLE.admins, name: 'Admins', position: 5, permissions: PermissionFlags.Administrator },
      { id: ROLE.chime, name: 'Chime managers', position: 3 },
      { id: ROLE.fans, name: 'Fans', position: 2, mentionable: true },
      { id: ROLE.creators, name: 'Creators', position: 1 },
    ],
    channels: [
      { id: CH.general, name: 'general', position: 0 },
      { id: CH.announcements, name: 'announcements', position: 1 },
      // Only the Mods role (and the bot) may see #staff: a permission overwrite.
      {
        id: CH.staff,
        name: 'staff',
        position: 2,
        permission_overwrites: [
          { id: G_MAIN, type: 0, deny: PermissionFlags.ViewChannel },
          { id: ROLE.mods, type: 0, allow: PermissionFlags.ViewChannel },
          { id: fake.clientId, type: 1, allow: PermissionFlags.ViewChannel },
        ],
      },
    ],
    members: [
      { userId: USER.mod, roles: [ROLE.mods] },
      { userId: USER.admin, roles: [ROLE.admins] },
      { userId: USER.chime, roles: [ROLE.chime] },
      { userId: USER.member, roles: [ROLE.fans] },
      { userId: USER.leaver, roles: [] },
    ],
  });
  fake.addGuild({ id: G_OTHER, name: 'Other', ownerId: USER.other, channels: [{ id: CH.otherGeneral, name: 'general' }] });
  // The bot is not in this one; the member is.
  fake.addGuild({ id: G_NOBOT, name: 'No bot', ownerId: USER.member, botMember: false, channels: [{ id: CH.nobot, name: 'general' }] });
  const server = await startTestServer({
    env: {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_CLIENT_ID: fake.clientId,
      DISCORD_CLIENT_SECRET: fake.clientSecret,
      DISCORD_API_URL: fake.apiUrl,
      PUBLIC_URL: 'http://localhost:5173',
    },
  });
  return {
    fake,
    server,
    async close() {
      await server.close();
      await fake.close();
    },
  };
}

/** A Chime account linked to this Discord user (OAuth tokens of the fake). */
export async function linkedAccount(f: Fixture, discordId: string) {
  const user = await signUp(f.server.url);
  await f.server.app.db.deleteFrom('identities').where('provider', '=', 'discord').where('external_id', '=', discordId).execute();
  const tokens = f.fake.issueTokens(discordId, ['identify', 'email', 'guilds', 'guilds.members.read']);
  const now = nowIso();
  await f.server.app.db
    .insertInto('identities')
    .values({
      id: newId(),
      account_id: user.id,
      provider: 'discord',
      external_id: discordId,
      username: f.fake.users.get(discordId)!.username,
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

export function tomorrow() {
  return new Date(Date.now() + 36 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

export function channelReminder(channelId: string, opts: { guildId?: string; extra?: unknown[]; mentionRoleId?: string; message?: string } = {}) {
  return {
    date: tomorrow(),
    time: '09:00',
    message: opts.message ?? 'Stand-up',
    recurrence: 'DAILY',
    timezone: 'UTC',
    destinations: [
      { type: 'discord_channel', metadata: { guild_id: opts.guildId ?? G_MAIN, channel_id: channelId, ...(opts.mentionRoleId ? { mention_role_id: opts.mentionRoleId } : {}) } },
      ...(opts.extra ?? []),
    ],
  };
}

export const webhook = { type: 'webhook', metadata: { url: 'http://127.0.0.1:8089/private-hook', platform: 'generic' } };
