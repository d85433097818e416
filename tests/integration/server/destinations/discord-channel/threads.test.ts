/**
 * Channel reminders into threads (public, announcement, and private ones the bot is in), end to
 * end: the API's checks (Send Messages in Threads, thread membership, archived and locked
 * threads), the scheduler's delivery through the real REST client (an archived thread reopened
 * first) and the picker's lists (the fake's own thread rules: tests/integration/helpers/fake-discord.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from '../../../../helpers/fake-discord/index.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { deliver as deliverKit, linkDiscord } from './channel-test-kit.ts';

const sf = (n: number) => `1${String(n).padStart(17, '0')}`;
const GUILD = sf(511);
const MEMBER = sf(711);
const CH = { general: sf(611), news: sf(612), mods: sf(613), quiet: sf(614), readOnly: sf(615), attic: sf(616) };
/** #attic's archived threads: more than a page of each of Discord's two lists. */
const ATTIC_PUBLIC = 120;
const ATTIC_PRIVATE = 60;
const atticPublic = (i: number) => sf(3000 + i);
const atticPrivate = (i: number) => sf(4000 + i);
/** Archived in an order unlike their ids' (Discord orders the public list by archive time). */
const atticArchivedAt = (i: number) => new Date(Date.UTC(2026, 0, 1) + ((i * 37) % ATTIC_PUBLIC) * 60_000).toISOString();
const T = {
  open: sf(811),
  announcement: sf(812),
  private: sf(813),
  privateWithoutBot: sf(814),
  modsPrivate: sf(824),
  shelved: sf(825),
  shelvedPrivate: sf(826),
  shelvedHidden: sf(827),
  shelvedOthers: sf(828),
  privateWithoutMember: sf(815),
  archived: sf(816),
  lockedArchived: sf(817),
  lockedArchivedMods: sf(818),
  quiet: sf(819),
  readOnly: sf(820),
  doomed: sf(821),
  toLock: sf(822),
  closedLater: sf(823),
};

let fake: FakeDiscord;
let server: TestServer;
let member: Awaited<ReturnType<typeof signUp>>;

const reminderTo = (channelId: string) => ({
  date: new Date(Date.now() + 36 * 3_600_000).toISOString().slice(0, 10),
  time: '09:00',
  message: `Check-in ${channelId}`,
  recurrence: 'ONCE',
  timezone: 'UTC',
  destinations: [{ type: 'discord_channel', metadata: { guild_id: GUILD, channel_id: channelId } }],
});

async function create(channelId: string) {
  const res = await member.api.post('/api/reminders', reminderTo(channelId));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; destinations: Array<{ metadata: Record<string, unknown> }> };
}

const deliver = (reminderId: string) => deliverKit({ server, fake, member }, reminderId);

const postedIn = (channelId: string) => fake.messagesIn(channelId).filter((m) => m.content.includes('Check-in'));

