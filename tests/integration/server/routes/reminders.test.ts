import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

type User = Awaited<ReturnType<typeof signUp>>;

const MINUTE = 60_000;
const DAY = 86_400_000;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const HOOK = 'https://hooks.example.com/chime';
const webhook = (url = HOOK, extra: Record<string, unknown> = {}) => ({ type: 'webhook', metadata: { url, platform: 'generic', ...extra } });
const channel = (n: number, role?: string) => ({
  type: 'discord_channel',
  metadata: { guild_id: '111111111111111111', channel_id: String(222222222222222200n + BigInt(n)), ...(role ? { mention_role_id: role } : {}) },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const REMINDER_KEYS = [
  'account_id',
  'alerts',
  'created_at',
  'date',
  'destinations',
  'exceptions',
  'first_occurrence_utc',
  'id',
  'is_paused',
  'last_fired_at',
  'message',
  'next_alert_utc',
  'next_fire_utc',
  'recurrence_text',
  'recurrence_type',
  'remind_at_utc',
  'rrule',
  'snoozed_at_utc',
  'status',
  'subscriber_count',
  'time',
  'timezone',
  'updated_at',
];

async function insertDiscordIdentity(server: TestServer, accountId: string) {
  const now = new Date().toISOString();
  await server.app.db
    .insertInto('identities')
    .values({
      id: randomUUID(),
      account_id: accountId,
      provider: 'discord',
      external_id: String(100000000000000000n + BigInt(Math.floor(Math.random() * 1e12))),
      username: 'discordian',
      password_hash: null,
      access_token: null,
      refresh_token: null,
      token_expires_at: null,
      scope: 'identify',
      dm_channel_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

describe('reminders API', () => {
  let server: TestServer;
  let paris: User; // account zone Europe/Paris, with a Discord identity
  let utc: User; // account zone UTC, no Discord identity

  beforeAll(async () => {
    server = await startTestServer();
    paris = await signUp(server.url, { timezone: 'Europe/Paris' });
    utc = await signUp(server.url, { timezone: 'UTC' });
    await insertDiscordIdentity(server, paris.id);
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = (user: User, body: Record<string, unknown>) =>
    user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'Water the plants', ...body });

  const dbSecret = async (destinationId: string) =>
    (await server.app.db.selectFrom('destinations').select('secret').where('id', '=', destinationId).executeTakeFirstOrThrow()).secret;

  describe('POST /api/reminders', () => {
    it('creates a reminder from the dashboard\'s payload, converting the wall clock of the account zone', async () => {
      const res = await paris.api.post('/api/reminders', {
        date: '2030-07-01',
        time: '09:00',
        message: 'Water the plants',
        recurrence: 'ONCE',
        destinations: [],
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(REMINDER_KEYS);
      expect(res.body).toMatchObject({
        account_id: paris.id,
        message: 'Water the plants',
        remind_at_utc: '2030-07-01T07:00:00.000Z',
        first_occurrence_utc: '2030-07-01T07:00:00.000Z',
        next_fire_utc: '2030-07-01T07:00:00.000Z',
        snoozed_at_utc: null,
        last_fired_at: null,
        recurrence_type: 'ONCE',
        is_paused: false,
        status: 'active',
        timezone: 'Europe/Paris',
        date: '2030-07-01',
        time: '09:00',
        destinations: [],
      });
      expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
      const fetched = await paris.api.get(`/api/reminders/${res.body.id}`);
      expect(fetched.body).toEqual(res.body);
    });

    it('uses the winter offset in winter and the end of the gap for a time skipped by DST', async () => {
      const winter = await create(paris, { date: '2030-01-15', time: '09:00' });
      expect(winter.body.remind_at_utc).toBe('2030-01-15T08:00:00.000Z');
      // 2030-03-31 02:30 does not exist in Paris (clocks jump 02:00 -> 03:00).
      const gap = await create(paris, { date: '2030-03-31', time: '02:30' });
      expect(gap.status).toBe(201);
      // The instant is the end of the gap (03:00 CEST); the answer keeps the chosen wall clock.
      expect(gap.body.remind_at_utc).toBe('2030-03-31T01:00:00.000Z');
      expect(gap.body.first_occurrence_utc).toBe('2030-03-31T01:00:00.000Z');
      expect(gap.body).toMatchObject({ date: '2030-03-31', time: '02:30' });
      // 2030-10-27 02:30 happens twice: the earlier (summer time) instant.
      const overlap = await create(paris, { date: '2030-10-27', time: '02:30' });
      expect(overlap.body.remind_at_utc).toBe('2030-10-27T00:30:00.000Z');
    });

    it('keeps a DAILY reminder at the same wall-clock time across the DST change', async () => {
      const res = await create(paris, { date: '2030-03-30', time: '09:00', recurrence: 'DAILY' });
      expect(res.status).toBe(201);
      const occ = await paris.api.get(`/api/reminders/${res.body.id}/occurrences?count=3`);
      expect(occ.status).toBe(200);
      expect(occ.body).toEqual({ occurrences: ['2030-03-30T08:00:00.000Z', '2030-03-31T07:00:00.000Z', '2030-04-01T07:00:00.000Z'] });
    });

    it('takes an explicit timezone over the account zone', async () => {
      const res = await create(paris, { timezone: 'America/New_York' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ timezone: 'America/New_York', remind_at_utc: '2030-07-01T13:00:00.000Z', date: '2030-07-01', time: '09:00' });
      const bad = await create(paris, { timezone: 'Not/AZone' });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('INVALID_TIMEZONE');
    });

    it('reads the recurrence case-insensitively and defaults it to ONCE', async () => {
      for (const [recurrence, expected] of [
        ['daily', 'DAILY'],
        ['Weekly', 'WEEKLY'],
        [' monthly ', 'MONTHLY'],
        ['yearly', 'YEARLY'],
        ['hourly', 'HOURLY'],
        ['workdays', 'WORKDAYS'],
        ['WEEKEND', 'WEEKEND'],
        ['', 'ONCE'],
        [null, 'ONCE'],
      ] as const) {
        const res = await create(utc, { recurrence });
        expect(res.status, String(recurrence)).toBe(201);
        expect(res.body.recurrence_type).toBe(expected);
      }
      const omitted = await utc.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'no recurrence' });
      expect(omitted.body.recurrence_type).toBe('ONCE');
    });

    it('refuses an unknown recurrence', async () => {
      for (const recurrence of ['FORTNIGHTLY', 'every day', 'ONCE!']) {
        const res = await create(utc, { recurrence });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Recurrence must be one of ONCE, YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, WORKDAYS, WEEKEND or CUSTOM (with rrule)', code: 'INVALID_RECURRENCE' });
      }
      expect((await create(utc, { recurrence: 5 })).body.code).toBe('VALIDATION_FAILED');
    });

    it('requires a non-blank message of at most 2000 characters, trimmed', async () => {
      for (const message of ['', '   ', '\n\t']) {
        const res = await create(utc, { message });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Message is required', code: 'MESSAGE_REQUIRED' });
      }
      const tooLong = await create(utc, { message: 'x'.repeat(2001) });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body).toEqual({ error: 'Message must be at most 2000 characters', code: 'MESSAGE_TOO_LONG' });
      const max = await create(utc, { message: 'x'.repeat(2000) });
      expect(max.status).toBe(201);
      expect(max.body.message).toHaveLength(2000);
      // Characters, not UTF-16 units: 2000 emoji fit.
      const emoji = await create(utc, { message: '⏰'.repeat(1000) + '🦄'.repeat(1000) });
      expect(emoji.status).toBe(201);
      const trimmed = await create(utc, { message: '  padded  ' });
      expect(trimmed.body.message).toBe('padded');
      // HTML is stored as text, not interpreted.
      const html = await create(utc, { message: '<script>alert(1)</script>' });
      expect(html.body.message).toBe('<script>alert(1)</script>');
      expect((await create(utc, { message: undefined })).body.code).toBe('VALIDATION_FAILED');
    });

    it.each(['2030-02-30', '2030-13-01', '2030-00-10', '2031-02-29', 'tomorrow', '2030/07/01', '01-07-2030', '2030-7-1', ''])('refuses the date %j', async (date) => {
      const res = await create(utc, { date });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_DATE');
      expect(res.body.error).toEqual(expect.any(String));
    });

    it.each(['24:00', '9:5', '12:60', '9:00', 'noon', '', '12h30', '-1:00'])('refuses the time %j', async (time) => {
      const res = await create(utc, { time });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Time must be HH:MM (24-hour)', code: 'INVALID_TIME' });
    });

    it('accepts a leap day and the last minute of the day', async () => {
      const res = await create(utc, { date: '2032-02-29', time: '23:59' });
      expect(res.status).toBe(201);
      expect(res.body.remind_at_utc).toBe('2032-02-29T23:59:00.000Z');
    });

    it('refuses a one-off reminder in the past', async () => {
      const res = await create(utc, { date: '2020-01-01', time: '09:00' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('REMINDER_IN_PAST');
      expect(res.body.error).toMatch(/past/);
    });

    it('accepts a recurring reminder with a past anchor and schedules its next future occurrence', async () => {
      const res = await create(utc, { date: '2020-01-01', time: '09:00', recurrence: 'DAILY' });
      expect(res.status).toBe(201);
      expect(res.body.remind_at_utc).toBe('2020-01-01T09:00:00.000Z');
      const next = Date.parse(res.body.next_fire_utc);
      expect(next).toBeGreaterThan(Date.now() - MINUTE);
      expect(next).toBeLessThanOrEqual(Date.now() + DAY);
      expect(new Date(next).toISOString().slice(11)).toBe('09:00:00.000Z');
      expect(res.body.status).toBe('active');
    });

    it('accepts a one-off reminder for the current minute (the wizard default)', async () => {
      const now = new Date();
      const res = await create(utc, { date: now.toISOString().slice(0, 10), time: now.toISOString().slice(11, 16) });
      expect(res.status).toBe(201);
      expect(res.body.next_fire_utc).not.toBeNull();
    });

    it('enforces the destination caps: 1 DM, 5 channels, 5 webhooks', async () => {
      const fiveWebhooks = [1, 2, 3, 4, 5].map((i) => webhook(`${HOOK}/${i}`));
      const fiveChannels = [1, 2, 3, 4, 5].map((i) => channel(i));
      const full = await create(paris, { destinations: [{ type: 'discord_dm', metadata: {} }, ...fiveChannels, ...fiveWebhooks] });
      expect(full.status).toBe(201);
      expect(full.body.destinations.map((d: { type: string }) => d.type)).toEqual(['discord_dm', ...Array(5).fill('discord_channel'), ...Array(5).fill('webhook')]);

      const twoDms = await create(paris, { destinations: [{ type: 'discord_dm', metadata: {} }, { type: 'discord_dm' }] });
      expect(twoDms.status).toBe(400);
      expect(twoDms.body).toEqual({ error: 'A reminder can have at most 1 direct message destination', code: 'DESTINATION_LIMIT' });
      const sixChannels = await create(paris, { destinations: [...fiveChannels, channel(6)] });
      expect(sixChannels.status).toBe(400);
      expect(sixChannels.body).toEqual({ error: 'A reminder can have at most 5 channel destinations', code: 'DESTINATION_LIMIT' });
      const sixWebhooks = await create(paris, { destinations: [...fiveWebhooks, webhook(`${HOOK}/6`)] });
      expect(sixWebhooks.status).toBe(400);
      expect(sixWebhooks.body).toEqual({ error: 'A reminder can have at most 5 webhook destinations', code: 'DESTINATION_LIMIT' });
    });

    it('validates Discord channel metadata', async () => {
      const ok = await create(paris, { destinations: [channel(1, '333333333333333333')] });
      expect(ok.status).toBe(201);
      expect(ok.body.destinations[0]).toMatchObject({
        type: 'discord_channel',
        metadata: { guild_id: '111111111111111111', channel_id: '222222222222222201', mention_role_id: '333333333333333333' },
        disabled_reason: null,
      });
      expect(ok.body.destinations[0]).not.toHaveProperty('secret');
      for (const metadata of [
        { channel_id: '222222222222222201' },
        { guild_id: '111111111111111111' },
        { guild_id: 'abc', channel_id: '222222222222222201' },
        { guild_id: '111111111111111111', channel_id: '222222222222222201', mention_role_id: 'everyone' },
      ]) {
        const res = await create(paris, { destinations: [{ type: 'discord_channel', metadata }] });
        expect(res.status, JSON.stringify(metadata)).toBe(400);
        expect(res.body.code).toBe('INVALID_DESTINATION');
      }
    });

    it('refuses the same destination twice', async () => {
      const res = await create(paris, { destinations: [webhook(), webhook()] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_DESTINATION');
    });

    it('refuses unknown destination types, including names of Object.prototype members', async () => {
      for (const type of ['sms', 'EMAIL', 'DISCORD_DM', '', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
        const res = await create(utc, { destinations: [{ type, metadata: { url: HOOK } }] });
        expect(res.status, type).toBe(400);
        expect(res.body).toEqual({ error: 'destinations[0].type must be one of discord_dm, discord_channel, webhook, email, ntfy, gotify, pushover, matrix, telegram, web_push', code: 'INVALID_DESTINATION' });
      }
      const stored = await server.app.db.selectFrom('destinations').select('type').where('type', 'not in', ['discord_dm', 'discord_channel', 'webhook', 'email', 'ntfy', 'gotify', 'pushover', 'matrix']).execute();
      expect(stored).toEqual([]);
    });

    it('refuses Discord destinations without a Discord identity', async () => {
      for (const destinations of [[{ type: 'discord_dm', metadata: {} }], [channel(1)]]) {
        const res = await create(utc, { destinations });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: 'Connect your Discord account first', code: 'DISCORD_IDENTITY_REQUIRED' });
      }
    });

    it('validates webhook URLs, platforms and usernames', async () => {
      const invalid: Array<[Record<string, unknown>, string]> = [
        [{ url: '' }, 'WEBHOOK_URL_INVALID'],
        [{}, 'WEBHOOK_URL_INVALID'],
        [{ url: 'ftp://example.com/hook' }, 'WEBHOOK_URL_INVALID'],
        [{ url: 'javascript:alert(1)' }, 'WEBHOOK_URL_INVALID'],
        [{ url: 'file:///etc/passwd' }, 'WEBHOOK_URL_INVALID'],
        [{ url: 'not a url' }, 'WEBHOOK_URL_INVALID'],
        [{ url: 'https://user:pass@example.com/hook' }, 'WEBHOOK_URL_INVALID'],
        [{ url: `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}` }, 'WEBHOOK_URL_INVALID'],
        [{ url: HOOK, platform: 'teams' }, 'INVALID_DESTINATION'],
        [{ url: HOOK, platform: 'generic', username: 'Chime bot' }, 'INVALID_DESTINATION'],
        [{ url: HOOK, platform: 'slack', username: 'x'.repeat(81) }, 'INVALID_DESTINATION'],
      ];
      for (const [metadata, code] of invalid) {
        const res = await create(utc, { destinations: [{ type: 'webhook', metadata }] });
        expect(res.status, JSON.stringify(metadata).slice(0, 80)).toBe(400);
        expect(res.body.code).toBe(code);
      }
      const url2048 = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
      expect(url2048).toHaveLength(2048);
      const ok = await create(utc, {
        destinations: [
          { type: 'webhook', metadata: { url: url2048 } },
          webhook(`${HOOK}/discord`, { platform: 'discord', username: ' Chime ' }),
          webhook(`http://hooks.example.com/slack`, { platform: 'slack', username: 'Reminder bot' }),
        ],
      });
      expect(ok.status).toBe(201);
      expect(ok.body.destinations.map((d: { metadata: unknown }) => d.metadata)).toEqual([
        { url: url2048, platform: 'generic' },
        { url: `${HOOK}/discord`, platform: 'discord', username: 'Chime' },
        { url: 'http://hooks.example.com/slack', platform: 'slack', username: 'Reminder bot' },
      ]);
    });

    it('shows a webhook secret only in the answer that created it', async () => {
      const res = await create(utc, { destinations: [webhook()] });
      expect(res.status).toBe(201);
      const dest = res.body.destinations[0];
      expect(dest.secret).toMatch(SECRET);
      expect(await dbSecret(dest.id)).toBe(dest.secret);
      const fetched = await utc.api.get(`/api/reminders/${res.body.id}`);
      expect(fetched.body.destinations[0]).not.toHaveProperty('secret');
      const list = await utc.api.get('/api/reminders');
      expect(JSON.stringify(list.body)).not.toContain(dest.secret);
      expect(JSON.stringify(list.body)).not.toContain('whsec_');
    });

    it('drops unknown fields', async () => {
      const res = await create(utc, { account_id: paris.id, id: 'forced', is_paused: true, next_fire_utc: '2020-01-01T00:00:00.000Z' });
      expect(res.status).toBe(201);
      expect(res.body.account_id).toBe(utc.id);
      expect(res.body.id).not.toBe('forced');
      expect(res.body.is_paused).toBe(false);
      expect(res.body.next_fire_utc).toBe('2030-07-01T09:00:00.000Z');
    });
  });

  describe('reading', () => {
    it('lists the reminders of the account, newest first', async () => {
      const user = await signUp(server.url);
      const ids: string[] = [];
      for (const message of ['first', 'second', 'third']) {
        ids.push((await create(user, { message })).body.id);
        await sleep(5);
      }
      const list = await user.api.get('/api/reminders');
      expect(list.status).toBe(200);
      expect(list.body.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
      expect(list.body.map((r: { message: string }) => r.message)).toEqual(['third', 'second', 'first']);
      for (const r of list.body) expect(Object.keys(r).sort()).toEqual(REMINDER_KEYS);
    });

    it('answers an empty list for a new account and 404 for an unknown id', async () => {
      const user = await signUp(server.url);
      expect((await user.api.get('/api/reminders')).body).toEqual([]);
      for (const id of [randomUUID(), 'nope', '1']) {
        const res = await user.api.get(`/api/reminders/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Reminder not found', code: 'REMINDER_NOT_FOUND' });
      }
    });
  });

  describe('PUT /api/reminders/:id', () => {
    it('updates the fields and reschedules', async () => {
      const created = await create(paris, { recurrence: 'ONCE' });
      await sleep(5);
      const res = await paris.api.put(`/api/reminders/${created.body.id}`, { date: '2030-12-24', time: '18:30', message: 'Presents', recurrence: 'yearly', destinations: [] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: created.body.id,
        message: 'Presents',
        date: '2030-12-24',
        time: '18:30',
        remind_at_utc: '2030-12-24T17:30:00.000Z',
        next_fire_utc: '2030-12-24T17:30:00.000Z',
        recurrence_type: 'YEARLY',
        created_at: created.body.created_at,
      });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(created.body.updated_at));
      expect((await paris.api.get(`/api/reminders/${created.body.id}`)).body).toEqual(res.body);
    });

    it('keeps the id and secret of a destination sent back with its id, creates the new ones and drops the missing ones', async () => {
      const created = await create(utc, { destinations: [webhook(`${HOOK}/keep`), webhook(`${HOOK}/drop`)] });
      const [keep, drop] = created.body.destinations;
      const keepSecret = keep.secret;
      const res = await utc.api.put(`/api/reminders/${created.body.id}`, {
        date: '2030-07-01',
        time: '09:00',
        message: 'edited',
        recurrence: 'ONCE',
        destinations: [
          { id: keep.id, type: 'webhook', metadata: { url: `${HOOK}/keep`, platform: 'slack', username: 'Bot' } },
          webhook(`${HOOK}/new`),
        ],
      });
      expect(res.status).toBe(200);
      const [kept, added] = res.body.destinations;
      expect(kept.id).toBe(keep.id);
      expect(kept).not.toHaveProperty('secret');
      expect(kept.metadata).toEqual({ url: `${HOOK}/keep`, platform: 'slack', username: 'Bot' });
      expect(await dbSecret(keep.id)).toBe(keepSecret);
      expect(added.id).not.toBe(drop.id);
      expect(added.secret).toMatch(SECRET);
      expect(added.secret).not.toBe(keepSecret);
      const rows = await server.app.db.selectFrom('destinations').select('id').where('reminder_id', '=', created.body.id).orderBy('position').execute();
      expect(rows.map((r) => r.id)).toEqual([keep.id, added.id]);
    });

    it('validates like create and leaves the reminder unchanged on error', async () => {
      const created = await create(utc, { message: 'stable', recurrence: 'DAILY' });
      const id = created.body.id;
      const base = { date: '2030-07-01', time: '09:00', message: 'changed', recurrence: 'DAILY' };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...base, date: '2030-02-30' }, 'INVALID_DATE'],
        [{ ...base, time: '25:00' }, 'INVALID_TIME'],
        [{ ...base, message: ' ' }, 'MESSAGE_REQUIRED'],
        [{ ...base, recurrence: 'sometimes' }, 'INVALID_RECURRENCE'],
        [{ ...base, recurrence: 'ONCE', date: '2020-01-01' }, 'REMINDER_IN_PAST'],
        [{ ...base, destinations: [{ type: 'discord_dm' }] }, 'DISCORD_IDENTITY_REQUIRED'],
        [{ ...base, destinations: [webhook('ftp://x')] }, 'WEBHOOK_URL_INVALID'],
        [{ date: '2030-07-01', time: '09:00' }, 'VALIDATION_FAILED'],
      ];
      for (const [body, code] of cases) {
        const res = await utc.api.put(`/api/reminders/${id}`, body);
        expect(res.status, code).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.body.code).toBe(code);
      }
      expect((await utc.api.get(`/api/reminders/${id}`)).body).toEqual(created.body);
    });

    it('answers 404 for an unknown id', async () => {
      const res = await utc.api.put(`/api/reminders/${randomUUID()}`, { date: '2030-07-01', time: '09:00', message: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('REMINDER_NOT_FOUND');
    });
  });

  describe('pause and resume', () => {
    it('toggles is_paused and the status', async () => {
      const created = await create(utc, { recurrence: 'WEEKLY' });
      const paused = await utc.api.post(`/api/reminders/${created.body.id}/pause`);
      expect(paused.status).toBe(200);
      expect(paused.body).toMatchObject({ id: created.body.id, is_paused: true, status: 'paused' });
      // Pausing twice is harmless.
      expect((await utc.api.post(`/api/reminders/${created.body.id}/pause`)).body.is_paused).toBe(true);
      expect((await utc.api.get(`/api/reminders/${created.body.id}`)).body.is_paused).toBe(true);
      const resumed = await utc.api.post(`/api/reminders/${created.body.id}/resume`);
      expect(resumed.status).toBe(200);
      expect(resumed.body).toMatchObject({ is_paused: false, status: 'active', next_fire_utc: created.body.next_fire_utc });
      expect((await utc.api.post(`/api/reminders/${created.body.id}/resume`)).body.is_paused).toBe(false);
    });

    it('works with an empty body without a content type', async () => {
      const created = await create(utc, {});
      const res = await fetch(`${server.url}/api/reminders/${created.body.id}/pause`, { method: 'POST', headers: { authorization: `Bearer ${utc.token}` } });
      expect(res.status).toBe(200);
      expect((await res.json()).is_paused).toBe(true);
      const empty = await fetch(`${server.url}/api/reminders/${created.body.id}/resume`, {
        method: 'POST',
        headers: { authorization: `Bearer ${utc.token}`, 'content-type': 'application/json' },
        body: '',
      });
      expect(empty.status).toBe(200);
      expect((await empty.json()).is_paused).toBe(false);
    });

    it('resuming a recurring reminder skips the occurrences missed while paused', async () => {
      const created = await create(utc, { date: '2020-01-01', time: '09:00', recurrence: 'DAILY' });
      const id = created.body.id;
      await utc.api.post(`/api/reminders/${id}/pause`);
      // Pretend it was paused a long time ago: its stored next occurrence is now long past.
      await server.app.db.updateTable('reminders').set({ next_fire_utc: '2021-03-04T09:00:00.000Z', next_occurrence_utc: '2021-03-04T09:00:00.000Z' }).where('id', '=', id).execute();
      const resumed = await utc.api.post(`/api/reminders/${id}/resume`);
      expect(resumed.status).toBe(200);
      const next = Date.parse(resumed.body.next_fire_utc);
      expect(next).toBeGreaterThan(Date.now());
      expect(next).toBeLessThanOrEqual(Date.now() + DAY);
      expect(resumed.body.next_fire_utc.slice(11)).toBe('09:00:00.000Z');
      expect(resumed.body.status).toBe('active');
    });
  });

  describe('POST /api/reminders/:id/snooze', () => {
    it('snoozes by minutes', async () => {
      const created = await create(utc, { recurrence: 'DAILY' });
      const before = Date.now();
      const res = await utc.api.post(`/api/reminders/${created.body.id}/snooze`, { minutes: 15 });
      expect(res.status).toBe(200);
      const at = Date.parse(res.body.snoozed_at_utc);
      expect(at).toBeGreaterThanOrEqual(before + 15 * MINUTE - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 15 * MINUTE);
      expect(res.body.next_fire_utc).toBe(res.body.snoozed_at_utc);
      expect(res.body.remind_at_utc).toBe(created.body.remind_at_utc);
      expect(res.body.status).toBe('active');
      // The regular schedule goes on from the original occurrence.
      const occ = await utc.api.get(`/api/reminders/${created.body.id}/occurrences?count=1`);
      expect(occ.body.occurrences).toEqual(['2030-07-01T09:00:00.000Z']);
    });

    it('snoozes until an instant, to the second', async () => {
      const created = await create(utc, {});
      const res = await utc.api.post(`/api/reminders/${created.body.id}/snooze`, { until: '2030-05-05T10:00:00.750Z' });
      expect(res.status).toBe(200);
      expect(res.body.snoozed_at_utc).toBe('2030-05-05T10:00:00.000Z');
      expect(res.body.next_fire_utc).toBe('2030-05-05T10:00:00.000Z');
      expect((await utc.api.get(`/api/reminders/${created.body.id}`)).body.snoozed_at_utc).toBe('2030-05-05T10:00:00.000Z');
    });

    it('refuses a past instant and malformed bodies', async () => {
      const created = await create(utc, {});
      const past = await utc.api.post(`/api/reminders/${created.body.id}/snooze`, { until: new Date(Date.now() - MINUTE).toISOString() });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ error: 'Snooze time must be in the future', code: 'REMINDER_IN_PAST' });
      for (const body of [{}, { minutes: 0 }, { minutes: -5 }, { minutes: 1.5 }, { minutes: '10' }, { minutes: 525_601 }, { until: 'tomorrow' }, { until: '1700000000000' }, { until: 5 }]) {
        const res = await utc.api.post(`/api/reminders/${created.body.id}/snooze`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      expect((await utc.api.get(`/api/reminders/${created.body.id}`)).body.snoozed_at_utc).toBeNull();
    });

    it('an edit clears a pending snooze', async () => {
      const created = await create(utc, {});
      await utc.api.post(`/api/reminders/${created.body.id}/snooze`, { minutes: 30 });
      const res = await utc.api.put(`/api/reminders/${created.body.id}`, { date: '2030-08-01', time: '10:00', message: 'moved' });
      expect(res.body.snoozed_at_utc).toBeNull();
      expect(res.body.next_fire_utc).toBe('2030-08-01T10:00:00.000Z');
    });
  });

  describe('POST /api/reminders/:id/duplicate', () => {
    it('copies the reminder with new ids and new webhook secrets', async () => {
      const source = await create(paris, {
        message: 'copy me',
        recurrence: 'WEEKLY',
        destinations: [{ type: 'discord_dm', metadata: {} }, channel(1), webhook(`${HOOK}/dup`, { platform: 'discord', username: 'Bot' })],
      });
      await paris.api.post(`/api/reminders/${source.body.id}/pause`);
      const res = await paris.api.post(`/api/reminders/${source.body.id}/duplicate`);
      expect(res.status).toBe(201);
      const copy = res.body;
      expect(copy.id).not.toBe(source.body.id);
      for (const key of ['message', 'recurrence_type', 'remind_at_utc', 'timezone', 'date', 'time', 'next_fire_utc', 'account_id'] as const) {
        expect(copy[key], key).toBe(source.body[key]);
      }
      expect(copy.is_paused).toBe(false);
      expect(copy.destinations.map((d: { type: string; metadata: unknown }) => [d.type, d.metadata])).toEqual(
        source.body.destinations.map((d: { type: string; metadata: unknown }) => [d.type, d.metadata]),
      );
      const sourceIds = new Set(source.body.destinations.map((d: { id: string }) => d.id));
      for (const d of copy.destinations) expect(sourceIds.has(d.id)).toBe(false);
      const copiedHook = copy.destinations[2];
      expect(copiedHook.secret).toMatch(SECRET);
      expect(copiedHook.secret).not.toBe(source.body.destinations[2].secret);
      expect(await dbSecret(source.body.destinations[2].id)).toBe(source.body.destinations[2].secret);
      // Both exist independently.
      expect((await paris.api.get(`/api/reminders/${source.body.id}`)).body.is_paused).toBe(true);
      expect((await paris.api.get(`/api/reminders/${copy.id}`)).status).toBe(200);
    });
  });

  describe('DELETE /api/reminders/:id', () => {
    it('deletes the reminder and its destinations', async () => {
      const created = await create(utc, { destinations: [webhook()] });
      const res = await utc.api.delete(`/api/reminders/${created.body.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect((await utc.api.get(`/api/reminders/${created.body.id}`)).status).toBe(404);
      expect((await utc.api.delete(`/api/reminders/${created.body.id}`)).status).toBe(404);
      const rows = await server.app.db.selectFrom('destinations').select('id').where('reminder_id', '=', created.body.id).execute();
      expect(rows).toEqual([]);
      expect((await utc.api.get('/api/reminders')).body.map((r: { id: string }) => r.id)).not.toContain(created.body.id);
    });
  });

  describe('GET /api/reminders/preview', () => {
    it('lists the next occurrences in the account zone', async () => {
      const res = await paris.api.get('/api/reminders/preview?date=2030-03-30&time=09:00&recurrence=daily&count=3');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ occurrences: ['2030-03-30T08:00:00.000Z', '2030-03-31T07:00:00.000Z', '2030-04-01T07:00:00.000Z'], recurrence_text: expect.any(String) });
    });

    it('takes an explicit zone, defaults to 5 occurrences and to ONCE', async () => {
      const weekly = await paris.api.get('/api/reminders/preview?date=2030-07-01&time=09:00&recurrence=WEEKLY&timezone=UTC');
      expect(weekly.body.occurrences).toEqual(['2030-07-01', '2030-07-08', '2030-07-15', '2030-07-22', '2030-07-29'].map((d) => `${d}T09:00:00.000Z`));
      const once = await paris.api.get('/api/reminders/preview?date=2030-07-01&time=09:00');
      expect(once.body.occurrences).toEqual(['2030-07-01T07:00:00.000Z']);
    });

    it('answers no occurrence for a past one-off and future ones for a past recurring anchor', async () => {
      expect((await utc.api.get('/api/reminders/preview?date=2020-01-01&time=09:00')).body.occurrences).toEqual([]);
      const daily = await utc.api.get('/api/reminders/preview?date=2020-01-01&time=09:00&recurrence=DAILY&count=2');
      expect(daily.body.occurrences).toHaveLength(2);
      expect(Date.parse(daily.body.occurrences[0])).toBeGreaterThan(Date.now() - MINUTE);
    });

    it('validates its parameters', async () => {
      const cases: Array<[string, string]> = [
        ['time=09:00', 'VALIDATION_FAILED'],
        ['date=2030-07-01', 'VALIDATION_FAILED'],
        ['date=2030-02-30&time=09:00', 'INVALID_DATE'],
        ['date=2030-07-01&time=9:00', 'INVALID_TIME'],
        ['date=2030-07-01&time=09:00&recurrence=never', 'INVALID_RECURRENCE'],
        ['date=2030-07-01&time=09:00&timezone=Mars/Base', 'INVALID_TIMEZONE'],
        ['date=2030-07-01&time=09:00&count=many', 'VALIDATION_FAILED'],
        ['date=2030-07-01&time=09:00&count=-1', 'VALIDATION_FAILED'],
      ];
      for (const [query, code] of cases) {
        const res = await utc.api.get(`/api/reminders/preview?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.code, query).toBe(code);
      }
      const capped = await utc.api.get('/api/reminders/preview?date=2030-07-01&time=09:00&recurrence=HOURLY&count=999');
      expect(capped.status).toBe(200);
      expect(capped.body.occurrences).toHaveLength(50);
    });
  });

  describe('GET /api/reminders/:id/occurrences', () => {
    it('lists the next occurrences, or those in a range', async () => {
      const created = await create(paris, { date: '2030-03-30', time: '09:00', recurrence: 'DAILY' });
      const id = created.body.id;
      const def = await paris.api.get(`/api/reminders/${id}/occurrences`);
      expect(def.body.occurrences).toHaveLength(5);
      expect(def.body.occurrences[0]).toBe('2030-03-30T08:00:00.000Z');
      const range = await paris.api.get(`/api/reminders/${id}/occurrences?from=2030-04-01T00:00:00.000Z&to=2030-04-04T00:00:00.000Z`);
      expect(range.status).toBe(200);
      expect(range.body).toEqual({ occurrences: ['2030-04-01T07:00:00.000Z', '2030-04-02T07:00:00.000Z', '2030-04-03T07:00:00.000Z'] });
      // The anchor bounds the range on the left.
      const early = await paris.api.get(`/api/reminders/${id}/occurrences?from=2030-03-01T00:00:00.000Z&to=2030-03-31T00:00:00.000Z`);
      expect(early.body).toEqual({ occurrences: ['2030-03-30T08:00:00.000Z'] });
    });

    it('answers nothing for a completed one-off', async () => {
      const created = await create(utc, {});
      await server.app.db.updateTable('reminders').set({ next_fire_utc: null, next_occurrence_utc: null, completed_at: new Date().toISOString() }).where('id', '=', created.body.id).execute();
      const res = await utc.api.get(`/api/reminders/${created.body.id}/occurrences`);
      expect(res.body).toEqual({ occurrences: [] });
      expect((await utc.api.get(`/api/reminders/${created.body.id}`)).body.status).toBe('completed');
    });

    it('validates the range', async () => {
      const created = await create(utc, { recurrence: 'HOURLY' });
      const id = created.body.id;
      for (const query of [
        'from=2030-01-01T00:00:00Z',
        'to=2030-01-01T00:00:00Z',
        'from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z',
        'from=2030-01-01T00:00:00Z&to=2030-01-01T00:00:00Z',
        'from=garbage&to=2030-01-01T00:00:00Z',
        'from=2030-01-01T00:00:00Z&to=2031-06-01T00:00:00Z',
        'count=x',
      ]) {
        const res = await utc.api.get(`/api/reminders/${id}/occurrences?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      const many = await utc.api.get(`/api/reminders/${id}/occurrences?count=500`);
      expect(many.body.occurrences).toHaveLength(100);
    });
  });
});

describe('webhook targets on a server that forbids private addresses', () => {
  let server: TestServer;
  let user: User;
  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    user = await signUp(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    'http://127.0.0.1/x',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://127.1:8080/',
    'http://0.0.0.0/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://192.168.1.20/hook',
    'http://172.16.5.4/',
    'http://100.64.0.1/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://localhost:3000/hook',
    'http://api.localhost/',
    'http://printer.local/',
    'http://metadata.google.internal/',
  ])('refuses %s with WEBHOOK_TARGET_FORBIDDEN', async (url) => {
    const res = await user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'ssrf', destinations: [{ type: 'webhook', metadata: { url } }] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Webhook URL points to a private network address, which is not allowed', code: 'WEBHOOK_TARGET_FORBIDDEN', destination: 0 });
  });

  it('accepts public targets and refuses a private one on update too', async () => {
    const ok = await user.api.post('/api/reminders', {
      date: '2030-07-01',
      time: '09:00',
      message: 'public',
      destinations: [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/x' } }, { type: 'webhook', metadata: { url: 'http://93.184.216.34/hook' } }],
    });
    expect(ok.status).toBe(201);
    const upd = await user.api.put(`/api/reminders/${ok.body.id}`, {
      date: '2030-07-01',
      time: '09:00',
      message: 'public',
      destinations: [{ type: 'webhook', metadata: { url: 'http://10.1.2.3/hook' } }],
    });
    expect(upd.status).toBe(400);
    expect(upd.body.code).toBe('WEBHOOK_TARGET_FORBIDDEN');
    expect((await user.api.get(`/api/reminders/${ok.body.id}`)).body.destinations).toHaveLength(2);
  });
});
