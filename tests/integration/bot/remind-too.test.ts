/**
 * "Remind me too" against the fake Discord: the button under a channel delivery, a press
 * subscribing the presser (an account made on first use), a second press, the creator's count, the
 * subscriber's DM at the next occurrence (once, as theirs), "Stop reminding me", the server's rule,
 * and a deleted reminder taking its subscriptions with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../server/servers/settings-values.ts';
import { saveServerSettings, setServerPaused } from '../../../server/repositories/servers.ts';
import { insertSubscription } from '../../../server/repositories/subscriptions.ts';
import { deleteAccount } from '../../../server/repositories/accounts.ts';
import { MAX_SUBSCRIBERS } from '../../../server/reminders/subscriptions.ts';
import { seedAccount } from '../../helpers/webhook-sink.ts';
import { startFakeDiscord, type FakeDiscord } from '../../helpers/fake-discord/index.ts';
import type { StoredMessage } from '../../helpers/fake-discord/types.ts';
import { client, type TestServer } from '../../helpers/server.ts';
import { accountOf, command, EPHEMERAL, fireNow, ids, interact, seedDiscord, sessionFor, startChime, waitForMessages } from '../../helpers/bot-harness.ts';

let fake: FakeDiscord;
let server: TestServer;
let dir: string;
const app = () => server.app;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'chime-remindtoo-'));
  fake = await startFakeDiscord();
  seedDiscord(fake);
  server = await startChime(fake, dir);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const idFrom = (content: string) => /reminders\/([\w-]+)/.exec(content)![1]!;
const press = (userId: string, customId: string, msg: StoredMessage, extra: { guildId?: string; channelId?: string; locale?: string } = {}) =>
  interact(fake, fake.buttonPress({ userId, customId, messageId: msg.id, ...extra }));
const subscriptions = (reminderId: string) => app().db.selectFrom('reminder_subscriptions').selectAll().where('reminder_id', '=', reminderId).execute();
const inGeneral = { guildId: ids.guild, channelId: ids.general };

async function channelReminder(message: string, remindMeToo = true) {
  const r = await command(fake, {
    userId: ids.alice,
    name: 'remind',
    options: [
      { name: 'message', value: message },
      { name: 'when', value: 'in 1 hour' },
      { name: 'repeat', value: 'DAILY' },
      { name: 'where', value: 'channel' },
      ...(remindMeToo ? [{ name: 'remind_me_too', value: true }] : []),
    ],
    guildId: ids.guild,
    channelId: ids.general,
  });
  return r;
}

async function fireAndWait(reminderId: string, list: () => StoredMessage[], count: number) {
  await fireNow(app(), reminderId);
  const messages = await waitForMessages(fake, list, count);
  await fake.waitFor(
    async () => (await app().db.selectFrom('deliveries').select('status').where('reminder_id', '=', reminderId).where('status', '!=', 'delivered').execute()).length === 0 || null,
    3000,
    'all delivered',
  );
  return messages;
}

describe('Remind me too', () => {
  it('a press subscribes (account made on first use), a second press says so, the DM comes once as the subscriber\'s, Stop ends it', async () => {
    const created = await channelReminder('Stand-up in #general');
    const id = idFrom(created.content);
    const inChannel = () => fake.messagesIn(ids.general).filter((m) => m.content.endsWith('Stand-up in #general'));
    const [msg] = await fireAndWait(id, inChannel, 1);
    const rows = msg!.components as any[];
    expect(rows).toHaveLength(2);
    expect(rows[1].components[0]).toMatchObject({ custom_id: `rtoo:join:${id}`, label: 'Remind me too' });

    // Bob has no account yet; the press makes one (in his language) and subscribes him.
    expect(await accountOf(app(), ids.bob)).toBeUndefined();
    const first = await press(ids.bob, `rtoo:join:${id}`, msg!, { ...inGeneral, locale: 'fr' });
    expect(first.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(first.data.content).toMatch(/^🔔 Vous recevrez aussi ce rappel en message privé, la prochaine fois le <t:\d+:F>/);
    const bob = (await accountOf(app(), ids.bob))!;
    expect(bob).toBeDefined();
    expect(await subscriptions(id)).toMatchObject([{ account_id: bob.id }]);

    const second = await press(ids.bob, `rtoo:join:${id}`, msg!, { ...inGeneral, locale: 'fr' });
    expect(second.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(second.data.content).toBe('Vous suivez déjà ce rappel : il vous arrive aussi en message privé.');
    expect(await subscriptions(id)).toHaveLength(1);

    const own = await press(ids.alice, `rtoo:join:${id}`, msg!, inGeneral);
    expect(own.data.content).toBe('This is your reminder: you get it already.');

    // The creator sees the count, never the subscriber's destination.
    const alice = (await accountOf(app(), ids.alice))!;
    const api = client(server.url, await sessionFor(app(), alice.id));
    const read = await api.get(`/api/reminders/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.subscriber_count).toBe(1);
    expect(read.body.destinations.map((d: any) => d.type)).toEqual(['discord_channel']);
    expect(read.body.destinations[0].metadata.remind_me_too).toBe(true);
    const list = await api.get('/api/reminders');
    expect(list.body.find((r: any) => r.id === id).subscriber_count).toBe(1);

    // The next occurrence: the channel gets its message, Bob a DM of his own, in French, with Stop only.
    const toBob = () => fake.dmMessagesTo(ids.bob).filter((m) => m.content.endsWith('Stand-up in #general'));
    await fireAndWait(id, inChannel, 2);
    const [dm] = await waitForMessages(fake, toBob, 1);
    expect(dm!.components).toEqual([expect.objectContaining({ components: [expect.objectContaining({ custom_id: `rtoo:stop:${id}`, label: 'Ne plus me le rappeler' })] })]);
    const deliveries = await app().db.selectFrom('deliveries').select(['account_id', 'occurrence_utc', 'status']).where('reminder_id', '=', id).orderBy('created_at').execute();
    expect(deliveries.filter((d) => d.account_id === bob.id)).toHaveLength(1);
    // Nothing is sent twice: another pass of the scheduler finds nothing to do.
    await app().scheduler.drain();
    expect(toBob()).toHaveLength(1);

    const stop = await press(ids.bob, `rtoo:stop:${id}`, dm!, { locale: 'fr' });
    expect(stop.type).toBe(7);
    expect(stop.data.components).toEqual([]);
    expect(await subscriptions(id)).toEqual([]);
    expect((await api.get(`/api/reminders/${id}`)).body.subscriber_count).toBe(0);
    const again = await press(ids.bob, `rtoo:stop:${id}`, dm!, { locale: 'fr' });
    expect(again.data.content).toBe('Vous ne suivez plus ce rappel.');

    // After Stop: the channel still gets it, Bob does not.
    await fireAndWait(id, inChannel, 3);
    expect(toBob()).toHaveLength(1);
  });

  it('without the option there is no button; a full reminder says so; /remind refuses the option for a DM reminder', async () => {
    const created = await channelReminder('No button here', false);
    const id = idFrom(created.content);
    const [msg] = await fireAndWait(id, () => fake.messagesIn(ids.general).filter((m) => m.content.endsWith('No button here')), 1);
    expect(msg!.components as any[]).toHaveLength(1);
    const refused = await press(ids.bob, `rtoo:join:${id}`, msg!, inGeneral);
    expect(refused.data.content).toBe('Ce rappel ne propose plus « Me le rappeler aussi ».');

    // A full reminder: the next presser is told so, and nothing is written.
    const busy = idFrom((await channelReminder('Popular')).content);
    const [popular] = await fireAndWait(busy, () => fake.messagesIn(ids.general).filter((m) => m.content.endsWith('Popular')), 1);
    for (let i = 0; i < MAX_SUBSCRIBERS; i++) await insertSubscription(app().db, busy, await seedAccount(app().db));
    const full = await press(ids.bob, `rtoo:join:${busy}`, popular!, inGeneral);
    expect(full.data.content).toBe('Ce rappel a déjà 100 abonnés, le maximum possible.');
    expect(await subscriptions(busy)).toHaveLength(MAX_SUBSCRIBERS);
    const alice = (await accountOf(app(), ids.alice))!;
    expect((await client(server.url, await sessionFor(app(), alice.id)).get(`/api/reminders/${busy}`)).body.subscriber_count).toBe(MAX_SUBSCRIBERS);

    const dm = await command(fake, { userId: ids.alice, name: 'remind', options: [{ name: 'message', value: 'x' }, { name: 'when', value: 'in 1 hour' }, { name: 'remind_me_too', value: true }] });
    expect(dm.content).toBe('"Remind me too" is for channel reminders: choose "This channel" for where, or a channel.');
  });

  it('a deleted reminder takes its subscriptions; a server that turned the button off refuses it with a code', async () => {
    const created = await channelReminder('Going away');
    const id = idFrom(created.content);
    const [msg] = await fireAndWait(id, () => fake.messagesIn(ids.general).filter((m) => m.content.endsWith('Going away')), 1);
    await press(ids.carol, `rtoo:join:${id}`, msg!, inGeneral);
    expect(await subscriptions(id)).toHaveLength(1);

    // Carol's /reminders: none of her own, the one she follows, with its Stop button.
    const listed = await command(fake, { userId: ids.carol, name: 'reminders', locale: 'en-US' });
    expect(listed.content).toContain('**Reminders you follow** (Remind me too)');
    expect(listed.content).toContain('> Going away');
    const stopButton = listed.data.components.at(-1).components[0];
    expect(stopButton).toMatchObject({ custom_id: `rtoo:unfollow:${id}`, label: 'Stop 1' });
    const unfollowed = await press(ids.carol, `rtoo:unfollow:${id}`, msg!, { locale: 'en-US' });
    expect(unfollowed.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(unfollowed.data.content).toBe("🔕 Done: this reminder won't come to your DMs anymore.");
    expect(await subscriptions(id)).toEqual([]);
    expect((await command(fake, { userId: ids.carol, name: 'reminders', locale: 'en-US' })).content).not.toContain('Reminders you follow');
    await press(ids.carol, `rtoo:join:${id}`, msg!, inGeneral);
    expect(await subscriptions(id)).toHaveLength(1);
    const alice = (await accountOf(app(), ids.alice))!;
    const api = client(server.url, await sessionFor(app(), alice.id));
    expect((await api.delete(`/api/reminders/${id}`)).status).toBeLessThan(300);
    expect(await subscriptions(id)).toEqual([]);
    expect(await app().db.selectFrom('destinations').select('id').where('reminder_id', '=', id).execute()).toEqual([]);
    const gone = await press(ids.carol, `rtoo:join:${id}`, msg!, { ...inGeneral, locale: 'en-US' });
    expect(gone.data.content).toBe("This reminder doesn't exist anymore.");

    await saveServerSettings(app().db, { ...defaultSettings(ids.guild), allow_remind_me_too: 0, updated_at: new Date().toISOString() });
    const refused = await channelReminder('Not allowed here');
    expect(refused.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(refused.content).toBe('This server doesn\'t allow "Remind me too" buttons on reminders.');
    const viaApi = await api.post('/api/reminders', {
      date: '2030-01-01',
      time: '09:00',
      message: 'API',
      destinations: [{ type: 'discord_channel', metadata: { guild_id: ids.guild, channel_id: ids.general, remind_me_too: true } }],
    });
    expect(viaApi.status).toBe(403);
    expect(viaApi.body.code).toBe('SERVER_RULE_REMIND_ME_TOO');
    // A client cannot make a subscriber's destination itself.
    const internal = await api.post('/api/reminders', { date: '2030-01-01', time: '09:00', message: 'API', destinations: [{ type: 'discord_subscriber', metadata: {} }] });
    expect(internal.status).toBe(400);
    expect(internal.body.code).toBe('INVALID_DESTINATION');
    await saveServerSettings(app().db, { ...defaultSettings(ids.guild), updated_at: new Date().toISOString() });
  });

  it('a subscriber\'s DM claimed before a restart is sent once after it, with the same nonce', async () => {
    const created = await channelReminder('Across a restart');
    const id = idFrom(created.content);
    const inChannel = () => fake.messagesIn(ids.general).filter((m) => m.content.endsWith('Across a restart'));
    const [msg] = await fireAndWait(id, inChannel, 1);
    await press(ids.carol, `rtoo:join:${id}`, msg!, inGeneral);
    const carol = (await accountOf(app(), ids.carol))!;

    // The subscriber's send never answers: the occurrence is claimed (its outbox row written) and left.
    app().scheduler.setOptions({ shutdownTimeoutMs: 50 });
    app().scheduler.registerSender('discord_subscriber', {
      concurrencyKey: () => 'stuck',
      send: (ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ ok: false, retryable: true, code: 'TEST_ABORTED', error: 'aborted' }))),
    });
    await fireNow(app(), id);
    const pending = await fake.waitFor(
      () => app().db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).where('account_id', '=', carol.id).where('status', '=', 'pending').executeTakeFirst(),
      3000,
      'claimed for the subscriber',
    );
    await waitForMessages(fake, inChannel, 2);
    await server.close();

    server = await startChime(fake, dir);
    const toCarol = () => fake.dmMessagesTo(ids.carol).filter((m) => m.content.endsWith('Across a restart'));
    const [dm] = await waitForMessages(fake, toCarol, 1);
    expect(dm!.nonce).toBe(pending.idempotency_key.slice(0, 25));
    await app().scheduler.drain();
    expect(toCarol()).toHaveLength(1);
    expect(inChannel()).toHaveLength(2);
    const rows = await app().db.selectFrom('deliveries').select(['account_id', 'status']).where('reminder_id', '=', id).where('account_id', '=', carol.id).execute();
    expect(rows).toEqual([{ account_id: carol.id, status: 'delivered' }]);
  });

  it('subscribers get nothing while the reminder is paused or its channel paused by the server, and again after', async () => {
    const created = await channelReminder('Paused for all');
    const id = idFrom(created.content);
    const inChannel = () => fake.messagesIn(ids.general).filter((m) => m.content.endsWith('Paused for all'));
    const toBob = () => fake.dmMessagesTo(ids.bob).filter((m) => m.content.endsWith('Paused for all'));
    const [msg] = await fireAndWait(id, inChannel, 1);
    await press(ids.bob, `rtoo:join:${id}`, msg!, inGeneral);
    const alice = (await accountOf(app(), ids.alice))!;
    const api = client(server.url, await sessionFor(app(), alice.id));
    const deliveries = async () => (await app().db.selectFrom('deliveries').select('id').where('reminder_id', '=', id).execute()).length;

    // Paused by its creator: not due at all.
    expect((await api.post(`/api/reminders/${id}/pause`)).status).toBe(200);
    await fireNow(app(), id);
    await app().scheduler.drain();
    expect(await deliveries()).toBe(1);
    expect((await api.post(`/api/reminders/${id}/resume`)).status).toBe(200);

    // Its channel paused by the server's managers: the reminder fires (to nothing here), Bob gets nothing either.
    await setServerPaused(app().db, ids.guild, id, new Date().toISOString());
    await fireNow(app(), id);
    await app().scheduler.drain();
    // Claimed: the schedule moved on to its next occurrence.
    await fake.waitFor(async () => Date.parse((await app().db.selectFrom('reminders').select('next_fire_utc').where('id', '=', id).executeTakeFirstOrThrow()).next_fire_utc!) > Date.now() || null, 3000, 'claimed');
    expect(await deliveries()).toBe(1);
    expect(toBob()).toEqual([]);

    await setServerPaused(app().db, ids.guild, id, null);
    await fireAndWait(id, inChannel, 2);
    await waitForMessages(fake, toBob, 1);
    expect(await deliveries()).toBe(3);

    // Bob closes his account: what he followed goes with it; the reminder and its channel stay.
    const bob = (await accountOf(app(), ids.bob))!;
    await app().db.transaction().execute((trx) => deleteAccount(trx, bob.id));
    expect(await subscriptions(id)).toEqual([]);
    expect((await app().db.selectFrom('destinations').select('type').where('reminder_id', '=', id).execute()).map((d) => d.type)).toEqual(['discord_channel']);
    expect(await deliveries()).toBe(2);
    await fireAndWait(id, inChannel, 3);
  });
});
