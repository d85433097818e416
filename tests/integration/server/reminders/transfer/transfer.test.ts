/**
 * Export (JSON, CSV, ICS) and import of reminders over real HTTP: round trips into a fresh
 * account, the ICS export read by ical.js, per-row errors, all-or-nothing vs valid-only, dry runs,
 * bad files, the formula guard, foreign calendars, the account limit.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardCell, parseCsv, unguardCell } from '../../../../../server/lib/csv.ts';
import { chimeOccurrences, expandWithIcalJs } from '../../../../helpers/ical.ts';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';

type User = Awaited<ReturnType<typeof signUp>>;

const SAMPLES = [
  { message: 'Stand-up, daily; Paris', date: '2027-03-20', time: '02:30', recurrence: 'DAILY', timezone: 'Europe/Paris', alerts: [{ before_minutes: 15 }, { before_minutes: 1440 }], destinations: [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/a', platform: 'generic' } }] },
  { message: '=SUM(A1:A2) looks like a formula', date: '2027-01-02', time: '09:00', recurrence: 'WORKDAYS', timezone: 'Asia/Kathmandu', destinations: [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/b', platform: 'slack' } }] },
  { message: "-5 degrees and 'quotes' \"double\"\nsecond line", date: '2027-10-31', time: '01:30', recurrence: 'WEEKLY', timezone: 'America/New_York' },
  { message: 'Every other Mon/Wed', date: '2027-01-02', time: '10:00', recurrence: 'CUSTOM', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20280601', timezone: 'America/New_York' },
  { message: 'Last workday, Lord Howe', date: '2027-01-03', time: '18:00', recurrence: 'CUSTOM', rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=15', timezone: 'Australia/Lord_Howe' },
  { message: 'Monthly on the 30th', date: '2027-01-30', time: '10:00', recurrence: 'MONTHLY', timezone: 'Europe/Paris' },
  { message: 'One-off', date: '2027-06-01', time: '12:15', recurrence: 'ONCE', timezone: 'Europe/Paris' },
  { message: '@everyone hourly', date: '2027-03-27', time: '23:30', recurrence: 'HOURLY', timezone: 'Europe/Paris' },
];

/** What must survive a round trip (secrets and ids aside). */
function comparable(list: any[]) {
  return list
    .map((r) => ({
      message: r.message,
      date: r.date,
      time: r.time,
      timezone: r.timezone,
      recurrence_type: r.recurrence_type,
      rrule: r.rrule,
      is_paused: r.is_paused,
      exceptions: r.exceptions,
      destinations: r.destinations.map((d: any) => ({ type: d.type, metadata: d.metadata })),
      alerts: r.alerts,
    }))
    .sort((x, y) => x.message.localeCompare(y.message));
}