beforeAll(async () => {
  fake = await startFakeDiscord();
  fake.addUser({ id: MEMBER, username: 'member' });
  const thread = (id: string, name: string, parent: string, extra: Record<string, unknown> = {}) => ({ id, name, type: 11, parent_id: parent, owner_id: MEMBER, ...extra });
  fake.addGuild({
    id: GUILD,
    name: 'Threads',
    ownerId: sf(799),
    channels: [
      { id: CH.general, name: 'general', position: 0 },
      { id: CH.news, name: 'news', type: 5, position: 1 },
      // The bot moderates threads here (Manage Threads): it may reopen a locked thread.
      { id: CH.mods, name: 'mods', position: 2, permission_overwrites: [{ id: fake.clientId, type: 1, allow: PermissionFlags.ManageThreads }] },
      // The bot may post in the channel but not in its threads.
      { id: CH.quiet, name: 'quiet', position: 3, permission_overwrites: [{ id: fake.clientId, type: 1, deny: PermissionFlags.SendMessagesInThreads }] },
      // Members may not post in this channel's threads.
      { id: CH.readOnly, name: 'read-only', position: 4, permission_overwrites: [{ id: GUILD, type: 0, deny: PermissionFlags.SendMessagesInThreads }] },
      { id: CH.attic, name: 'attic', position: 5 },
      ...Array.from({ length: ATTIC_PUBLIC }, (_, i) => thread(atticPublic(i), `attic-${i}`, CH.attic, { thread_metadata: { archived: true, archive_timestamp: atticArchivedAt(i) } })),
      ...Array.from({ length: ATTIC_PRIVATE }, (_, i) =>
        thread(atticPrivate(i), `attic-private-${i}`, CH.attic, { type: 12, member_ids: [MEMBER, fake.clientId], thread_metadata: { archived: true, archive_timestamp: atticArchivedAt(i) } }),
      ),
      thread(T.open, 'planning', CH.general),
      thread(T.announcement, 'launch-notes', CH.news, { type: 10 }),
      thread(T.private, 'staff-only', CH.general, { type: 12, member_ids: [MEMBER, fake.clientId] }),
      thread(T.privateWithoutBot, 'secret', CH.general, { type: 12, member_ids: [MEMBER] }),
      thread(T.privateWithoutMember, 'not-yours', CH.general, { type: 12, member_ids: [fake.clientId] }),
      thread(T.archived, 'old-plans', CH.general, { thread_metadata: { archived: true } }),
      thread(T.lockedArchived, 'closed', CH.general, { thread_metadata: { archived: true, locked: true } }),
      thread(T.lockedArchivedMods, 'mod-log', CH.mods, { thread_metadata: { archived: true, locked: true } }),
      thread(T.modsPrivate, 'mod-private', CH.mods, { type: 12, member_ids: [MEMBER] }),
      // Archived threads only the picker's archived list shows.
      thread(T.shelved, 'shelved', CH.mods, { thread_metadata: { archived: true, locked: true } }),
      thread(T.shelvedPrivate, 'shelved-private', CH.general, { type: 12, member_ids: [MEMBER, fake.clientId], thread_metadata: { archived: true } }),
      thread(T.shelvedHidden, 'shelved-hidden', CH.general, { type: 12, member_ids: [MEMBER], thread_metadata: { archived: true } }),
      thread(T.shelvedOthers, 'shelved-others', CH.general, { type: 12, member_ids: [fake.clientId], thread_metadata: { archived: true } }),
      thread(T.quiet, 'hush', CH.quiet),
      thread(T.readOnly, 'look-only', CH.readOnly),
      thread(T.doomed, 'doomed', CH.general),
      thread(T.toLock, 'to-lock', CH.general),
      thread(T.closedLater, 'closed-later', CH.general),
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

describe('threads as targets', () => {
  it('delivers into a public thread and an announcement thread, labelled with the kind and the channel', async () => {
    for (const [threadId, type, name, parent] of [
      [T.open, 11, 'planning', 'general'],
      [T.announcement, 10, 'launch-notes', 'news'],
    ] as const) {
      const reminder = await create(threadId);
      expect(reminder.destinations[0]!.metadata).toMatchObject({ channel_id: threadId, channel_type: type, channel_name: name, parent_name: parent });
      expect(await deliver(reminder.id)).toMatchObject({ status: 'delivered', attempts: [{ outcome: 'ok', code: null }] });
      expect(postedIn(threadId)).toHaveLength(1);
    }
  });

  it('checks a thread by reading it, without reloading the server\'s channel list each time', async () => {
    await create(T.open);
    const lists = () => fake.requestsTo(new RegExp(`^/guilds/${GUILD}/channels$`), 'GET').length;
    const reads = () => fake.requestsTo(new RegExp(`^/channels/${T.open}$`), 'GET').length;
    const [listsBefore, readsBefore] = [lists(), reads()];
    await create(T.open);
    expect(lists()).toBe(listsBefore);
    expect(reads()).toBe(readsBefore + 1);
  });

  it('delivers into a private thread the bot and the owner are in', async () => {
    const reminder = await create(T.private);
    expect(reminder.destinations[0]!.metadata).toMatchObject({ channel_type: 12, channel_name: 'staff-only' });
    expect(await deliver(reminder.id)).toMatchObject({ status: 'delivered' });
    expect(postedIn(T.private)).toHaveLength(1);
  });

  it('refuses a private thread without the bot, or without the owner, with a code', async () => {
    // Discord hides a private thread from a bot outside it (Missing Access, as for another server's channel).
    const hidden = await member.api.post('/api/reminders', reminderTo(T.privateWithoutBot));
    expect(hidden.status).toBe(400);
    expect(hidden.body).toMatchObject({ code: 'INVALID_DESTINATION', reason: 'DISCORD_UNKNOWN_CHANNEL', error: expect.stringContaining('a private thread the bot was not added to') });
    // A bot that moderates threads sees it, and is still not in it.
    const noBot = await member.api.post('/api/reminders', reminderTo(T.modsPrivate));
    expect(noBot.status).toBe(403);
    expect(noBot.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_BOT_NOT_IN_THREAD', params: { channel: 'mod-private', who: 'bot' } });
    const noMember = await member.api.post('/api/reminders', reminderTo(T.privateWithoutMember));
    expect(noMember.status).toBe(403);
    expect(noMember.body).toMatchObject({ reason: 'DISCORD_NOT_IN_THREAD', params: { who: 'user' }, error: 'You are not in this private thread' });
    expect(JSON.stringify(noMember.body)).not.toContain('not-yours');
  });

  it('names Send Messages in Threads when the bot or the owner lacks it', async () => {
    const bot = await member.api.post('/api/reminders', reminderTo(T.quiet));
    expect(bot.status).toBe(403);
    expect(bot.body).toMatchObject({ reason: 'DISCORD_CANNOT_POST_IN_THREAD', params: { channel: 'hush', parent: 'quiet', permission: 'SEND_MESSAGES_IN_THREADS', who: 'bot' } });
    expect(bot.body.error).toContain('Send Messages in Threads permissions in #quiet');
    const user = await member.api.post('/api/reminders', reminderTo(T.readOnly));
    expect(user.body).toMatchObject({ reason: 'DISCORD_CANNOT_POST_IN_THREAD', params: { channel: 'look-only', who: 'user' } });
  });

  it('reopens an archived thread before posting in it', async () => {
    const reminder = await create(T.archived);
    expect(await deliver(reminder.id)).toMatchObject({ status: 'delivered', attempts: [{ outcome: 'ok' }] });
    const reopen = fake.requestsTo(new RegExp(`^/channels/${T.archived}$`), 'PATCH');
    expect(reopen).toHaveLength(1);
    expect(reopen[0]!.body).toEqual({ archived: false });
    expect(fake.threadsIn(CH.general).find((t) => t.id === T.archived)!.thread!.archived).toBe(false);
    expect(postedIn(T.archived)).toHaveLength(1);
  });

  it('refuses an archived and locked thread unless the bot may manage threads there', async () => {
    const refused = await member.api.post('/api/reminders', reminderTo(T.lockedArchived));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ reason: 'DISCORD_THREAD_ARCHIVED', params: { channel: 'closed', permission: 'MANAGE_THREADS' } });
    const reminder = await create(T.lockedArchivedMods);
    expect(await deliver(reminder.id)).toMatchObject({ status: 'delivered' });
    expect(postedIn(T.lockedArchivedMods)).toHaveLength(1);
  });

  it('fails for good, with a code, when the thread was archived and locked after the save', async () => {
    const reminder = await create(T.toLock);
    fake.updateChannel(T.toLock, { thread_metadata: { archived: true, locked: true } });
    const delivery = await deliver(reminder.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ outcome: 'error', code: 'DISCORD_THREAD_ARCHIVED' }] });
    expect(delivery.attempts).toHaveLength(1);
    expect(postedIn(T.toLock)).toHaveLength(0);
  });

  it('fails with the unknown-channel code when the thread was deleted', async () => {
    const reminder = await create(T.doomed);
    fake.removeChannel(T.doomed);
    const delivery = await deliver(reminder.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ code: 'DISCORD_UNKNOWN_CHANNEL' }] });
  });

  it('lists active threads right after their channel in the picker, private ones only where the bot is', async () => {
    const res = await member.api.post('/api/discord/guilds/channels', { guild_id: GUILD });
    expect(res.status).toBe(200);
    const rows = res.body.map((c: { name: string; type: number; parent_id?: string; bot_can_send: boolean; reason: string | null }) => [c.name, c.type, c.parent_id ?? null, c.bot_can_send, c.reason]);
    const general = rows.findIndex((r: unknown[]) => r[0] === 'general');
    const news = rows.findIndex((r: unknown[]) => r[0] === 'news');
    // Threads follow their channel; archived ones (closed, and to-lock since an earlier test) are not listed.
    const underGeneral = rows.slice(general + 1, news);
    expect(underGeneral.map((r: unknown[]) => r[0])).toEqual(expect.arrayContaining(['planning', 'staff-only']));
    expect(underGeneral.every((r: unknown[]) => r[2] === CH.general)).toBe(true);
    // Private threads only where both the bot and the owner are in them: 'not-yours' is not named to the owner.
    for (const name of ['secret', 'not-yours', 'closed', 'to-lock']) expect(underGeneral.map((r: unknown[]) => r[0])).not.toContain(name);
    expect(rows[news + 1]).toEqual(['launch-notes', 10, CH.news, true, null]);
    expect(rows.find((r: unknown[]) => r[0] === 'hush')).toEqual(['hush', 11, CH.quiet, false, 'DISCORD_CANNOT_POST_IN_THREAD']);
    // The owner may not post in read-only's threads: not offered.
    expect(rows.find((r: unknown[]) => r[0] === 'look-only')).toBeUndefined();
  });
});

