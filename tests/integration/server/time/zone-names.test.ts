// Runs on SQLite only: zone names do not depend on the database (vitest.config.ts).
/**
 * Zone ids round-trip: what a user picks is what the API answers, on sign-up, on the account and
 * on a reminder (docs/time.md "How a reminder keeps time": kept as chosen, case fixed, legacy aliases under their modern
 * name). Node's ICU answers CLDR ids, often the legacy ones (Asia/Kolkata -> Asia/Calcutta), so
 * every zone the dashboard offers is sent through each endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMEZONES } from '../../../../web/src/lib/timezones.ts';
import { timeZoneLabel } from '../../../../web/src/lib/time-zone-label.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

type User = Awaited<ReturnType<typeof signUp>>;

/** The one list every picker offers (issue 27 #12). */
const ALL_OFFERED = [...TIMEZONES];
/** Sign-up hashes a password per account: every seventh zone, plus the ones people ask for. */
const SIGNUP_SAMPLE = [...new Set([...ALL_OFFERED.filter((_, i) => i % 7 === 0), 'Europe/Madrid', 'Europe/Rome', 'Europe/Amsterdam', 'Asia/Kolkata', 'UTC'])];

/** Legacy spellings people (and old browsers) still send, and what Chime stores instead. */
const LEGACY: Array<[string, string]> = [
  ['Asia/Calcutta', 'Asia/Kolkata'],
  ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
  ['Asia/Katmandu', 'Asia/Kathmandu'],
  ['Europe/Kiev', 'Europe/Kyiv'],
  ['US/Eastern', 'America/New_York'],
];

/** Any case in, the proper case out (legacy names renamed as well). */
const CASED: Array<[string, string]> = [
  ['europe/paris', 'Europe/Paris'],
  ['AMERICA/NEW_YORK', 'America/New_York'],
  ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
  ['utc', 'UTC'],
  ['asia/calcutta', 'Asia/Kolkata'],
  ['us/eastern', 'America/New_York'],
];

/** Modern names whose CLDR id is another spelling: must come back as sent. */
const MODERN_NOT_CLDR = ['Europe/Kyiv', 'Asia/Ho_Chi_Minh', 'Asia/Yangon', 'America/Nuuk', 'Pacific/Kanton', 'Atlantic/Faroe', 'America/Indiana/Indianapolis'];

const CASES: Array<[string, string]> = [
  ...ALL_OFFERED.map((z): [string, string] => [z, z]),
  ...MODERN_NOT_CLDR.map((z): [string, string] => [z, z]),
  ...LEGACY,
  ...CASED,
];

/** The wall clock (YYYY-MM-DDTHH:MM) of an instant in a zone, read with Intl, independently of Chime's own zone code. */
function wallClockOf(instant: string, timeZone: string): string {
  const offset = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(Date.parse(instant)).find((p) => p.type === 'timeZoneName')!.value;
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(offset)!;
  const offsetMs = m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  return new Date(Date.parse(instant) + offsetMs).toISOString().slice(0, 16);
}

