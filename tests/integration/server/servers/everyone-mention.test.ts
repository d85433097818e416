/**
 * A channel reminder that pings @everyone (issue 28, docs/servers.md `everyone_mention`): the
 * destination's role is the one whose id is the guild's. Saved only when the creator and the bot
 * have Mention Everyone in the channel and the server's rule lets the creator; delivered with
 * `@everyone` in the content and `allowed_mentions.parse: ['everyone']`, the message's own
 * @everyone/@here kept inert.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fireNow, waitForMessages } from '../../../helpers/bot-harness.ts';
import { PermissionFlags } from '../../../helpers/fake-discord/index.ts';
import { CH, channelReminder, DEFAULT_SERVER_SETTINGS, type Fixture, G_MAIN, linkedAccount, ROLE, sf, startServersFixture, USER } from '../../../helpers/servers-fixture.ts';

let f: Fixture;
type Account = Awaited<ReturnType<typeof linkedAccount>>;
let owner: Account;
let mod: Account;
let chime: Account;
let member: Account;

/** Holders may mention @everyone (Discord's Mention Everyone permission). */
const HERALDS = sf(351);
/** The bot's role that gives it Mention Everyone. */
const BOT_HERALD = sf(352);

const everyone = (channelId: string, message?: string) => channelReminder(channelId, { mentionRoleId: G_MAIN, ...(message ? { message } : {}) });

beforeAll(async () => {
  f = await startServersFixture();
  f.fake.addRole(G_MAIN, { id: HERALDS, name: 'Heralds', permissions: PermissionFlags.MentionEveryone });
  f.fake.addRole(G_MAIN, { id: BOT_HERALD, name: 'Bot herald', permissions: PermissionFlags.MentionEveryone });
  // The member and the moderator (a manager by Manage Server) may mention everyone; the holder of
  // "Chime managers" (USER.chime) is a member of the server who may not.
  f.fake.updateMember(G_MAIN, USER.member, { roles: [ROLE.fans, HERALDS] });
  f.fake.updateMember(G_MAIN, USER.mod, { roles: [ROLE.mods, HERALDS] });
  f.fake.updateMember(G_MAIN, f.fake.clientId, { roles: [BOT_HERALD] });
  owner = await linkedAccount(f, USER.owner);
  mod = await linkedAccount(f, USER.mod);
  chime = await linkedAccount(f, USER.chime);
  member = await linkedAccount(f, USER.member);
});

afterAll(async () => {
  await f?.close();
});

beforeEach(async () => {
  f.fake.updateMember(G_MAIN, f.fake.clientId, { roles: [BOT_HERALD] });
  f.fake.updateChannel(CH.announcements, { permission_overwrites: [] });
  f.server.app.discord!.invalidateCache();
  await f.server.app.db.deleteFrom('server_settings').execute();
});