describe('archived threads in the picker', () => {
  it('lists a channel\'s archived threads on demand, public ones and private ones the bot is in, saying which the bot may reopen', async () => {
    const res = await member.api.post('/api/discord/guilds/threads/archived', { guild_id: GUILD, channel_id: CH.mods });
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    // The bot manages threads in #mods: it may reopen a locked one.
    expect(res.body.threads).toContainEqual({ id: T.shelved, name: 'shelved', type: 11, parent_id: CH.mods, archived: true, bot_can_send: true, bot_can_mention: false, reason: null });
    const general = await member.api.post('/api/discord/guilds/threads/archived', { guild_id: GUILD, channel_id: CH.general });
    const byName = new Map(general.body.threads.map((t: { name: string }) => [t.name, t]));
    // Locked, and the bot may not manage threads in #general.
    expect(byName.get('closed')).toMatchObject({ archived: true, bot_can_send: false, reason: 'DISCORD_THREAD_ARCHIVED' });
    expect(byName.get('shelved-private')).toMatchObject({ type: 12, bot_can_send: true, reason: null });
    // Not the private ones without the bot, nor those the owner is not in.
    expect(byName.has('shelved-hidden')).toBe(false);
    expect(byName.has('shelved-others')).toBe(false);
    for (const row of general.body.threads) expect(row).toMatchObject({ parent_id: CH.general, archived: true });
  });

  it('pages through a channel with 120 archived public threads and 60 private ones: every one once, in Discord\'s orders, then no cursor', async () => {
    type Page = { threads: Array<{ id: string; type: number }>; next_cursor: string | null };
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Page } = await member.api.post('/api/discord/guilds/threads/archived', { guild_id: GUILD, channel_id: CH.attic, ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      pages.push(res.body);
      cursor = res.body.next_cursor;
    } while (cursor && pages.length < 10);
    // Three pages of 50 public threads (50, 50, 20), two of the private ones (50, 10).
    expect(pages.map((p) => p.threads.filter((t) => t.type === 11).length)).toEqual([50, 50, 20]);
    expect(pages.map((p) => p.threads.filter((t) => t.type === 12).length)).toEqual([50, 10, 0]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    const all = pages.flatMap((p) => p.threads);
    expect(new Set(all.map((t) => t.id)).size).toBe(ATTIC_PUBLIC + ATTIC_PRIVATE);
    // Public ones newest archived first; private ones by id, newest first (Discord's two orders).
    const publicIds = all.filter((t) => t.type === 11).map((t) => t.id);
    const newestArchivedFirst = Array.from({ length: ATTIC_PUBLIC }, (_, i) => i).sort((a, b) => atticArchivedAt(b).localeCompare(atticArchivedAt(a)));
    expect(publicIds).toEqual(newestArchivedFirst.map(atticPublic));
    expect(all.filter((t) => t.type === 12).map((t) => t.id)).toEqual(Array.from({ length: ATTIC_PRIVATE }, (_, i) => atticPrivate(ATTIC_PRIVATE - 1 - i)));
    // Each Discord read asked for one page of 50, going on from where the last one stopped.
    const reads = fake.requestsTo(new RegExp(`^/channels/${CH.attic}/(threads/archived/public|users/@me/threads/archived/private)$`), 'GET');
    expect(reads.map((r) => r.query.limit)).toEqual(Array(reads.length).fill('50'));
    const befores = reads.filter((r) => r.path.endsWith('/public')).map((r) => r.query.before ?? null);
    expect(befores).toEqual([null, atticArchivedAt(newestArchivedFirst[49]!), atticArchivedAt(newestArchivedFirst[99]!)]);
    expect(reads.filter((r) => r.path.endsWith('/private')).map((r) => r.query.before ?? null)).toEqual([null, atticPrivate(ATTIC_PRIVATE - 50)]);
  });

  it('refuses a cursor it did not answer', async () => {
    for (const cursor of ['nope', Buffer.from('{"p":"yesterday"}').toString('base64url'), Buffer.from('{"j":"../x"}').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      const res = await member.api.post('/api/discord/guilds/threads/archived', { guild_id: GUILD, channel_id: CH.attic, cursor });
      expect(res.status, cursor).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('answers an unknown channel, or one of another server, as unknown; a missing or malformed id is a validation error', async () => {
    const unknown = await member.api.post('/api/discord/guilds/threads/archived', { guild_id: GUILD, channel_id: sf(999) });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'INVALID_DESTINATION', reason: 'DISCORD_UNKNOWN_CHANNEL' });
    expect((await member.api.post('/api/discord/guilds/threads/archived', { guild_id: GUILD })).body.code).toBe('VALIDATION_FAILED');
    expect((await member.api.post('/api/discord/guilds/threads/archived', { guild_id: GUILD, channel_id: '../x' })).body.code).toBe('VALIDATION_FAILED');
  });
});
