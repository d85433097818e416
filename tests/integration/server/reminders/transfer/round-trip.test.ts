/**
 * Export then import of one reminder of each kind, in JSON, CSV and ICS, over real HTTP: every
 * destination type (webhooks of the three platforms, a confirmed email address, a Discord direct
 * message, a Discord channel with a role to mention, checked by the fake Discord), preset and
 * custom rules, skipped occurrences and paused reminders come back field for field. The import's
 * answer carries the new webhooks' signing secrets (the file has none to give).
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { newId, nowIso } from '../../../../../server/lib/ids.ts';
import { type FakeDiscord, startFakeDiscord } from '../../../../helpers/fake-discord/index.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../../../../helpers/smtp-sink.ts';

type User = Awaited<ReturnType<typeof signUp>>;

const sf = (n: number) => `1${String(n).padStart(17, '0')}`;
const GUILD = sf(101);
const CHANNEL = sf(201);
const ROLE = sf(301);
const OWNER = sf(401);
const PUBLIC_URL = 'http://chime.test';
const ADDRESS = 'ada@example.com';
const HOOK = 'https://hooks.example.com';

const KINDS = [
  {
    message: 'Every destination, once',
    date: '2031-05-04',
    time: '08:15',
    recurrence: 'ONCE',
    timezone: 'Europe/Paris',
    destinations: [
      { type: 'webhook', metadata: { url: `${HOOK}/generic`, platform: 'generic' } },
      { type: 'webhook', metadata: { url: `${HOOK}/discord`, platform: 'discord', username: 'Chime bot' } },
      { type: 'webhook', metadata: { url: `${HOOK}/slack`, platform: 'slack', username: 'Chime' } },
      { type: 'email', metadata: { address: ADDRESS } },
      { type: 'discord_dm', metadata: {} },
      { type: 'discord_channel', metadata: { guild_id: GUILD, channel_id: CHANNEL, mention_role_id: ROLE } },
    ],
  },
  {
    message: 'Weekly email, one skipped',
    date: '2031-01-06',
    time: '10:00',
    recurrence: 'WEEKLY',
    timezone: 'Asia/Tokyo',
    destinations: [{ type: 'email', metadata: { address: ADDRESS } }],
    alerts: [{ before_minutes: 15 }, { before_minutes: 1440 }],
  },
  {
    message: 'Every 2 weeks on Monday and Wednesday, 10 times, paused',
    date: '2031-01-06',
    time: '18:30',
    recurrence: 'CUSTOM',
    rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10',
    timezone: 'America/New_York',
    destinations: [{ type: 'discord_channel', metadata: { guild_id: GUILD, channel_id: CHANNEL } }],
  },
  {
    message: 'Last Friday of the month',
    date: '2031-01-31',
    time: '17:00',
    recurrence: 'CUSTOM',
    rrule: 'FREQ=MONTHLY;BYDAY=-1FR',
    timezone: 'Europe/Madrid',
    destinations: [{ type: 'discord_dm', metadata: {} }],
    alerts: [{ before_minutes: 60 }],
  },
  { message: 'Daily, paused', date: '2031-02-01', time: '07:00', recurrence: 'DAILY', timezone: 'UTC', destinations: [{ type: 'webhook', metadata: { url: `${HOOK}/daily`, platform: 'generic' } }] },
];

/** Skipped occurrence per message (the reminder's second occurrence). */
const SKIPPED: Record<string, string> = {
  'Weekly email, one skipped': '2031-01-13T01:00:00.000Z',
  'Every 2 weeks on Monday and Wednesday, 10 times, paused': '2031-01-08T23:30:00.000Z',
  'Last Friday of the month': '2031-02-28T16:00:00.000Z',
};
const PAUSED = new Set(['Every 2 weeks on Monday and Wednesday, 10 times, paused', 'Daily, paused']);

/** Everything a user sees of a reminder, but its id, its destinations' ids and the times it was written. */
function comparable(r: any) {
  const { id: _id, created_at: _c, updated_at: _u, ...rest } = r;
  return { ...rest, destinations: r.destinations.map(({ id: _d, ...d }: any) => d) };
}

let fake: FakeDiscord;
let sink: SmtpSink;
let server: TestServer;
let ada: User;
let originals: any[];

