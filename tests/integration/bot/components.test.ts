// Runs on SQLite only: the buttons call the reminder service that the API suites run on both databases (vitest.config.ts).
/**
 * Discord delivery: the senders through the real scheduler and called directly, the buttons under
 * a delivered reminder (also after a restart), and the failure mapping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DiscordAPIError, REST } from '@discordjs/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFailureNotifier, FAILURE_NOTICE_INTERVAL_MS } from '../../../server/destinations/discord-channel/failure-notice.ts';
import { createDiscordChannelSender } from '../../../server/destinations/discord-channel/sender.ts';
import { mapDiscordError } from '../../../server/destinations/discord-common/delivery.ts';
import { createDiscordDmSender } from '../../../server/destinations/discord-dm/sender.ts';
import type { SendContext } from '../../../server/scheduler/types.ts';
import { startFakeDiscord, type FakeDiscord } from '../../helpers/fake-discord/index.ts';
import type { StoredMessage } from '../../helpers/fake-discord/types.ts';
import { client } from '../../helpers/server.ts';
import type { TestServer } from '../../helpers/server.ts';
import { accountOf, command, EPHEMERAL, fireNow, ids, interact, P, PUBLIC_URL, seedDiscord, sessionFor, startChime, waitForMessages } from '../../helpers/bot-harness.ts';

let fake: FakeDiscord;
let server: TestServer;
let dir: string;
const app = () => server.app;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'chime-bot-'));
  fake = await startFakeDiscord();
  seedDiscord(fake);
  server = await startChime(fake, dir);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const reminder = (id: string) => app().db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const idFrom = (content: string) => /reminders\/([\w-]+)/.exec(content)![1]!;

/** /remind, make it due, wait for the message. */
async function deliveredReminder(
  userId: string,
  message: string,
  where: { guildId?: string; channelId?: string; role?: string; repeat?: string } = {},
): Promise<{ id: string; msg: StoredMessage }> {
  const options = [
    { name: 'message', value: message },
    { name: 'when', value: 'in 1 hour' },
    ...(where.repeat ? [{ name: 'repeat', value: where.repeat }] : []),
    ...(where.guildId ? [{ name: 'where', value: 'channel' }] : []),
    ...(where.role ? [{ name: 'role', value: where.role }] : []),
  ];
  const r = await command(fake, { userId, name: 'remind', options, guildId: where.guildId, channelId: where.channelId });
  const id = idFrom(r.content);
  const list = () => (where.channelId ? fake.messagesIn(where.channelId) : fake.dmMessagesTo(userId)).filter((m) => m.content.endsWith(message));
  await fireNow(app(), id);
  const [msg] = await waitForMessages(fake, list);
  await fake.waitFor(async () => (await app().db.selectFrom('deliveries').select('status').where('reminder_id', '=', id).executeTakeFirst())?.status === 'delivered', 3000, 'delivered');
  return { id, msg: msg! };
}

const press = (userId: string, customId: string, msg: StoredMessage, extra: { guildId?: string; channelId?: string; locale?: string } = {}) =>
  interact(fake, fake.buttonPress({ userId, customId, messageId: msg.id, ...extra }));