async function rules(patch: Record<string, unknown>) {
  const res = await owner.api.put(`/api/servers/${G_MAIN}/settings`, { ...DEFAULT_SERVER_SETTINGS, ...patch });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const roles = async (who: Account) => {
  const res = await who.api.post('/api/discord/guilds/roles', { guild_id: G_MAIN });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Array<{ id: string; name: string }>;
};

describe('saving a reminder that mentions @everyone', () => {
  it('is saved when the creator and the bot may mention everyone, and the delivery pings @everyone only', async () => {
    const made = await member.api.post('/api/reminders', everyone(CH.general, 'Party now @here, tell @everyone'));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const destination = made.body.destinations.find((d: { type: string }) => d.type === 'discord_channel');
    expect(destination.metadata).toMatchObject({ mention_role_id: G_MAIN, mention_role_name: '@everyone', channel_name: 'general' });

    await fireNow(f.server.app, made.body.id);
    const [message] = await waitForMessages(f.fake, () => f.fake.messagesIn(CH.general).filter((m) => String(m.content).includes('Party now')));
    const content = String(message!.content);
    expect(content.startsWith('@everyone ⏰')).toBe(true);
    expect(message!.allowed_mentions).toEqual({ parse: ['everyone'] });
    expect(message!.mention_everyone).toBe(true);
    // What the creator typed does not ping: only the head's @everyone is a mention.
    const [, ...typed] = content.split('\n');
    expect(typed.join('\n')).toBe('Party now @\u200bhere, tell @\u200beveryone');
    expect(message!.mention_roles).toEqual([]);
  });

  it('a test send shows @everyone without pinging anyone', async () => {
    const made = await member.api.post('/api/reminders', everyone(CH.general, 'Quiet test'));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const destination = made.body.destinations.find((d: { type: string }) => d.type === 'discord_channel');
    const sent = await member.api.post(`/api/reminders/${made.body.id}/destinations/${destination.id}/test`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [message] = await waitForMessages(f.fake, () => f.fake.messagesIn(CH.general).filter((m) => String(m.content).includes('Quiet test')));
    expect(String(message!.content).startsWith('@\u200beveryone ⏰')).toBe(true);
    expect(message!.allowed_mentions).toEqual({ parse: [] });
    expect(message!.mention_everyone).toBe(false);
  });

  it('an edit to @everyone meets the same checks', async () => {
    const made = await member.api.post('/api/reminders', channelReminder(CH.general));
    expect(made.status).toBe(201);
    const edited = await member.api.put(`/api/reminders/${made.body.id}`, everyone(CH.general));
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const refused = await chime.api.put(`/api/reminders/${(await chime.api.post('/api/reminders', channelReminder(CH.general))).body.id}`, everyone(CH.general));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_CANNOT_MENTION_EVERYONE' });
  });

  it('a creator without Mention Everyone is refused, with the permission named', async () => {
    const refused = await chime.api.post('/api/reminders', everyone(CH.general));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'DISCORD_PERMISSION_DENIED',
      reason: 'DISCORD_CANNOT_MENTION_EVERYONE',
      params: { who: 'user', permission: 'MENTION_EVERYONE', channel: 'general' },
      error: "You can't mention @everyone in #general: you need the Mention Everyone permission there",
    });
  });

  it('a bot without Mention Everyone in that channel (an overwrite) is refused, naming the bot', async () => {
    f.fake.updateChannel(CH.announcements, { permission_overwrites: [{ id: f.fake.clientId, type: 1, deny: PermissionFlags.MentionEveryone }] });
    f.server.app.discord!.invalidateCache();
    const refused = await member.api.post('/api/reminders', everyone(CH.announcements));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_CANNOT_MENTION_EVERYONE', params: { who: 'bot', channel: 'announcements' } });
    // Elsewhere the bot may.
    expect((await member.api.post('/api/reminders', everyone(CH.general))).status).toBe(201);
  });

  it('everyone_mention: false refuses a member (403 SERVER_RULE_EVERYONE_MENTION) and lets a manager', async () => {
    await rules({ everyone_mention: false });
    const refused = await member.api.post('/api/reminders', everyone(CH.general));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'SERVER_RULE_EVERYONE_MENTION', error: "In Main, only the server's managers can mention @everyone", rule: 'everyone_mention', params: { guild: 'Main' } });
    // An edit too.
    const plain = await member.api.post('/api/reminders', channelReminder(CH.general));
    expect(plain.status).toBe(201);
    expect((await member.api.put(`/api/reminders/${plain.body.id}`, everyone(CH.general))).body.code).toBe('SERVER_RULE_EVERYONE_MENTION');
    // Other roles are role_mentions' business, not this rule's.
    expect((await member.api.post('/api/reminders', channelReminder(CH.general, { mentionRoleId: ROLE.fans }))).status).toBe(201);
    expect((await mod.api.post('/api/reminders', everyone(CH.general))).status).toBe(201);
    await rules({ everyone_mention: true });
    expect((await member.api.post('/api/reminders', everyone(CH.general))).status).toBe(201);
  });

  it('a delivery after the creator lost Mention Everyone fails with that code instead of pinging', async () => {
    const made = await member.api.post('/api/reminders', everyone(CH.general, 'Lost the right'));
    expect(made.status).toBe(201);
    f.fake.updateMember(G_MAIN, f.fake.clientId, { roles: [] });
    f.server.app.discord!.invalidateCache();
    await fireNow(f.server.app, made.body.id);
    await f.fake.waitFor(
      async () => {
        const attempt = await f.server.app.db.selectFrom('delivery_attempts').select('error_code').where('reminder_id', '=', made.body.id).executeTakeFirst();
        return attempt?.error_code === 'DISCORD_CANNOT_MENTION_EVERYONE';
      },
      5000,
      'refused delivery',
    );
    expect(f.fake.messagesIn(CH.general).some((m) => String(m.content).includes('Lost the right'))).toBe(false);
  });
});

describe('POST /api/discord/guilds/roles offers @everyone', () => {
  it('first, when the user and the bot may mention everyone and the rules allow it', async () => {
    expect((await roles(member))[0]).toEqual({ id: G_MAIN, name: '@everyone', color: 0, managed: false });
    // Without the permission: not offered.
    expect((await roles(chime)).some((r) => r.id === G_MAIN)).toBe(false);
    // Nor when the bot lacks it.
    f.fake.updateMember(G_MAIN, f.fake.clientId, { roles: [] });
    f.server.app.discord!.invalidateCache();
    expect((await roles(member)).some((r) => r.id === G_MAIN)).toBe(false);
  });

  it('to managers only when everyone_mention is false', async () => {
    await rules({ everyone_mention: false });
    expect((await roles(member)).some((r) => r.id === G_MAIN)).toBe(false);
    expect((await roles(mod))[0]).toMatchObject({ id: G_MAIN, name: '@everyone' });
  });
});