describe('export and import', () => {
  let server: TestServer;
  let a: User;
  const ids: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ overrides: { schedulerEnabled: false } });
    a = await signUp(server.url, { timezone: 'Europe/Paris' });
    for (const body of SAMPLES) {
      const res = await a.api.post('/api/reminders', body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id);
    }
    expect((await a.api.post(`/api/reminders/${ids[0]}/skip`, { occurrence: '2027-03-28T01:00:00.000Z' })).status).toBe(200);
    expect((await a.api.post(`/api/reminders/${ids[2]}/skip`, { occurrence: '2027-11-07T05:30:00.000Z' })).status).toBe(200);
    expect((await a.api.post(`/api/reminders/${ids[3]}/pause`)).status).toBe(200);
  });
  afterAll(async () => server?.close());

  async function download(user: User, format: string) {
    const res = await fetch(`${server.url}/api/reminders/export?format=${format}`, { headers: { authorization: `Bearer ${user.token}` } });
    return { res, text: await res.text() };
  }

  it('downloads as attachments named chime-reminders-YYYY-MM-DD.<ext>', async () => {
    const today = new Date().toISOString().slice(0, 10);
    for (const [format, type] of [
      ['json', 'application/json; charset=utf-8'],
      ['csv', 'text/csv; charset=utf-8'],
      ['ics', 'text/calendar; charset=utf-8'],
    ]) {
      const { res } = await download(a, format!);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename=chime-reminders-${today}.${format}`);
    }
    expect((await fetch(`${server.url}/api/reminders/export?format=xml`, { headers: { authorization: `Bearer ${a.token}` } })).status).toBe(400);
    expect((await fetch(`${server.url}/api/reminders/export?format=json`)).status).toBe(401);
  });

  it('JSON holds everything but secrets, and a round trip into a fresh account gives the same reminders', async () => {
    const { text } = await download(a, 'json');
    expect(text).not.toMatch(/whsec_/);
    const file = JSON.parse(text);
    expect(file.reminders).toHaveLength(SAMPLES.length);
    expect(Object.keys(file.reminders[0]).sort()).toEqual(['alerts', 'date', 'destinations', 'exceptions', 'message', 'paused', 'recurrence', 'rrule', 'time', 'timezone']);
    const fresh = await signUp(server.url, { timezone: 'UTC' });
    const res = await fresh.api.post('/api/reminders/import', { format: 'json', content: text, dry_run: false, mode: 'all_or_nothing' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ valid: SAMPLES.length, created: SAMPLES.length, errors: [] });
    const before = (await a.api.get('/api/reminders')).body;
    const after = (await fresh.api.get('/api/reminders')).body;
    expect(comparable(after)).toEqual(comparable(before));
    // The skipped occurrences are there.
    expect(after.find((r: any) => r.message.startsWith('Stand-up')).exceptions).toEqual(['2027-03-28T01:00:00.000Z']);
    // Webhooks have new secrets (the export had none to give).
    const hooks = await server.app.db.selectFrom('destinations').innerJoin('reminders', 'reminders.id', 'destinations.reminder_id').select('destinations.secret').where('reminders.account_id', '=', fresh.id).where('destinations.type', '=', 'webhook').execute();
    expect(hooks.every((h) => h.secret?.startsWith('whsec_'))).toBe(true);
  });

  it('CSV: the columns, RFC 4180 quoting, the formula guard; a round trip gives the same reminders', async () => {
    const { text } = await download(a, 'csv');
    const records = parseCsv(text);
    expect(records[0]).toEqual(['message', 'date', 'time', 'timezone', 'recurrence', 'rrule', 'exceptions', 'paused', 'destinations', 'alerts']);
    expect(text.includes('\r\n')).toBe(true);
    const messages = records.slice(1).map((r) => r[0]);
    expect(messages).toContain("'=SUM(A1:A2) looks like a formula");
    expect(messages).toContain("'@everyone hourly");
    expect(messages).toContain("'-5 degrees and 'quotes' \"double\"\nsecond line");
    // Every cell that a spreadsheet would run starts with the apostrophe.
    expect(records.flat().filter((c) => /^[=+\-@]/.test(c))).toEqual([]);
    const fresh = await signUp(server.url);
    const res = await fresh.api.post('/api/reminders/import', { format: 'csv', content: text, dry_run: false, mode: 'all_or_nothing' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ created: SAMPLES.length, errors: [] });
    expect(comparable((await fresh.api.get('/api/reminders')).body)).toEqual(comparable((await a.api.get('/api/reminders')).body));
  });

  it('ICS: ical.js reads the export as Chime fires it, and Chime reads it back exactly', async () => {
    const { text } = await download(a, 'ics');
    const expanded = expandWithIcalJs(text);
    const rows = await server.app.db.selectFrom('reminders').selectAll().where('account_id', '=', a.id).execute();
    for (const r of rows) expect(expanded.get(r.id), r.message).toEqual(chimeOccurrences(r));
    const fresh = await signUp(server.url, { timezone: 'Asia/Tokyo' });
    const res = await fresh.api.post('/api/reminders/import', { format: 'ics', content: text, dry_run: false, mode: 'all_or_nothing' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ created: SAMPLES.length, errors: [] });
    expect(comparable((await fresh.api.get('/api/reminders')).body)).toEqual(comparable((await a.api.get('/api/reminders')).body));
  });

  it('a bad row: all_or_nothing creates nothing, valid_only creates the rest; dry_run previews', async () => {
    const content = JSON.stringify({
      reminders: [
        { message: 'Good one', date: '2027-05-01', time: '09:00', timezone: 'Europe/Paris', recurrence: 'DAILY' },
        { message: 'Bad rule', date: '2027-05-01', time: '09:00', timezone: 'Europe/Paris', recurrence: 'CUSTOM', rrule: 'FREQ=SECONDLY' },
        { message: '', date: '2027-05-01', time: '09:00' },
        { message: 'Past', date: '2020-05-01', time: '09:00', recurrence: 'ONCE' },
        { message: 'Not an occurrence', date: '2027-05-01', time: '09:00', recurrence: 'DAILY', exceptions: ['2027-05-02T10:00:00.000Z'] },
        { message: 'Bad zone', date: '2027-05-01', time: '09:00', timezone: 'Mars/Olympus' },
        { message: 'Another good one', date: '2027-05-01', time: '10:00', recurrence: 'WEEKLY', paused: true },
      ],
    });
    const user = await signUp(server.url, { timezone: 'Europe/Paris' });
    const dry = await user.api.post('/api/reminders/import', { format: 'json', content, dry_run: true, mode: 'valid_only' });
    expect(dry.status).toBe(200);
    expect(dry.body.valid).toBe(2);
    expect(dry.body.created).toBe(0);
    expect(dry.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [2, 'RRULE_INVALID'],
      [3, 'MESSAGE_REQUIRED'],
      [4, 'REMINDER_IN_PAST'],
      [5, 'OCCURRENCE_INVALID'],
      [6, 'INVALID_TIMEZONE'],
    ]);
    expect(dry.body.preview.map((p: any) => [p.row, p.message, p.paused])).toEqual([
      [1, 'Good one', false],
      [7, 'Another good one', true],
    ]);
    expect((await user.api.get('/api/reminders')).body).toHaveLength(0);
    // The preview says each repetition in words, in the caller's language; the rule stays in `rrule`.
    const reminder = await user.api.post('/api/reminders', { message: 'For the words', date: '2027-05-01', time: '10:00', recurrence: 'WEEKLY' }, { 'accept-language': 'fr' });
    await user.api.delete(`/api/reminders/${reminder.body.id}`);
    // A create answers in the caller's language too (its Idempotency-Key header schema once dropped Accept-Language).
    expect(reminder.body.recurrence_text).toBe('Chaque semaine le samedi');
    expect(dry.body.preview.map((p: any) => p.recurrence_text)).toEqual(['Every day', expect.stringMatching(/^Every week on Saturday/)]);
    const french = await user.api.post('/api/reminders/import', { format: 'json', content, dry_run: true, mode: 'valid_only' }, { 'accept-language': 'fr' });
    expect(french.body.preview[1].recurrence_text).toBe(reminder.body.recurrence_text);
    expect(french.body.preview[1].recurrence_text).not.toBe(dry.body.preview[1].recurrence_text);

    const strict = await user.api.post('/api/reminders/import', { format: 'json', content, dry_run: false, mode: 'all_or_nothing' });
    expect(strict.body).toMatchObject({ valid: 2, created: 0 });
    expect((await user.api.get('/api/reminders')).body).toHaveLength(0);

    const lenient = await user.api.post('/api/reminders/import', { format: 'json', content, dry_run: false, mode: 'valid_only' });
    expect(lenient.body).toMatchObject({ valid: 2, created: 2 });
    const list = (await user.api.get('/api/reminders')).body;
    // Created in one transaction, they may share a created_at: compare sorted.
    expect(list.map((r: any) => [r.message, r.status]).sort()).toEqual([
      ['Another good one', 'paused'],
      ['Good one', 'active'],
    ]);
  });

  it('bad files are a 400 { error, code }, never a 500', async () => {
    const user = await signUp(server.url);
    // `reason` lets the dashboard say why in the user's language; `detail` is the parser's own words.
    const cases: Array<[string, string, string, Record<string, unknown>]> = [
      ['json', '{not json', 'IMPORT_FILE_INVALID', { reason: 'JSON_SYNTAX', detail: expect.stringContaining('JSON') }],
      ['json', '{"x":1}', 'IMPORT_FILE_INVALID', { reason: 'JSON_SHAPE' }],
      ['json', '[]', 'IMPORT_FILE_INVALID', { reason: 'EMPTY' }],
      ['csv', 'a,b,c\r\n1,2,3', 'IMPORT_FILE_INVALID', { reason: 'CSV_HEADER' }],
      ['csv', 'message,date,time\r\n"unterminated', 'IMPORT_FILE_INVALID', { reason: 'CSV_SYNTAX', detail: expect.any(String) }],
      ['ics', 'hello', 'IMPORT_FILE_INVALID', { reason: 'ICS_SYNTAX', detail: expect.any(String) }],
      ['ics', 'BEGIN:VTODO\r\nEND:VTODO', 'IMPORT_FILE_INVALID', { reason: 'NOT_ICS' }],
      ['ics', 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VCALENDAR', 'IMPORT_FILE_INVALID', { reason: 'ICS_SYNTAX', detail: expect.any(String) }],
      ['json', JSON.stringify(Array.from({ length: 10_001 }, () => ({}))), 'IMPORT_TOO_LARGE', {}],
      ['csv', 'message,date,time\r\n' + 'x,2027-01-01,09:00\r\n'.repeat(10_001), 'IMPORT_TOO_LARGE', {}],
    ];
    for (const [format, content, code, details] of cases) {
      const res = await user.api.post('/api/reminders/import', { format, content, dry_run: true, mode: 'valid_only' });
      expect(res.status, `${format} ${content.slice(0, 30)}`).toBe(400);
      expect(res.body, `${format} ${content.slice(0, 30)}`).toMatchObject({ code, error: expect.any(String), ...details });
    }
    const tooBig = await user.api.post('/api/reminders/import', { format: 'json', content: 'x'.repeat(1024 * 1024 + 1) });
    expect(tooBig.status).toBe(400);
    expect((await user.api.post('/api/reminders/import', { format: 'xml', content: '' })).status).toBe(400);
  });

  it('foreign ICS: all-day at 09:00 in the account zone, UTC times converted, presets recognised, unrepresentable rules are RRULE_INVALID rows', async () => {
    const user = await signUp(server.url, { timezone: 'America/New_York' });
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Other//EN',
      'BEGIN:VEVENT',
      'UID:1',
      'SUMMARY:All day\\, yearly',
      'DTSTART;VALUE=DATE:20270704',
      'RRULE:FREQ=YEARLY',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:2',
      'SUMMARY:UTC meeting',
      'DTSTART:20270705T140000Z',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:3',
      'SUMMARY:Every weekday',
      'DTSTART;TZID=Europe/Berlin:20270705T083000',
      'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
      'EXDATE;TZID=Europe/Berlin:20270706T083000',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:4',
      'SUMMARY:By hour',
      'DTSTART;TZID=Europe/Berlin:20270705T083000',
      'RRULE:FREQ=DAILY;BYHOUR=8,12',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:5',
      'SUMMARY:Windows zone',
      'DTSTART;TZID=W. Europe Standard Time:20270705T083000',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:3',
      'RECURRENCE-ID;TZID=Europe/Berlin:20270707T083000',
      'SUMMARY:Moved instance (not a reminder of its own)',
      'DTSTART;TZID=Europe/Berlin:20270707T100000',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const res = await user.api.post('/api/reminders/import', { format: 'ics', content: ics, dry_run: false, mode: 'valid_only' });
    expect(res.status).toBe(200);
    expect(res.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [4, 'RRULE_INVALID'],
      [5, 'INVALID_TIMEZONE'],
    ]);
    expect(res.body.created).toBe(3);
    const list = (await user.api.get('/api/reminders')).body as any[];
    const by = (m: string) => list.find((r) => r.message === m);
    expect(by('All day, yearly')).toMatchObject({ date: '2027-07-04', time: '09:00', timezone: 'America/New_York', recurrence_type: 'YEARLY', rrule: null });
    expect(by('UTC meeting')).toMatchObject({ date: '2027-07-05', time: '10:00', timezone: 'America/New_York', recurrence_type: 'ONCE' });
    expect(by('Every weekday')).toMatchObject({ date: '2027-07-05', time: '08:30', timezone: 'Europe/Berlin', recurrence_type: 'WORKDAYS', exceptions: ['2027-07-06T06:30:00.000Z'] });
  });

  it('ICS days and times that do not exist are row errors, never a crash (found by the fuzz test)', async () => {
    const user = await signUp(server.url);
    const event = (uid: number, dtstart: string, extra: string[] = []) => ['BEGIN:VEVENT', `UID:${uid}`, `SUMMARY:Event ${uid}`, dtstart, ...extra, 'END:VEVENT'];
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      ...event(1, 'DTSTART;TZID=Etc/GMT-14:20310229T090000', ['RRULE:FREQ=YEARLY']),
      ...event(2, 'DTSTART:20270230T090000Z'),
      ...event(3, 'DTSTART;VALUE=DATE:20271301'),
      ...event(4, 'DTSTART;TZID=Europe/Paris:20270705T250000'),
      ...event(5, 'DTSTART;TZID=Europe/Paris:20270705T090000', ['RRULE:FREQ=DAILY', 'EXDATE;TZID=Europe/Paris:20270231T090000']),
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const res = await user.api.post('/api/reminders/import', { format: 'ics', content: ics, dry_run: true, mode: 'valid_only' });
    expect(res.status).toBe(200);
    expect(res.body.errors.map((e: any) => [e.row, e.code])).toEqual([
      [1, 'INVALID_DATE'],
      [2, 'INVALID_DATE'],
      [3, 'INVALID_DATE'],
      [4, 'INVALID_TIME'],
      [5, expect.any(String)],
    ]);
  });

  it('the formula guard is undone exactly on import (apostrophes included)', () => {
    for (const cell of ['=1+1', '+33 6', '-5', '@x', "'=already", "''@two", "'plain", 'plain', '', '\tTab', "it's"]) {
      expect(unguardCell(guardCell(cell))).toBe(cell);
      expect(guardCell(cell)).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('the account limit: rows past 10,000 reminders are REMINDER_LIMIT errors', async () => {
    const user = await signUp(server.url);
    const now = new Date().toISOString();
    const rows = Array.from({ length: 9_999 }, (_, i) => ({
      id: `bulk-${user.id}-${i}`,
      account_id: user.id,
      message: 'bulk',
      local_date: '2027-01-01',
      local_time: '09:00',
      timezone: 'UTC',
      recurrence_type: 'DAILY' as const,
      rrule: null,
      exceptions: '[]',
      remind_at_utc: '2027-01-01T09:00:00.000Z',
      is_paused: 0,
      snoozed_at_utc: null,
      next_fire_utc: '2027-01-01T09:00:00.000Z',
      next_occurrence_utc: '2027-01-01T09:00:00.000Z',
      last_fired_at: null,
      completed_at: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await server.app.db.insertInto('reminders').values(rows.slice(i, i + 500)).execute();
    const content = JSON.stringify([
      { message: 'fits', date: '2027-05-01', time: '09:00' },
      { message: 'one too many', date: '2027-05-01', time: '09:00' },
    ]);
    const res = await user.api.post('/api/reminders/import', { format: 'json', content, dry_run: false, mode: 'valid_only' });
    expect(res.body).toMatchObject({ valid: 1, created: 1, errors: [{ row: 2, code: 'REMINDER_LIMIT' }] });
  });

  it('ICS text of the export is valid for ical.js (VTIMEZONE per zone, escaping)', async () => {
    const { text } = await download(a, 'ics');
    const comp = new ICAL.Component(ICAL.parse(text));
    expect(comp.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid')).sort()).toEqual(['America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Europe/Paris']);
    expect(comp.getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('summary'))).toContain(SAMPLES[2]!.message);
  });
});