describe('buttons under a delivered reminder', () => {
  it('snooze 10 min, snooze 1 h and tomorrow reschedule like POST /snooze; done removes the buttons', async () => {
    const { id, msg } = await deliveredReminder(ids.alice, 'Take a break', { repeat: 'DAILY' });
    const before = await reminder(id);

    const s10 = await press(ids.alice, `rem:snooze10:${id}`, msg);
    expect(s10.type).toBe(4);
    expect(s10.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(s10.data.content).toMatch(/^💤 Snoozed until <t:\d+:F> \(<t:\d+:R>\)\.$/);
    let row = await reminder(id);
    expect(Math.abs(Date.parse(row.next_fire_utc!) - (Date.now() + 600_000))).toBeLessThan(5_000);
    expect(row.snoozed_at_utc).toBe(row.next_fire_utc);
    // The regular schedule goes on from the same occurrence after the snooze.
    expect(row.next_occurrence_utc).toBe(before.next_occurrence_utc);

    await press(ids.alice, `rem:snooze60:${id}`, msg);
    row = await reminder(id);
    expect(Math.abs(Date.parse(row.next_fire_utc!) - (Date.now() + 3_600_000))).toBeLessThan(5_000);

    // "Tomorrow": the occurrence's wall-clock time (to the second), not the time the message arrived.
    const { occurrence_utc } = await app().db.selectFrom('deliveries').select('occurrence_utc').where('reminder_id', '=', id).executeTakeFirstOrThrow();
    const occurrence = Date.parse(occurrence_utc);
    const tomorrow = (msg.components as any[])[0].components[2].custom_id as string;
    expect(tomorrow).toBe(`rem:tomorrow:${id}:${occurrence}`);
    await press(ids.alice, tomorrow, msg);
    row = await reminder(id);
    expect(row.next_fire_utc).toBe(new Date(Math.floor(occurrence / 1000) * 1000 + 86_400_000).toISOString());
    // In the reminder's zone, across a DST change: a Paris occurrence the Saturday before spring-forward, 23 h later.
    await app().db.updateTable('reminders').set({ timezone: 'Europe/Paris' }).where('id', '=', id).execute();
    await press(ids.alice, `rem:tomorrow:${id}:${Date.parse('2027-03-27T08:00:00Z')}`, msg);
    expect((await reminder(id)).next_fire_utc).toBe('2027-03-28T07:00:00.000Z');
    await app().db.updateTable('reminders').set({ timezone: before.timezone }).where('id', '=', id).execute();

    const done = await press(ids.alice, `rem:done:${id}`, msg);
    expect(done.type).toBe(7);
    expect(done.data.components).toEqual([]);
    expect(fake.dmMessagesTo(ids.alice).find((m) => m.id === msg.id)!.components).toEqual([]);
  });

  it('"Done" cancels a snooze still pending: it is not delivered a second time, the schedule goes on', async () => {
    const { id, msg } = await deliveredReminder(ids.alice, 'Stretch (done after snooze)', { repeat: 'DAILY' });
    const regular = (await reminder(id)).next_occurrence_utc;
    await press(ids.alice, `rem:snooze10:${id}`, msg);
    expect((await reminder(id)).snoozed_at_utc).not.toBeNull();
    // Ten minutes go by in a second and a half: the snooze would fire then.
    const soon = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000).toISOString();
    await app().db.updateTable('reminders').set({ snoozed_at_utc: soon, next_fire_utc: soon }).where('id', '=', id).execute();
    app().scheduler.wake();

    const done = await press(ids.alice, `rem:done:${id}`, msg);
    expect(done.type).toBe(7);
    const note = await fake.waitForInteractionResponse(done.id, { kind: 'followup' });
    expect(note.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(note.data.content).toContain('snooze is cancelled');
    const row = await reminder(id);
    expect(row).toMatchObject({ snoozed_at_utc: null, next_fire_utc: regular, next_occurrence_utc: regular });

    await new Promise((r) => setTimeout(r, Date.parse(soon) - Date.now() + 1500));
    await app().scheduler.drain();
    expect(fake.dmMessagesTo(ids.alice).filter((m) => m.content.endsWith('Stretch (done after snooze)'))).toHaveLength(1);
    expect(await app().db.selectFrom('deliveries').select('id').where('reminder_id', '=', id).execute()).toHaveLength(1);
  });

  it('only the owner may use them; a deleted reminder says so', async () => {
    const { id, msg } = await deliveredReminder(ids.alice, 'Team sync', { guildId: ids.guild, channelId: ids.general, role: ids.team });
    const before = await reminder(id);
    const refused = await press(ids.bob, `rem:snooze10:${id}`, msg, { guildId: ids.guild, channelId: ids.general, locale: 'fr' });
    expect(refused.type).toBe(4);
    expect(refused.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(refused.data.content).toBe('Seule la personne qui a créé ce rappel peut utiliser ces boutons.');
    expect(await reminder(id)).toEqual(before);
    const doneByOther = await press(ids.bob, `rem:done:${id}`, msg, { guildId: ids.guild, channelId: ids.general });
    expect(doneByOther.type).toBe(4);
    expect(fake.messagesIn(ids.general).find((m) => m.id === msg.id)!.components).toHaveLength(1);

    const ok = await press(ids.alice, `rem:snooze10:${id}`, msg, { guildId: ids.guild, channelId: ids.general });
    expect(ok.data.content).toContain('Snoozed until');

    await command(fake, { userId: ids.alice, name: 'reminder', options: [{ name: 'delete', options: [{ name: 'reminder', value: id }] }] });
    const gone = await press(ids.alice, `rem:snooze10:${id}`, msg, { guildId: ids.guild, channelId: ids.general });
    expect(gone.data.content).toBe("This reminder doesn't exist anymore.");
  });

  it('keep working after a restart (state is in the custom id and the database)', async () => {
    const { id, msg } = await deliveredReminder(ids.alice, 'Survive a restart');
    await server.close();
    server = await startChime(fake, dir);
    const r = await press(ids.alice, `rem:snooze60:${id}`, msg);
    expect(r.data.content).toContain('Snoozed until');
    expect(Math.abs(Date.parse((await reminder(id)).next_fire_utc!) - (Date.now() + 3_600_000))).toBeLessThan(5_000);
    const done = await press(ids.alice, `rem:done:${id}`, msg);
    expect(done.type).toBe(7);
  });
});

describe('delivery failures', () => {
  it('50007 (cannot DM): failed for good, destination disabled, listed in GET /api/reminders/errors', async () => {
    fake.addUser({ id: '200000000000000006', username: 'frank' });
    const r = await command(fake, { userId: '200000000000000006', name: 'remind', options: [{ name: 'message', value: 'Unreachable' }, { name: 'when', value: 'in 1 hour' }] });
    const id = idFrom(r.content);
    fake.setAcceptsDms('200000000000000006', false);
    await fireNow(app(), id);
    const attempt = await fake.waitFor(
      () => app().db.selectFrom('delivery_attempts').selectAll().where('reminder_id', '=', id).executeTakeFirst(),
      5000,
      'attempt',
    );
    // A machine code, not Discord's number: the scheduler stores no destination-specific fields.
    expect(attempt).toMatchObject({ outcome: 'failed', http_status: 403, error_code: 'DISCORD_CANNOT_DM', discord_code: null });
    expect(attempt.error).toContain("Discord doesn't let Chime send you direct messages");
    const dest = await app().db.selectFrom('destinations').selectAll().where('reminder_id', '=', id).executeTakeFirstOrThrow();
    expect(dest.disabled_at).not.toBeNull();
    expect(dest.disabled_reason).toBe(attempt.error);

    const account = (await accountOf(app(), '200000000000000006'))!;
    const api = client(server.url, await sessionFor(app(), account.id));
    const errors = await api.get('/api/reminders/errors');
    expect(errors.status).toBe(200);
    expect(errors.body[0]).toMatchObject({ reminder_id: id, reminder_message: 'Unreachable', destination_type: 'discord_dm', http_status: 403, code: 'DISCORD_CANNOT_DM' });
    const shown = await api.get(`/api/reminders/${id}`);
    expect(shown.body.destinations[0].disabled_reason).toContain("doesn't let Chime");
  });

  it('a channel that fails for good at send time: the owner gets a DM in their language with the channel and the code, once a day', async () => {
    const notices = () => fake.dmMessagesTo(ids.bob).filter((m) => m.content.includes('DISCORD_CANNOT_POST'));
    fake.addChannel(ids.guild, { id: '300000000000000016', name: 'annonces' });
    const r = await command(fake, {
      userId: ids.bob,
      name: 'remind',
      options: [{ name: 'message', value: 'Réunion hebdo' }, { name: 'when', value: 'in 1 hour' }, { name: 'where', value: 'channel' }],
      guildId: ids.guild,
      channelId: '300000000000000016',
      locale: 'fr',
    });
    const id = idFrom(r.content);
    // The bot loses Send Messages there after the reminder was set.
    fake.updateChannel('300000000000000016', { permission_overwrites: [{ id: fake.clientId, type: 1, deny: P.SendMessages }] });
    await fake.waitFor(() => (app().bot!.client.channels.cache.get('300000000000000016') as any)?.permissionOverwrites?.cache.has(fake.clientId), 2000, 'CHANNEL_UPDATE');
    await fireNow(app(), id);
    const [notice] = await waitForMessages(fake, notices);
    expect(notice!.content).toBe(
      [
        '⚠️ **Un rappel n\'a pas pu être publié** dans <#300000000000000016> (#annonces, Test Guild).',
        'Rappel : Réunion hebdo',
        "Erreur `DISCORD_CANNOT_POST` : Vous ou Chime ne pouvez plus voir ce salon ou y envoyer des messages.",
        'Chime a cessé de publier ce rappel à cet endroit. Corrigez le problème, puis réactivez le salon depuis la page du rappel.',
        `Le voir : ${PUBLIC_URL}/reminders/${id}`,
      ].join('\n'),
    );
    expect(notice!.mentions).toEqual([]);
    await fake.waitFor(() => app().db.selectFrom('delivery_attempts').select('id').where('reminder_id', '=', id).executeTakeFirst(), 3000, 'attempt recorded');

    // Turned back on, failing again the same day: no second notice (in this process, and after a
    // restart, which the delivery log tells).
    await app().db.updateTable('destinations').set({ disabled_at: null, disabled_reason: null }).where('reminder_id', '=', id).execute();
    await fireNow(app(), id);
    await fake.waitFor(async () => (await app().db.selectFrom('delivery_attempts').select('id').where('reminder_id', '=', id).execute()).length >= 2, 3000, 'second attempt');
    const dest = await app().db.selectFrom('destinations').selectAll().where('reminder_id', '=', id).executeTakeFirstOrThrow();
    const account = (await accountOf(app(), ids.bob))!;
    const restarted = createFailureNotifier({ db: app().db, rest: app().discord!.rest, publicUrl: PUBLIC_URL });
    const now = new Date().toISOString();
    await restarted(
      {
        deliveryId: 'another-delivery',
        idempotencyKey: 'k',
        attempt: 1,
        reminder: { id, message: 'Réunion hebdo', recurrence_type: 'ONCE', timezone: 'UTC', remind_at_utc: now },
        account: { id: account.id, timezone: 'UTC', locale: 'fr', username: 'bob' },
        destination: { id: dest.id, type: 'discord_channel', metadata: JSON.parse(dest.metadata), secret: null },
        occurrenceUtc: now,
        firedAt: now,
        late: false,
        signal: AbortSignal.timeout(5000),
      },
      { ok: false, code: 'DISCORD_CANNOT_POST', error: 'x', retryable: false, disableDestination: true },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notices()).toHaveLength(1);
  });

  it('5xx: retryable; the retry delivers once, with the same nonce', async () => {
    app().scheduler.setOptions({ retryDelaysMs: [300, 300], retryJitter: 0 });
    fake.addUser({ id: '200000000000000007', username: 'gina' });
    const r = await command(fake, { userId: '200000000000000007', name: 'remind', options: [{ name: 'message', value: 'Flaky' }, { name: 'when', value: 'in 1 hour' }] });
    const id = idFrom(r.content);
    // The REST client itself retries 5xx twice: three failures make the attempt fail.
    fake.failNext({ method: 'POST', pathPattern: /^\/channels\/\d+\/messages$/, status: 502, body: { message: 'Bad Gateway', code: 0 }, times: 3 });
    await fireNow(app(), id);
    const [msg] = await waitForMessages(fake, () => fake.dmMessagesTo('200000000000000007'), 1, 8000);
    // Attempt rows are written in batches, a moment after the message itself.
    const attempts = await fake.waitFor(async () => {
      const rows = await app().db.selectFrom('delivery_attempts').selectAll().where('reminder_id', '=', id).orderBy('attempt').execute();
      return rows.length >= 2 ? rows : null;
    }, 3000, 'two attempts');
    expect(attempts.map((a) => [a.attempt, a.outcome, a.http_status])).toEqual([
      [1, 'retrying', 502],
      [2, 'delivered', 200],
    ]);
    expect(attempts[0]!.error).toContain('Discord is unavailable right now');
    const posts = fake.requestsTo(/^\/channels\/\d+\/messages$/, 'POST').filter((q) => q.body?.content?.endsWith('Flaky'));
    expect(posts.length).toBe(4);
    expect(new Set(posts.map((q) => q.body.nonce)).size).toBe(1);
    expect(fake.dmMessagesTo('200000000000000007')).toHaveLength(1);
    expect(msg!.content).toBe('⏰ **Reminder**\nFlaky');
  });
});

describe('senders called directly', () => {
  let accountId = '';
  const ctx = (destination: SendContext['destination'], overrides: Partial<SendContext> = {}): SendContext => {
    const now = new Date().toISOString();
    return {
      deliveryId: 'd-1',
      idempotencyKey: `msg_${crypto.randomUUID()}`,
      attempt: 1,
      reminder: { id: 'r-direct', message: 'Direct', recurrence_type: 'ONCE', timezone: 'UTC', remind_at_utc: now },
      account: { id: accountId, timezone: 'UTC', locale: 'en-US', username: 'alice' },
      destination,
      occurrenceUtc: now,
      firedAt: now,
      late: false,
      signal: AbortSignal.timeout(10_000),
      ...overrides,
    };
  };
  const dmSender = (rest: REST) => createDiscordDmSender({ db: app().db, rest });
  const channelSender = (rest: REST) => createDiscordChannelSender({ db: app().db, rest, checkChannelAccess: app().discord!.checkChannelAccess });
  const channelDest = (meta: Record<string, unknown>) => ({ id: 'dest-1', type: 'discord_channel' as const, metadata: meta, secret: null });
  const dmDest = { id: 'dest-2', type: 'discord_dm' as const, metadata: {}, secret: null };

  beforeAll(async () => {
    accountId = (await accountOf(app(), ids.alice))!.id;
  });

  it('checks channel access again at send time: lost permission, deleted role, deleted channel', async () => {
    const channel = channelSender(app().discord!.rest);
    fake.addChannel(ids.guild, { id: '300000000000000015', name: 'ops' });
    const meta = { guild_id: ids.guild, channel_id: '300000000000000015', mention_role_id: ids.team };
    expect(await channel.send(ctx(channelDest(meta)))).toEqual({ ok: true, httpStatus: 200 });
    expect(fake.messagesIn('300000000000000015')[0]!.content.startsWith(`<@&${ids.team}> `)).toBe(true);

    // The gateway's CHANNEL_UPDATE drops the cached guild data, so the change applies at once.
    fake.updateChannel('300000000000000015', { permission_overwrites: [{ id: fake.clientId, type: 1, deny: P.SendMessages }] });
    const cached = () => app().bot!.client.channels.cache.get('300000000000000015') as { permissionOverwrites?: { cache: Map<string, unknown> } } | undefined;
    await fake.waitFor(() => cached()?.permissionOverwrites?.cache.has(fake.clientId), 2000, 'CHANNEL_UPDATE');
    const denied = await channel.send(ctx(channelDest(meta)));
    expect(denied).toMatchObject({ ok: false, retryable: false, disableDestination: true, code: 'DISCORD_CANNOT_POST' });
    expect((denied as { error: string }).error).toContain("can't send messages in #ops");

    const noRole = await channel.send(ctx(channelDest({ guild_id: ids.guild, channel_id: ids.general, mention_role_id: '300000000000000099' })));
    expect(noRole).toMatchObject({ ok: false, retryable: false, disableDestination: true, code: 'DISCORD_UNKNOWN_ROLE' });

    fake.removeChannel('300000000000000015');
    await fake.waitFor(() => !cached(), 2000, 'CHANNEL_DELETE');
    const gone = await channel.send(ctx(channelDest(meta)));
    expect(gone).toMatchObject({ ok: false, retryable: false, disableDestination: true, code: 'DISCORD_UNKNOWN_CHANNEL' });
    expect((gone as { error: string }).error).toContain('does not exist');
  });

  it('the failure notice: once per reminder and code per day, none for retryable failures or test sends', async () => {
    let clock = Date.now();
    const notify = createFailureNotifier({ db: app().db, rest: app().discord!.rest, publicUrl: PUBLIC_URL, now: () => clock });
    const notices = () => fake.dmMessagesTo(ids.alice).filter((m) => m.content.includes("couldn't be posted"));
    const before = notices().length;
    const dest = channelDest({ guild_id: ids.guild, channel_id: ids.general });
    const lost = { ok: false as const, code: 'DISCORD_MISSING_PERMISSIONS', error: 'x', retryable: false, disableDestination: true };
    await notify(ctx(dest), lost);
    await notify(ctx(dest), lost);
    await notify(ctx(dest), { ok: false, code: 'DISCORD_UNAVAILABLE', error: 'x', retryable: true });
    await notify(ctx(dest, { test: true }), { ...lost, code: 'DISCORD_UNKNOWN_CHANNEL' });
    expect(notices()).toHaveLength(before + 1);
    expect(notices().at(-1)!.content).toBe(
      [
        `⚠️ **A reminder couldn't be posted** in <#${ids.general}>.`,
        'Reminder: Direct',
        'Error `DISCORD_MISSING_PERMISSIONS`: Chime no longer has the permission to post in that channel (it needs View Channel and Send Messages).',
        "Chime stopped posting this reminder there. Fix the problem, then turn the channel back on from the reminder's page.",
        `Open it: ${PUBLIC_URL}/reminders/r-direct`,
      ].join('\n'),
    );
    // Another code is news; the same one a day later too.
    await notify(ctx(dest), { ok: false, code: 'DISCORD_REJECTED', error: 'x', retryable: false });
    expect(notices()).toHaveLength(before + 2);
    expect(notices().at(-1)!.content).toContain('Error `DISCORD_REJECTED`: Discord refused the message.');
    expect(notices().at(-1)!.content).not.toContain('Chime stopped posting');
    clock += FAILURE_NOTICE_INTERVAL_MS - 1;
    await notify(ctx(dest), lost);
    expect(notices()).toHaveLength(before + 2);
    clock += 1;
    await notify(ctx(dest), lost);
    expect(notices()).toHaveLength(before + 3);
  });

  it('reopens a stale cached DM channel once', async () => {
    const dm = dmSender(app().discord!.rest);
    await app().db.updateTable('identities').set({ dm_channel_id: '399999999999999999' }).where('external_id', '=', ids.alice).execute();
    const before = fake.dmMessagesTo(ids.alice).length;
    expect(await dm.send(ctx(dmDest))).toEqual({ ok: true, httpStatus: 200 });
    expect(fake.dmMessagesTo(ids.alice)).toHaveLength(before + 1);
    const identity = await app().db.selectFrom('identities').selectAll().where('external_id', '=', ids.alice).executeTakeFirstOrThrow();
    expect(identity.dm_channel_id).toBe(fake.dmChannelIdOf(ids.alice));
  });

  it('network errors and 5xx are retryable; 50013/50001/10003 are permanent', async () => {
    const dead = new REST({ api: 'http://127.0.0.1:9/api', version: '10', retries: 0, timeout: 2_000 }).setToken('x');
    const down = await dmSender(dead).send(ctx(dmDest));
    expect(down).toMatchObject({ ok: false, retryable: true, code: 'DISCORD_UNAVAILABLE' });
    dead.clearHashSweeper();
    dead.clearHandlerSweeper();

    fake.failNext({ method: 'POST', pathPattern: /^\/channels\/\d+\/messages$/, status: 500, times: 3 });
    const five = await dmSender(app().discord!.rest).send(ctx(dmDest));
    expect(five).toMatchObject({ ok: false, retryable: true, httpStatus: 500, code: 'DISCORD_UNAVAILABLE' });

    const apiError = (code: number, status: number) =>
      new DiscordAPIError({ code, message: 'x' }, code, status, 'POST', 'http://x/api/v10/channels/1/messages', { body: undefined });
    for (const [discordCode, status, code] of [
      [50013, 403, 'DISCORD_MISSING_PERMISSIONS'],
      [50001, 403, 'DISCORD_MISSING_ACCESS'],
      [10004, 404, 'DISCORD_MISSING_ACCESS'],
      [10003, 404, 'DISCORD_UNKNOWN_CHANNEL'],
      [50007, 403, 'DISCORD_CANNOT_DM'],
    ] as const) {
      const mapped = mapDiscordError(apiError(discordCode, status), 'en-US');
      expect(mapped).toMatchObject({ ok: false, retryable: false, disableDestination: true, code, httpStatus: status });
      expect(mapped).not.toHaveProperty('discordCode');
    }
    expect(mapDiscordError(apiError(50035, 400), 'en-US')).toMatchObject({ ok: false, retryable: false, code: 'DISCORD_REJECTED' });
    expect(mapDiscordError(apiError(50035, 400), 'en-US')).not.toHaveProperty('disableDestination');
    expect(mapDiscordError(apiError(0, 503), 'fr')).toMatchObject({ ok: false, retryable: true, code: 'DISCORD_UNAVAILABLE', error: expect.stringContaining('Discord est indisponible') });
  });
});
