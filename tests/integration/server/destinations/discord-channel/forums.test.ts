/**
 * Channel reminders into forum and media channels, end to end: each occurrence opens a new post
 * titled with the reminder (its tags chosen from the forum's, REQUIRE_TAG respected), or the
 * reminder posts into one chosen post (a thread); the API's checks and the picker's list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from '../../../../helpers/fake-discord/index.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { deliver as deliverKit, linkDiscord } from './channel-test-kit.ts';

const sf = (n: number) => `1${String(n).padStart(17, '0')}`;
const GUILD = sf(521);
const MEMBER = sf(721);
const CH = { general: sf(621), ideas: sf(622), bugs: sf(623), gallery: sf(624), closed: sf(625), council: sf(626), triage: sf(627) };
const TAG = { idea: sf(901), urgent: sf(902), bug: sf(903), crash: sf(904), decided: sf(905), open: sf(906), closed: sf(907) };
const POST = sf(831);
const REQUIRE_TAG = 1 << 4;

let fake: FakeDiscord;
let server: TestServer;
let member: Awaited<ReturnType<typeof signUp>>;

const reminderTo = (channelId: string, extra: Record<string, unknown> = {}, message = `Weekly review ${channelId}`) => ({
  date: new Date(Date.now() + 36 * 3_600_000).toISOString().slice(0, 10),
  time: '09:00',
  message,
  recurrence: 'DAILY',
  timezone: 'UTC',
  destinations: [{ type: 'discord_channel', metadata: { guild_id: GUILD, channel_id: channelId, ...extra } }],
});

async function create(channelId: string, extra: Record<string, unknown> = {}, message?: string) {
  const res = await member.api.post('/api/reminders', reminderTo(channelId, extra, message));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; destinations: Array<{ metadata: Record<string, unknown> }> };
}

const deliver = (reminderId: string, count = 1) => deliverKit({ server, fake, member }, reminderId, count);

beforeAll(async () => {
  fake = await startFakeDiscord();
  fake.addUser({ id: MEMBER, username: 'member' });
  fake.addGuild({
    id: GUILD,
    name: 'Forums',
    ownerId: sf(799),
    channels: [
      { id: CH.general, name: 'general', position: 0 },
      {
        id: CH.ideas,
        name: 'ideas',
        type: 15,
        position: 1,
        available_tags: [
          { id: TAG.idea, name: 'idea' },
          { id: TAG.urgent, name: 'urgent', moderated: true },
        ],
      },
      { id: CH.bugs, name: 'bugs', type: 15, position: 2, flags: REQUIRE_TAG, available_tags: [{ id: TAG.bug, name: 'bug' }, { id: TAG.crash, name: 'crash' }] },
      { id: CH.gallery, name: 'gallery', type: 16, position: 3 },
      // Members may read the forum and reply in posts, not open posts.
      { id: CH.closed, name: 'announcements-forum', type: 15, position: 4, permission_overwrites: [{ id: GUILD, type: 0, deny: PermissionFlags.SendMessages }] },
      // The member moderates this forum's threads; the bot does not.
      {
        id: CH.council,
        name: 'council',
        type: 15,
        position: 5,
        available_tags: [{ id: TAG.decided, name: 'decided', moderated: true }],
        permission_overwrites: [{ id: MEMBER, type: 1, allow: PermissionFlags.ManageThreads }],
      },
      { id: CH.triage, name: 'triage', type: 15, position: 6, flags: REQUIRE_TAG, available_tags: [{ id: TAG.open, name: 'open' }, { id: TAG.closed, name: 'closed' }] },
      { id: POST, name: 'Roadmap', type: 11, parent_id: CH.ideas, owner_id: MEMBER, applied_tags: [TAG.idea] },
    ],
    members: [{ userId: MEMBER }],
  });
  server = await startTestServer({
    env: { DISCORD_TOKEN: fake.botToken, DISCORD_CLIENT_ID: fake.clientId, DISCORD_CLIENT_SECRET: fake.clientSecret, DISCORD_API_URL: fake.apiUrl },
  });
  member = await signUp(server.url);
  await linkDiscord(server, member.id, MEMBER);
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('forum and media channels', () => {
  it('opens a new post per occurrence, titled with the reminder and carrying the chosen tags', async () => {
    const reminder = await create(CH.bugs, { forum_tag_ids: [TAG.bug] });
    expect(reminder.destinations[0]!.metadata).toMatchObject({ channel_type: 15, channel_name: 'bugs', forum_tag_ids: [TAG.bug] });
    expect(await deliver(reminder.id, 1)).toMatchObject({ status: 'delivered', attempts: [{ outcome: 'ok', code: null }] });
    expect(await deliver(reminder.id, 2)).toMatchObject({ status: 'delivered' });
    const posts = fake.threadsIn(CH.bugs);
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      expect(post).toMatchObject({ name: `Weekly review ${CH.bugs}`, type: 11, thread: { applied_tags: [TAG.bug], owner_id: fake.clientId } });
      // The post's first message is the delivery message, with its buttons.
      const [first] = fake.messagesIn(post.id);
      expect(first!.id).toBe(post.id);
      expect(first!.content).toBe(`⏰ **Reminder**\nWeekly review ${CH.bugs}`);
      expect(first!.components).toHaveLength(1);
    }
    // Nothing is posted in the forum itself (Discord refuses it).
    expect(fake.messagesIn(CH.bugs)).toHaveLength(0);
  });

  it('titles a post with the first 100 characters of the reminder on one line; a media channel takes posts too', async () => {
    const long = `Quarterly\nplanning ${'x'.repeat(200)}`;
    const reminder = await create(CH.gallery, {}, long);
    expect(await deliver(reminder.id)).toMatchObject({ status: 'delivered' });
    const [post] = fake.threadsIn(CH.gallery);
    expect(post!.name).toBe(`Quarterly planning ${'x'.repeat(200)}`.slice(0, 100));
    expect(post!.thread!.applied_tags).toEqual([]);
  });

  it('posts into one chosen post (a thread of the forum)', async () => {
    const reminder = await create(POST);
    expect(reminder.destinations[0]!.metadata).toMatchObject({ channel_type: 11, channel_name: 'Roadmap', parent_name: 'ideas' });
    expect(await deliver(reminder.id)).toMatchObject({ status: 'delivered' });
    expect(fake.messagesIn(POST).filter((m) => m.content.includes('Weekly review'))).toHaveLength(1);
    expect(fake.threadsIn(CH.ideas).map((t) => t.id)).toEqual([POST]);
  });

  it('refuses tags a forum needs but lacks, tags it does not have, and tags outside a forum, with codes', async () => {
    const required = await member.api.post('/api/reminders', reminderTo(CH.bugs));
    expect(required.status).toBe(400);
    expect(required.body).toMatchObject({ code: 'DISCORD_FORUM_TAG_REQUIRED', params: { channel: 'bugs' } });
    const unknown = await member.api.post('/api/reminders', reminderTo(CH.ideas, { forum_tag_ids: [TAG.bug] }));
    expect(unknown.body).toMatchObject({ code: 'DISCORD_UNKNOWN_FORUM_TAG', params: { channel: 'ideas', tag: TAG.bug } });
    // Tags by name are /remind's alone (resolved by the same rules): an HTTP client's are dropped, not read.
    const byName = await member.api.post('/api/reminders', reminderTo(CH.bugs, { forum_tag_names: ['bug'] }));
    expect(byName.body).toMatchObject({ code: 'DISCORD_FORUM_TAG_REQUIRED' });
    const text = await member.api.post('/api/reminders', reminderTo(CH.general, { forum_tag_ids: [TAG.idea] }));
    expect(text.body).toMatchObject({ code: 'DISCORD_TAGS_NOT_FORUM' });
    const many = await member.api.post('/api/reminders', reminderTo(CH.ideas, { forum_tag_ids: [1, 2, 3, 4, 5, 6].map((n) => sf(950 + n)) }));
    expect(many.status).toBe(400);
  });

  it('refuses a moderated tag unless both the owner and the bot manage threads there, naming who lacks it', async () => {
    const user = await member.api.post('/api/reminders', reminderTo(CH.ideas, { forum_tag_ids: [TAG.urgent] }));
    expect(user.status).toBe(403);
    expect(user.body).toMatchObject({ code: 'DISCORD_FORUM_TAG_MODERATED', params: { channel: 'ideas', tag: 'urgent', permission: 'MANAGE_THREADS', who: 'user' } });
    const bot = await member.api.post('/api/reminders', reminderTo(CH.council, { forum_tag_ids: [TAG.decided] }));
    expect(bot.body).toMatchObject({ code: 'DISCORD_FORUM_TAG_MODERATED', params: { tag: 'decided', who: 'bot' } });
  });

  it('leaves out a tag deleted since the save, and fails for good where that leaves none in a forum that requires one', async () => {
    const kept = await create(CH.triage, { forum_tag_ids: [TAG.open, TAG.closed] });
    const lost = await create(CH.triage, { forum_tag_ids: [TAG.closed] }, 'Close stale issues');
    fake.updateChannel(CH.triage, { available_tags: [{ id: TAG.open, name: 'open' }] });
    server.app.discord!.invalidateCache(GUILD);
    expect(await deliver(kept.id)).toMatchObject({ status: 'delivered' });
    expect(fake.threadsIn(CH.triage).map((t) => t.thread!.applied_tags)).toEqual([[TAG.open]]);
    const failed = await deliver(lost.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: [{ code: 'DISCORD_FORUM_TAG_REQUIRED' }] });
    expect(failed.attempts).toHaveLength(1);
    expect(fake.threadsIn(CH.triage)).toHaveLength(1);
  });

  it('refuses a forum the owner may not open posts in, naming what is missing', async () => {
    const res = await member.api.post('/api/reminders', reminderTo(CH.closed));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_CANNOT_POST', params: { channel: 'announcements-forum', who: 'user' } });
  });

  it('lists forums with their tags in the picker, and their posts right after them', async () => {
    const res = await member.api.post('/api/discord/guilds/channels', { guild_id: GUILD });
    expect(res.status).toBe(200);
    const byName = new Map(res.body.map((c: { name: string }) => [c.name, c]));
    expect(byName.get('bugs')).toMatchObject({ type: 15, require_tag: true, tags: [{ id: TAG.bug, name: 'bug', moderated: false }, { id: TAG.crash, name: 'crash', moderated: false }] });
    expect(byName.get('ideas')).toMatchObject({ type: 15, require_tag: false, tags: [{ name: 'idea' }, { name: 'urgent', moderated: true }] });
    expect(byName.get('gallery')).toMatchObject({ type: 16, tags: [] });
    const names = res.body.map((c: { name: string }) => c.name);
    expect(names.indexOf('Roadmap')).toBe(names.indexOf('ideas') + 1);
    expect(byName.get('Roadmap')).toMatchObject({ type: 11, parent_id: CH.ideas, bot_can_send: true });
    expect(names).not.toContain('announcements-forum');
  });
});