describe('zone ids round-trip', () => {
  let server: TestServer;
  let user: User;
  /** The reminder created for each sent spelling. */
  const createdIds = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer();
    user = await signUp(server.url, { timezone: 'UTC' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the dashboard offers one full list, every id valid and in its modern spelling, sorted as it reads', () => {
    expect(ALL_OFFERED.length).toBeGreaterThan(400);
    expect(new Set(ALL_OFFERED).size).toBe(ALL_OFFERED.length);
    for (const zone of ['Europe/Madrid', 'Europe/Rome', 'Europe/Amsterdam', 'Asia/Kolkata', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires', 'UTC']) expect(ALL_OFFERED, zone).toContain(zone);
    for (const legacy of LEGACY.map(([old]) => old)) expect(ALL_OFFERED, legacy).not.toContain(legacy);
    for (const zone of ALL_OFFERED) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone }), zone).not.toThrow();
    const cities = ALL_OFFERED.map((z) => timeZoneLabel(z).replace(/ \(UTC.*\)$/, ''));
    expect(cities).toEqual([...cities].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  });

  it('sign-up: POST /api/auth/register answers the zone sent, and so does the account afterwards', async () => {
    const anon = client(server.url);
    const cases: Array<[string, string]> = [...SIGNUP_SAMPLE.map((z): [string, string] => [z, z]), ...LEGACY, ...CASED];
    let n = 0;
    for (const [sent, expected] of cases) {
      n += 1;
      const email = `zone${n}-${Date.now()}@example.com`;
      const reg = await anon.post('/api/auth/register', { email, username: `zone${n}`, password: 'correct horse battery', timezone: sent });
      expect(reg.status, `${sent} ${JSON.stringify(reg.body)}`).toBe(201);
      expect(reg.body.timezone, sent).toBe(expected);
      const login = await anon.post('/api/auth/login', { email, password: 'correct horse battery', remember_me: false });
      expect(login.status, sent).toBe(200);
      const account = await client(server.url, login.body.token).get('/api/account');
      expect(account.body.timezone, sent).toBe(expected);
    }
  });

  it('account: PUT /api/account/timezone answers the zone sent, and GET /api/account too', async () => {
    const cases: Array<[string, string]> = CASES;
    for (const [sent, expected] of cases) {
      const put = await user.api.put('/api/account/timezone', { timezone: sent });
      expect(put.status, `${sent} ${JSON.stringify(put.body)}`).toBe(200);
      expect(put.body.timezone, sent).toBe(expected);
      expect((await user.api.get('/api/account')).body.timezone, sent).toBe(expected);
    }
  });

  it('reminder: POST /api/reminders with a timezone answers it, on create and in the list', async () => {
    await user.api.put('/api/account/timezone', { timezone: 'UTC' });
    for (const [sent, expected] of CASES) {
      const created = await user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: sent, recurrence: 'WEEKLY', destinations: [], timezone: sent });
      expect(created.status, `${sent} ${JSON.stringify(created.body)}`).toBe(201);
      expect(created.body, sent).toMatchObject({ timezone: expected, date: '2030-07-01', time: '09:00' });
      expect(wallClockOf(created.body.remind_at_utc, expected), sent).toBe('2030-07-01T09:00');
      createdIds.set(sent, created.body.id as string);
    }
    const list = (await user.api.get('/api/reminders')).body as Array<{ message: string; timezone: string }>;
    const byMessage = new Map(list.map((r) => [r.message, r.timezone]));
    for (const [sent, expected] of CASES) expect(byMessage.get(sent), sent).toBe(expected);
  });

  it('reminder: read and edited without a timezone, it keeps its own zone (a sample of the zones, every odd spelling)', async () => {
    // Reading and editing a reminder take its stored zone, whatever it is: one in seven offered
    // zones, and every legacy, cased and non-CLDR spelling, prove it without 400 more round trips.
    const sample = CASES.filter(([sent], i) => i % 7 === 0 || !ALL_OFFERED.includes(sent) || MODERN_NOT_CLDR.includes(sent));
    for (const [sent, expected] of sample) {
      const id = createdIds.get(sent)!;
      expect((await user.api.get(`/api/reminders/${id}`)).body.timezone, sent).toBe(expected);
      // An edit without a timezone keeps the reminder's own zone, not the account's (UTC).
      const edited = await user.api.put(`/api/reminders/${id}`, { date: '2030-07-02', time: '10:00', message: sent, recurrence: 'WEEKLY', destinations: [] });
      expect(edited.status, sent).toBe(200);
      expect(edited.body.timezone, sent).toBe(expected);
      // The instant is the wall clock in that zone, whatever spelling was sent.
      expect(wallClockOf(edited.body.remind_at_utc, expected), sent).toBe('2030-07-02T10:00');
    }
  });

  it('a reminder without a timezone takes the account zone, in its stored spelling', async () => {
    for (const [sent, expected] of [...LEGACY, ['europe/paris', 'Europe/Paris'] as [string, string], ['Asia/Kolkata', 'Asia/Kolkata'] as [string, string]]) {
      await user.api.put('/api/account/timezone', { timezone: sent });
      const created = await user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'account zone', recurrence: 'ONCE', destinations: [] });
      expect(created.body.timezone, sent).toBe(expected);
    }
  });

  it('the preview reads legacy and lower-case zones as the zone they name', async () => {
    const modern = await user.api.get('/api/reminders/preview?date=2030-07-01&time=09:00&recurrence=DAILY&timezone=Asia/Kolkata&count=3');
    expect(modern.body.occurrences).toEqual(['2030-07-01T03:30:00.000Z', '2030-07-02T03:30:00.000Z', '2030-07-03T03:30:00.000Z']);
    for (const zone of ['Asia/Calcutta', 'asia/kolkata', 'ASIA/CALCUTTA']) {
      const res = await user.api.get(`/api/reminders/preview?date=2030-07-01&time=09:00&recurrence=DAILY&timezone=${encodeURIComponent(zone)}&count=3`);
      expect(res.body, zone).toEqual(modern.body);
    }
  });

  it('refuses what is not a zone, everywhere', async () => {
    for (const zone of ['Mars/Olympus', '+05:00', 'GMT+5', 'Europe/', '']) {
      const res = await user.api.put('/api/account/timezone', { timezone: zone });
      expect(res.status, zone).toBe(400);
      const reminder = await user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'x', recurrence: 'ONCE', destinations: [], timezone: zone || 'Nowhere/Land' });
      expect(reminder.body.code, zone).toBe('INVALID_TIMEZONE');
    }
    const reg = await client(server.url).post('/api/auth/register', { email: `mars-${Date.now()}@example.com`, username: 'mars', password: 'correct horse battery', timezone: 'Mars/Olympus' });
    expect(reg.body.code).toBe('INVALID_TIMEZONE');
  });
});