beforeAll(async () => {
  fake = await startFakeDiscord();
  fake.addUser({ id: OWNER, username: 'ada', email: 'ada@discord.example' });
  fake.addGuild({
    id: GUILD,
    name: 'Team',
    ownerId: OWNER,
    roles: [{ id: ROLE, name: 'Crew', position: 1, mentionable: true }],
    channels: [{ id: CHANNEL, name: 'general', position: 1 }],
  });
  sink = await startSmtpSink();
  server = await startTestServer({
    overrides: { schedulerEnabled: false },
    env: {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_CLIENT_ID: fake.clientId,
      DISCORD_CLIENT_SECRET: fake.clientSecret,
      DISCORD_API_URL: fake.apiUrl,
      SMTP_URL: sink.url,
      MAIL_FROM: 'chime@example.com',
      PUBLIC_URL,
    },
  });
  ada = await signUp(server.url, { timezone: 'Europe/Paris' });
  const now = nowIso();
  await server.app.db
    .insertInto('identities')
    .values({
      id: newId(),
      account_id: ada.id,
      provider: 'discord',
      external_id: OWNER,
      username: 'ada',
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
  for (const body of KINDS) {
    const res = await ada.api.post('/api/reminders', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const skipped = SKIPPED[body.message];
    if (skipped) expect((await ada.api.post(`/api/reminders/${res.body.id}/skip`, { occurrence: skipped })).status).toBe(200);
    if (PAUSED.has(body.message)) expect((await ada.api.post(`/api/reminders/${res.body.id}/pause`)).status).toBe(200);
  }
  const mail = await sink.waitFor((m) => m.to.includes(ADDRESS) && m.subject.includes('Confirm'));
  const token = new URL(linkIn(mail, `${PUBLIC_URL}/confirm-email?token=`)).searchParams.get('token');
  const confirmed = await client(server.url).post('/api/email/confirm', { token });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  originals = (await ada.api.get('/api/reminders')).body;
});

afterAll(async () => {
  await server?.close();
  await sink?.close();
  await fake?.close();
});

describe('a round trip through each export format', () => {
  it('the reminders to export are one of each kind', () => {
    expect(originals).toHaveLength(KINDS.length);
    const types = new Set(originals.flatMap((r) => r.destinations.map((d: any) => `${d.type}:${d.metadata.platform ?? ''}`)));
    expect([...types].sort()).toEqual(['discord_channel:', 'discord_dm:', 'email:', 'webhook:discord', 'webhook:generic', 'webhook:slack']);
    const channel = originals.find((r) => r.message === 'Every destination, once').destinations.find((d: any) => d.type === 'discord_channel');
    expect(channel.metadata).toMatchObject({ guild_name: 'Team', channel_name: 'general', mention_role_name: 'Crew' });
    expect(originals.filter((r) => r.exceptions.length === 1)).toHaveLength(3);
    expect(originals.filter((r) => r.is_paused)).toHaveLength(2);
    expect(originals.filter((r) => r.alerts.length > 0).map((r) => r.alerts.length).sort()).toEqual([1, 2]);
  });

  for (const format of ['json', 'csv', 'ics'] as const) {
    it(`${format.toUpperCase()}: the imported copies equal the exported reminders field by field, with new signing secrets`, async () => {
      const file = await fetch(`${server.url}/api/reminders/export?format=${format}`, { headers: { authorization: `Bearer ${ada.token}` } });
      expect(file.status).toBe(200);
      const content = await file.text();
      const res = await ada.api.post('/api/reminders/import', { format, content, mode: 'all_or_nothing' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.errors).toEqual([]);
      expect(res.body.created).toBe(KINDS.length);

      const known = new Set(originals.map((r) => r.id));
      const copies = ((await ada.api.get('/api/reminders')).body as any[]).filter((r) => !known.has(r.id));
      // The next format starts again from the originals alone.
      onTestFinished(async () => {
        for (const copy of copies) expect((await ada.api.delete(`/api/reminders/${copy.id}`)).status).toBe(200);
      });
      expect(copies).toHaveLength(KINDS.length);
      for (const original of originals) {
        const copy = copies.find((c) => c.message === original.message);
        expect(comparable(copy), original.message).toEqual(comparable(original));
      }

      // The answer names each new webhook's secret once: the copies' own, not the originals'.
      const hooks = copies.flatMap((r) => r.destinations.filter((d: any) => d.type === 'webhook').map((d: any) => ({ reminder_id: r.id, destination_id: d.id, url: d.metadata.url })));
      expect(hooks).toHaveLength(4);
      const stored = await server.app.db.selectFrom('destinations').select(['id', 'secret']).where('type', '=', 'webhook').execute();
      const secretOf = new Map(stored.map((d) => [d.id, d.secret]));
      expect(res.body.secrets).toHaveLength(hooks.length);
      for (const hook of hooks) {
        const entry = res.body.secrets.find((s: any) => s.destination_id === hook.destination_id);
        expect(entry).toMatchObject({ ...hook, message: copies.find((c) => c.id === hook.reminder_id).message, secret: secretOf.get(hook.destination_id) });
        expect(entry.secret).toMatch(/^whsec_/);
      }
    });
  }

  it('CSV has a column for skipped occurrences and one for alerts, in minutes before', async () => {
    const file = await fetch(`${server.url}/api/reminders/export?format=csv`, { headers: { authorization: `Bearer ${ada.token}` } });
    const [header, ...rows] = (await file.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe('message,date,time,timezone,recurrence,rrule,exceptions,paused,destinations,alerts');
    expect(rows.find((r) => r.startsWith('"Weekly email, one skipped"'))?.endsWith(',1440 15')).toBe(true);
  });
});

describe('reading skipped occurrences and metadata from a file', () => {
  const cell = (text: string) => `"${text.replace(/"/g, '""')}"`;
  const row = (exceptions: string, destinations = '[]') =>
    `message,date,time,timezone,recurrence,exceptions,destinations\r\nWeekly,2031-01-06,10:00,UTC,WEEKLY,${cell(exceptions)},${cell(destinations)}\r\n`;
  const check = (content: string) => ada.api.post('/api/reminders/import', { format: 'csv', content, dry_run: true });

  it('a CSV cell of instants separated by spaces or commas, or a JSON array; anything else is the row’s error', async () => {
    for (const list of ['2031-01-13T10:00:00.000Z 2031-01-20T10:00:00.000Z', '2031-01-13T10:00:00.000Z,2031-01-20T10:00:00.000Z', '["2031-01-13T10:00:00.000Z","2031-01-20T10:00:00.000Z"]']) {
      const res = await check(row(list));
      expect(res.body.errors, list).toEqual([]);
      expect(res.body.preview[0].exceptions).toEqual(['2031-01-13T10:00:00.000Z', '2031-01-20T10:00:00.000Z']);
    }
    const bad = await check(row('next monday'));
    expect(bad.body.errors).toMatchObject([{ row: 1, code: 'OCCURRENCE_INVALID' }]);
  });

  it('a CSV cell of alerts: minutes separated by spaces or commas, or a JSON array; anything else is the row’s error', async () => {
    const withAlerts = (alerts: string) => `message,date,time,timezone,recurrence,alerts\r\nWeekly,2031-01-06,10:00,UTC,WEEKLY,${cell(alerts)}\r\n`;
    for (const alerts of ['60 15', '60,15', '[{"before_minutes":60},{"before_minutes":15}]']) {
      const res = await check(withAlerts(alerts));
      expect(res.body.errors, alerts).toEqual([]);
      expect(res.body.preview[0].alerts.map((a: { before_minutes: number }) => a.before_minutes).sort((a: number, b: number) => a - b), alerts).toEqual([15, 60]);
    }
    expect((await check(withAlerts(''))).body.preview[0].alerts).toEqual([]);
    expect((await check(withAlerts('an hour'))).body.errors).toMatchObject([{ row: 1, code: 'ALERTS_INVALID' }]);
    expect((await check(withAlerts('0'))).body.errors).toMatchObject([{ row: 1, code: 'ALERT_AFTER_EVENT' }]);
  });

  it('metadata keeps what the API accepts, within the API’s limits', async () => {
    const long = await check(row('', JSON.stringify([{ type: 'webhook', metadata: { url: `${HOOK}/${'x'.repeat(5000)}` } }])));
    expect(long.body.errors).toMatchObject([{ row: 1, code: 'INVALID_DESTINATION' }]);
    const named = await check(row('', JSON.stringify([{ type: 'email', metadata: { address: 'Bob@Example.com', guild_name: 'Not from a file' } }])));
    expect(named.body.errors).toEqual([]);
    expect(named.body.preview[0].destinations).toEqual([{ type: 'email', metadata: { address: 'bob@example.com' } }]);
  });
});
