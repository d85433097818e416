/**
 * Channel reminders into announcement channels (optionally published: Discord's crosspost) and
 * into the text chat of voice and stage channels, end to end: the API's checks, the scheduler's
 * delivery through the real REST client, and the fake Discord's own rules (permissions, 10
 * publications per hour per channel).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from '../../../../helpers/fake-discord/index.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { deliver as deliverKit, linkDiscord } from './channel-test-kit.ts';

const sf = (n: number) => `1${String(n).padStart(17, '0')}`;
const GUILD = sf(501);
const CH = {
  general: sf(601),
  news: sf(602),
  busyNews: sf(603),
  voice: sf(604),
  stage: sf(605),
  mutedVoice: sf(606),
  noConnect: sf(607),
  lockedNews: sf(608),
};
const MEMBER = sf(701);

let fake: FakeDiscord;
let server: TestServer;
let member: Awaited<ReturnType<typeof signUp>>;

const reminderTo = (channelId: string, extra: Record<string, unknown> = {}) => ({
  date: new Date(Date.now() + 36 * 3_600_000).toISOString().slice(0, 10),
  time: '09:00',
  message: `Stand-up in ${channelId}`,
  recurrence: 'ONCE',
  timezone: 'UTC',
  destinations: [{ type: 'discord_channel', metadata: { guild_id: GUILD, channel_id: channelId, ...extra } }],
});

async function create(channelId: string, extra: Record<string, unknown> = {}) {
  const res = await member.api.post('/api/reminders', reminderTo(channelId, extra));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; destinations: Array<{ metadata: Record<string, unknown> }> };
}

const deliver = (reminderId: string) => deliverKit({ server, fake, member }, reminderId);

/** Uses up the channel's publications of the hour as another bot client would, through the fake's REST API. */
async function publishTenTimes(channelId: string) {
  const call = (path: string, body?: unknown) =>
    fetch(`${fake.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bot ${fake.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
  for (let i = 0; i < 10; i++) {
    const posted = (await (await call(`/channels/${channelId}/messages`, { content: `news ${i}` })).json()) as { id: string };
    expect((await call(`/channels/${channelId}/messages/${posted.id}/crosspost`)).status).toBe(200);
  }
  const extra = (await (await call(`/channels/${channelId}/messages`, { content: 'one more' })).json()) as { id: string };
  const refused = await call(`/channels/${channelId}/messages/${extra.id}/crosspost`);
  expect(refused.status).toBe(429);
  expect(await refused.json()).toMatchObject({ retry_after: expect.any(Number), global: false });
}

beforeAll(async () => {
  fake = await startFakeDiscord();
  fake.addUser({ id: MEMBER, username: 'member' });
  fake.addGuild({
    id: GUILD,
    name: 'Kinds',
    ownerId: sf(799),
    channels: [
      { id: CH.general, name: 'general', position: 0 },
      { id: CH.news, name: 'news', type: 5, position: 1 },
      { id: CH.busyNews, name: 'busy-news', type: 5, position: 2 },
      { id: CH.voice, name: 'Lounge', type: 2, position: 3 },
      { id: CH.stage, name: 'Town Hall', type: 13, position: 4 },
      // The bot may see the voice channel but not write in its chat.
      { id: CH.mutedVoice, name: 'Quiet', type: 2, position: 5, permission_overwrites: [{ id: fake.clientId, type: 1, deny: PermissionFlags.SendMessages }] },
      // Nobody may join the call; its chat is open: Connect is not needed to post there.
      { id: CH.noConnect, name: 'No Calls', type: 2, position: 6, permission_overwrites: [{ id: GUILD, type: 0, deny: PermissionFlags.Connect }] },
      // The member may read the announcements but not post them.
      { id: CH.lockedNews, name: 'official', type: 5, position: 7, permission_overwrites: [{ id: GUILD, type: 0, deny: PermissionFlags.SendMessages }] },
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

describe('announcement channels', () => {
  it('publishes a delivered reminder when asked: posted once, then crossposted', async () => {
    const reminder = await create(CH.news, { publish: true });
    expect(reminder.destinations[0]!.metadata).toMatchObject({ publish: true, channel_type: 5, channel_name: 'news' });
    const delivery = await deliver(reminder.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ outcome: 'ok', code: null }] });
    const posted = fake.messagesIn(CH.news).filter((m) => m.content.includes('Stand-up'));
    expect(posted).toHaveLength(1);
    expect(posted[0]!.flags & 1).toBe(1);
    expect(fake.requestsTo(/\/crosspost$/, 'POST').filter((r) => r.path.includes(posted[0]!.id))).toHaveLength(1);
  });

  it('without publish, posts in the announcement channel and does not publish', async () => {
    const reminder = await create(CH.news);
    expect(reminder.destinations[0]!.metadata).not.toHaveProperty('publish');
    expect(await deliver(reminder.id)).toMatchObject({ status: 'delivered' });
    const posted = fake.messagesIn(CH.news).filter((m) => m.content.includes('Stand-up'));
    expect(posted.at(-1)!.flags & 1).toBe(0);
  });

  it('past the 10 publications of the hour: delivered once, not sent again, the warning recorded', async () => {
    await publishTenTimes(CH.busyNews);
    const reminder = await create(CH.busyNews, { publish: true });
    const before = fake.messagesIn(CH.busyNews).length;
    const delivery = await deliver(reminder.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ outcome: 'ok', code: 'DISCORD_CROSSPOST_RATE_LIMITED' }] });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0].error).toMatch(/10 publications per hour/);
    const after = fake.messagesIn(CH.busyNews);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.flags & 1).toBe(0);
    const row = await server.app.db.selectFrom('deliveries').select(['status', 'attempts', 'next_attempt_at']).where('reminder_id', '=', reminder.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, next_attempt_at: null });
  });

  it('refuses publish on a text channel with a code, and a publish that is not a boolean', async () => {
    const text = await member.api.post('/api/reminders', reminderTo(CH.general, { publish: true }));
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ code: 'DISCORD_PUBLISH_NOT_ANNOUNCEMENT', params: { channel: 'general' } });
    const voice = await member.api.post('/api/reminders', reminderTo(CH.voice, { publish: true }));
    expect(voice.body).toMatchObject({ code: 'DISCORD_PUBLISH_NOT_ANNOUNCEMENT' });
    const word = await member.api.post('/api/reminders', reminderTo(CH.news, { publish: 'yes' }));
    expect(word.status).toBe(400);
    expect(word.body.code).toBe('VALIDATION_FAILED');
  });

  it('refuses an announcement channel the owner may not post in, naming what is missing', async () => {
    const res = await member.api.post('/api/reminders', reminderTo(CH.lockedNews, { publish: true }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_CANNOT_POST', error: "You can't send messages in #official" });
  });

  it('documents publish in the OpenAPI document (derived from the schema)', async () => {
    const doc = await client(server.url).get('/api/openapi.json');
    const body = doc.body.paths['/api/reminders'].post.requestBody.content['application/json'].schema;
    expect(body.properties.destinations.items.properties.metadata.properties.publish).toMatchObject({ type: 'boolean', description: expect.stringContaining('crosspost') });
  });
});

describe('the text chat of voice and stage channels', () => {
  it('delivers into a voice channel and a stage channel', async () => {
    for (const [channelId, type, name] of [
      [CH.voice, 2, 'Lounge'],
      [CH.stage, 13, 'Town Hall'],
      [CH.noConnect, 2, 'No Calls'],
    ] as const) {
      const reminder = await create(channelId);
      expect(reminder.destinations[0]!.metadata).toMatchObject({ channel_type: type, channel_name: name });
      expect(await deliver(reminder.id)).toMatchObject({ status: 'delivered', attempts: [{ outcome: 'ok', code: null }] });
      expect(fake.messagesIn(channelId).filter((m) => m.content.includes('Stand-up'))).toHaveLength(1);
    }
  });

  it('refuses a voice channel whose chat the bot may not write in, naming the permissions', async () => {
    const res = await member.api.post('/api/reminders', reminderTo(CH.mutedVoice));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'DISCORD_PERMISSION_DENIED', reason: 'DISCORD_CANNOT_POST', params: { channel: 'Quiet', who: 'bot' } });
    expect(res.body.error).toContain('Give it the View Channel and Send Messages permissions there');
  });

  it('lists every kind in the picker, in Discord order, with its type', async () => {
    const res = await member.api.post('/api/discord/guilds/channels', { account_id: 'ignored', guild_id: GUILD });
    expect(res.status).toBe(200);
    expect(res.body.map((c: { name: string; type: number; bot_can_send: boolean }) => [c.name, c.type, c.bot_can_send])).toEqual([
      ['general', 0, true],
      ['news', 5, true],
      ['busy-news', 5, true],
      ['Lounge', 2, true],
      ['Town Hall', 13, true],
      ['Quiet', 2, false],
      ['No Calls', 2, true],
    ]);
  });
});
