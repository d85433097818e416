/**
 * The calendar feed (docs/time.md "Calendar feed, export and import"), over real HTTP, read by an
 * independent parser (ical.js): every reminder's first 20 occurrences as ical.js expands the
 * feed equal Chime's own (series.ts), across DST gaps and overlaps, presets and custom rules,
 * with skipped occurrences. Then the address's security: wrong, rotated or turned-off tokens,
 * other accounts, rate limit, conditional GET.
 */
import fc from 'fast-check';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remindersToIcs, YEARS_AHEAD, type CalendarReminder } from '../../../../server/reminders/calendar.ts';
import { chimeOccurrences, expandWithIcalJs } from '../../../helpers/ical.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

type Row = CalendarReminder;

const feedPath = (url: string) => new URL(url).pathname;

describe('calendar feed', () => {
  let server: TestServer;
  let a: Awaited<ReturnType<typeof signUp>>;
  let b: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    server = await startTestServer({ overrides: { schedulerEnabled: false } });
    a = await signUp(server.url, { timezone: 'Europe/Paris' });
    b = await signUp(server.url, { timezone: 'America/New_York' });
  });
  afterAll(async () => server?.close());

  const samples: Array<Record<string, unknown> & { skip?: string[] }> = [
    { message: 'Paris daily in the gap', date: '2027-03-20', time: '02:30', recurrence: 'DAILY', timezone: 'Europe/Paris', skip: ['2027-03-22T01:30:00.000Z'] },
    { message: 'Paris weekly, Sunday 02:30', date: '2027-03-21', time: '02:30', recurrence: 'WEEKLY', timezone: 'Europe/Paris' },
    { message: 'Paris one-off in the gap', date: '2027-03-28', time: '02:30', recurrence: 'ONCE', timezone: 'Europe/Paris' },
    { message: 'Paris hourly across the change', date: '2027-03-27', time: '23:30', recurrence: 'HOURLY', timezone: 'Europe/Paris', skip: ['2027-03-28T02:30:00.000Z'] },
    { message: 'Paris monthly on the 30th', date: '2027-01-30', time: '10:00', recurrence: 'MONTHLY', timezone: 'Europe/Paris' },
    { message: 'Paris monthly on the 29th, 02:30', date: '2027-01-29', time: '02:30', recurrence: 'MONTHLY', timezone: 'Europe/Paris', skip: ['2027-02-28T01:30:00.000Z'] },
    { message: 'Paris yearly on Feb 29', date: '2028-02-29', time: '08:00', recurrence: 'YEARLY', timezone: 'Europe/Paris' },
    { message: 'Every 45 minutes, Paris', date: '2027-03-27', time: '22:00', recurrence: 'CUSTOM', rrule: 'FREQ=MINUTELY;INTERVAL=45', timezone: 'Europe/Paris' },
    { message: 'Every 3 days, 10 times', date: '2027-03-22', time: '02:30', recurrence: 'CUSTOM', rrule: 'FREQ=DAILY;INTERVAL=3;COUNT=10', timezone: 'Europe/Paris', skip: ['2027-03-25T01:30:00.000Z'] },
    { message: 'New York daily 01:30 (overlap)', date: '2027-10-25', time: '01:30', recurrence: 'DAILY', timezone: 'America/New_York', skip: ['2027-10-27T05:30:00.000Z'] },
    { message: 'New York weekly Sunday 01:30, overlap skipped', date: '2027-10-31', time: '01:30', recurrence: 'WEEKLY', timezone: 'America/New_York', skip: ['2027-11-07T05:30:00.000Z'] },
    { message: 'New York every other Mon/Wed until a date', date: '2027-01-02', time: '10:00', recurrence: 'CUSTOM', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20270601', timezone: 'America/New_York' },
    { message: 'Lord Howe daily 02:15 (30-minute gap)', date: '2027-09-28', time: '02:15', recurrence: 'DAILY', timezone: 'Australia/Lord_Howe' },
    { message: 'Lord Howe daily 01:45 (30-minute overlap)', date: '2027-03-30', time: '01:45', recurrence: 'DAILY', timezone: 'Australia/Lord_Howe' },
    { message: 'Lord Howe last workday', date: '2027-01-03', time: '18:00', recurrence: 'CUSTOM', rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=15', timezone: 'Australia/Lord_Howe' },
    { message: 'Kathmandu workdays from a Saturday', date: '2027-01-02', time: '09:00', recurrence: 'WORKDAYS', timezone: 'Asia/Kathmandu' },
    { message: 'Kathmandu weekend', date: '2027-01-04', time: '07:15', recurrence: 'WEEKEND', timezone: 'Asia/Kathmandu' },
    { message: 'Kathmandu last day of the month', date: '2027-01-31', time: '20:00', recurrence: 'CUSTOM', rrule: 'FREQ=MONTHLY;BYMONTHDAY=-1', timezone: 'Asia/Kathmandu' },
    { message: 'First Monday, 6 times', date: '2027-01-01', time: '08:00', recurrence: 'CUSTOM', rrule: 'FREQ=MONTHLY;BYDAY=1MO;COUNT=6', timezone: 'America/New_York' },
    { message: 'Yearly 2nd Sunday of March, 02:30 NY', date: '2027-03-14', time: '02:30', recurrence: 'CUSTOM', rrule: 'FREQ=YEARLY;BYMONTH=3;BYDAY=2SU', timezone: 'America/New_York' },
    { message: 'Escaping: a, b; c\\d\nline two — ünïcode ✓ that is long enough to be folded over more than one line of seventy-five octets', date: '2027-06-01', time: '12:00', recurrence: 'DAILY', timezone: 'Europe/Paris' },
  ];

  it('ical.js expands every reminder of the feed to Chime own occurrences (zones with DST, presets, custom rules, EXDATE)', async () => {
    const ids: string[] = [];
    for (const { skip, ...body } of samples) {
      const res = await a.api.post('/api/reminders', body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id);
      for (const occurrence of skip ?? []) {
        const skipped = await a.api.post(`/api/reminders/${res.body.id}/skip`, { occurrence });
        expect(skipped.status, `${body.message}: ${JSON.stringify(skipped.body)}`).toBe(200);
      }
    }
    const { body: feed } = await a.api.get('/api/account/calendar-feed');
    const res = await fetch(feed.url.replace(server.config.publicUrl, server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await res.text();
    // RFC 5545 framing: CRLF everywhere, no line over 75 octets.
    expect(text.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    for (const zone of ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu']) expect(text).toContain(`TZID:${zone}\r\n`);

    const expanded = expandWithIcalJs(text);
    const rows = await server.app.db.selectFrom('reminders').selectAll().where('account_id', '=', a.id).execute();
    expect(expanded.size).toBe(rows.length);
    for (const r of rows) {
      const want = chimeOccurrences(r);
      expect(want.length, r.message).toBeGreaterThan(0);
      expect(expanded.get(r.id), r.message).toEqual(want);
    }
    // Text survives escaping and folding.
    const comp = new ICAL.Component(ICAL.parse(text));
    const summaries = comp.getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('summary'));
    expect(summaries).toContain(samples.at(-1)!.message);
    const one = comp.getAllSubcomponents('vevent')[0]!;
    expect(String(one.getFirstPropertyValue('description'))).toContain(`${server.config.publicUrl}/reminders/`);
    expect(one.getFirstSubcomponent('valarm')?.getFirstPropertyValue('trigger')?.toString()).toBe('PT0S');
  });

  it('random presets in zones with DST: ical.js agrees with series.ts (property)', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Santiago', 'Pacific/Chatham'];
    const presets = ['ONCE', 'HOURLY', 'DAILY', 'WEEKLY', 'WORKDAYS', 'WEEKEND', 'MONTHLY', 'YEARLY'] as const;
    const customs = ['FREQ=WEEKLY;BYDAY=MO,FR', 'FREQ=MONTHLY;BYDAY=-1SU', 'FREQ=DAILY;INTERVAL=2;COUNT=12', 'FREQ=MONTHLY;BYMONTHDAY=15,-1', 'FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU', 'FREQ=HOURLY;INTERVAL=7'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({ min: new Date('2026-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 47 }),
        fc.oneof(fc.constantFrom(...presets), fc.constantFrom(...customs)),
        (zone, day, halfHour, repetition) => {
          const custom = repetition.startsWith('FREQ=');
          const row: Row = {
            id: 'r1',
            message: 'm',
            local_date: day.toISOString().slice(0, 10),
            local_time: `${String(Math.floor(halfHour / 2)).padStart(2, '0')}:${halfHour % 2 ? '30' : '00'}`,
            timezone: zone,
            recurrence_type: (custom ? 'CUSTOM' : repetition) as Row['recurrence_type'],
            rrule: custom ? repetition : null,
            exceptions: '[]',
            is_paused: 0,
            updated_at: '2026-11-23T00:00:00.000Z',
          };
          const text = remindersToIcs([row], { publicUrl: 'https://chime.example', nowMs: Date.parse('2026-11-23T00:00:00Z'), name: 'Chime' });
          // The years written out explicitly: compare what falls in them.
          const end = new Date(Date.UTC(Math.max(2026, day.getUTCFullYear()) + YEARS_AHEAD + 1, 0, 1)).toISOString();
          const want = chimeOccurrences(row).filter((t) => t < end);
          const got = (expandWithIcalJs(text).get('r1') ?? []).filter((t) => t < end);
          expect(got, `${zone} ${row.local_date} ${row.local_time} ${repetition}`).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a reminder dated 9999 keeps the feed small and right: the zone is written to 2050, then as its yearly rule', () => {
    const row = (id: string, local_date: string, local_time: string, recurrence_type: Row['recurrence_type']): Row => ({
      id,
      message: id,
      local_date,
      local_time,
      timezone: 'Europe/Paris',
      recurrence_type,
      rrule: null,
      exceptions: '[]',
      is_paused: 0,
      updated_at: '2026-11-23T00:00:00.000Z',
    });
    const rows = [
      row('daily-2027', '2027-03-20', '02:30', 'DAILY'),
      row('daily-2058', '2058-07-01', '09:00', 'DAILY'),
      row('summer-9999', '9999-07-01', '12:00', 'ONCE'),
      row('winter-9999', '9999-12-31', '23:00', 'ONCE'),
    ];
    const started = performance.now();
    const text = remindersToIcs(rows, { publicUrl: 'https://chime.example', nowMs: Date.parse('2026-11-23T00:00:00Z'), name: 'Chime' });
    // Every year out to 10019 written out made 1.5 MB and took about two seconds.
    expect(text.length).toBeLessThan(40_000);
    expect(performance.now() - started).toBeLessThan(1000);
    const expanded = expandWithIcalJs(text);
    for (const r of rows) expect(expanded.get(r.id), r.id).toEqual(chimeOccurrences(r));
    expect(expanded.get('summer-9999')).toEqual(['9999-07-01T10:00:00.000Z']);
  });

  it('security: wrong, rotated and turned-off addresses are 404; only the owner reminders appear', async () => {
    await b.api.post('/api/reminders', { message: 'B secret plan', date: '2027-05-01', time: '09:00', recurrence: 'DAILY' });
    const first = (await b.api.get('/api/account/calendar-feed')).body.url as string;
    expect(first).toMatch(new RegExp(`^${server.config.publicUrl}/feeds/[A-Za-z0-9_-]{43}\\.ics$`));
    // Same address on later calls.
    expect((await b.api.get('/api/account/calendar-feed')).body.url).toBe(first);
    const anon = client(server.url);
    const feedA = (await a.api.get('/api/account/calendar-feed')).body.url as string;
    const textA = (await anon.get(feedPath(feedA))).body as string;
    expect(textA).not.toContain('B secret plan');
    expect((await anon.get(feedPath(first))).body).toContain('B secret plan');

    const wrong = await anon.get(`/feeds/${'x'.repeat(43)}.ics`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await anon.get('/feeds/nothing')).status).toBe(404);

    const rotated = await b.api.post('/api/account/calendar-feed/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.url).not.toBe(first);
    expect((await anon.get(feedPath(first))).status).toBe(404);
    expect((await anon.get(feedPath(rotated.body.url))).status).toBe(200);

    expect((await b.api.delete('/api/account/calendar-feed')).body).toEqual({ ok: true });
    expect((await anon.get(feedPath(rotated.body.url))).status).toBe(404);
    const again = (await b.api.get('/api/account/calendar-feed')).body.url as string;
    expect(again).not.toBe(rotated.body.url);
    expect((await anon.get(feedPath(again))).status).toBe(200);

    // The management routes need a session.
    expect((await anon.get('/api/account/calendar-feed')).status).toBe(401);
    // Only the token's hash is looked up; the row keeps the token to show the address again.
    const row = await server.app.db.selectFrom('calendar_feeds').selectAll().where('account_id', '=', b.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('conditional GET: same ETag answers 304 until a reminder changes', async () => {
    const url = feedPath((await a.api.get('/api/account/calendar-feed')).body.url);
    const first = await fetch(server.url + url);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await fetch(server.url + url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // A change in another account changes nothing here (the body is the same, so the ETag too).
    await b.api.post('/api/reminders', { message: 'B again', date: '2027-05-02', time: '09:00', recurrence: 'DAILY' });
    expect((await fetch(server.url + url, { headers: { 'if-none-match': etag! } })).status).toBe(304);
    await a.api.post('/api/reminders', { message: 'A new one', date: '2027-05-02', time: '09:00', recurrence: 'DAILY' });
    const changed = await fetch(server.url + url, { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(await changed.text()).toContain('A new one');
  });

  it('rate-limited per address: 429 { error, code: RATE_LIMITED } with Retry-After', async () => {
    const c = await signUp(server.url);
    const url = feedPath((await c.api.get('/api/account/calendar-feed')).body.url);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 62; i++) {
      last = await fetch(server.url + url);
      statuses.push(last.status);
      if (last.status === 429) break;
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last!.json()).toMatchObject({ code: 'RATE_LIMITED', error: expect.any(String) });
  });

  it('a reminder with alerts carries one VALARM per alert before the event, as ical.js reads them', async () => {
    const d = await signUp(server.url, { timezone: 'Europe/Paris' });
    const made = await d.api.post('/api/reminders', {
      message: 'Dentist',
      date: '2027-05-03',
      time: '09:00',
      recurrence: 'WEEKLY',
      alerts: [{ before_minutes: 15 }, { before_minutes: 1440 }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await d.api.post('/api/reminders', { message: 'No alerts', date: '2027-05-03', time: '10:00' });
    const text = (await client(server.url).get(feedPath((await d.api.get('/api/account/calendar-feed')).body.url))).body as string;
    const comp = new ICAL.Component(ICAL.parse(text));
    const triggers = new Map(
      comp.getAllSubcomponents('vevent').map((ve) => [
        String(ve.getFirstPropertyValue('summary')),
        ve.getAllSubcomponents('valarm').map((alarm) => {
          expect(alarm.getFirstPropertyValue('action')).toBe('DISPLAY');
          return (alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds();
        }),
      ]),
    );
    // The alarm at the event itself, then one per alert.
    expect(triggers.get('Dentist')).toEqual([0, -86_400, -900]);
    expect(triggers.get('No alerts')).toEqual([0]);
  });

  it('paused and finished reminders are not in the feed', async () => {
    const d = await signUp(server.url, { timezone: 'Europe/Paris' });
    const paused = await d.api.post('/api/reminders', { message: 'Paused one', date: '2027-05-01', time: '09:00', recurrence: 'DAILY' });
    await d.api.post(`/api/reminders/${paused.body.id}/pause`);
    await d.api.post('/api/reminders', { message: 'Active one', date: '2027-05-01', time: '09:00', recurrence: 'DAILY' });
    const text = (await client(server.url).get(feedPath((await d.api.get('/api/account/calendar-feed')).body.url))).body as string;
    expect(text).toContain('Active one');
    expect(text).not.toContain('Paused one');
  });
});
