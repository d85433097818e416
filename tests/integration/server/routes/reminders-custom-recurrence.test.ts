/**
 * Custom repetition rules, skipped occurrences and recurrence_text through the real API (real
 * HTTP on 127.0.0.1, a real SQLite file): the contract of docs/time.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

type User = Awaited<ReturnType<typeof signUp>>;

describe('custom repetition API', () => {
  let server: TestServer;
  let paris: User;
  let other: User;

  beforeAll(async () => {
    server = await startTestServer();
    paris = await signUp(server.url, { timezone: 'Europe/Paris' });
    other = await signUp(server.url, { timezone: 'UTC' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = (body: Record<string, unknown>, user: User = paris) =>
    user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'Stand-up', recurrence: 'CUSTOM', ...body });

  describe('create and read', () => {
    it('stores the rule in canonical form and derives the schedule from it in the zone', async () => {
      // 2030-07-01 is a Monday. Every 2 weeks on Monday and Wednesday, 09:00 Paris (UTC+2 in summer).
      const res = await create({ rrule: 'freq=weekly;byday=we,mo;interval=2' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        recurrence_type: 'CUSTOM',
        rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE',
        exceptions: [],
        date: '2030-07-01',
        time: '09:00',
        first_occurrence_utc: '2030-07-01T07:00:00.000Z',
        next_fire_utc: '2030-07-01T07:00:00.000Z',
        status: 'active',
      });
      expect(res.body.recurrence_text).toEqual(expect.any(String));
      expect(res.body.recurrence_text.length).toBeGreaterThan(5);
      const occ = await paris.api.get(`/api/reminders/${res.body.id}/occurrences?count=5`);
      expect(occ.body.occurrences).toEqual([
        '2030-07-01T07:00:00.000Z',
        '2030-07-03T07:00:00.000Z',
        '2030-07-15T07:00:00.000Z',
        '2030-07-17T07:00:00.000Z',
        '2030-07-29T07:00:00.000Z',
      ]);
      // Read back as stored.
      const read = await paris.api.get(`/api/reminders/${res.body.id}`);
      expect(read.body.rrule).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE');
    });

    it('keeps the wall-clock time across DST and fires a monthly ordinal rule on the right days', async () => {
      // First Sunday of each month at 02:30 Paris: 2030-03-03, then 2030-04-07 (after the March 31 change).
      const res = await create({ date: '2030-03-03', time: '02:30', rrule: 'FREQ=MONTHLY;BYDAY=1SU;COUNT=3' });
      expect(res.status).toBe(201);
      const occ = await paris.api.get(`/api/reminders/${res.body.id}/occurrences?count=5`);
      expect(occ.body.occurrences).toEqual(['2030-03-03T01:30:00.000Z', '2030-04-07T00:30:00.000Z', '2030-05-05T00:30:00.000Z']);
    });

    it('an RRULE: prefix is tolerated', async () => {
      const res = await create({ rrule: 'RRULE:FREQ=DAILY;COUNT=2' });
      expect(res.status).toBe(201);
      expect(res.body.rrule).toBe('FREQ=DAILY;COUNT=2');
    });

    it('answers recurrence_text in the language of Accept-Language', async () => {
      const res = await create({ rrule: 'FREQ=DAILY' });
      const texts = await Promise.all(
        ['en', 'fr-FR,fr;q=0.9', 'es', 'de, es;q=0.5'].map(async (lang) => (await paris.api.get(`/api/reminders/${res.body.id}`, { 'accept-language': lang })).body.recurrence_text as string),
      );
      expect(new Set(texts.slice(0, 3)).size).toBe(3);
      // German is not offered: the next preferred language wins.
      expect(texts[3]).toBe(texts[2]);
      // The list (cached per account) follows the header too.
      const listFr = await paris.api.get('/api/reminders', { 'accept-language': 'fr' });
      const listEn = await paris.api.get('/api/reminders', { 'accept-language': 'en' });
      expect(listFr.body.find((r: { id: string }) => r.id === res.body.id).recurrence_text).toBe(texts[1]);
      expect(listEn.body.find((r: { id: string }) => r.id === res.body.id).recurrence_text).toBe(texts[0]);
    });

    it('presets answer rrule null and a summary', async () => {
      const res = await paris.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'Daily', recurrence: 'DAILY' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ recurrence_type: 'DAILY', rrule: null, exceptions: [] });
      expect(res.body.recurrence_text).not.toBe('');
    });
  });

  describe('refusals', () => {
    it.each([
      ['FREQ=DAILY;BYHOUR=9', 'BYHOUR'],
      ['FREQ=MINUTELY;INTERVAL=1', 'INTERVAL'],
      ['FREQ=SECONDLY', 'FREQ'],
      ['FREQ=WEEKLY;BYDAY=1MO', 'BYDAY'],
      ['FREQ=DAILY;COUNT=3;UNTIL=20310101T000000Z', 'UNTIL'],
      ['FREQ=DAILY;UNTIL=20300101T000000Z', 'UNTIL'],
      ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 'BYMONTHDAY'],
      ['FREQ=MONTHLY;BYMONTHDAY=1;BYSETPOS=2', 'BYSETPOS'],
      ['BYDAY=MO', 'FREQ'],
    ])('%s is a 400 RRULE_INVALID naming %s', async (rrule, part) => {
      const res = await create({ rrule });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('RRULE_INVALID');
      expect(res.body.part).toBe(part);
      expect(res.body.error).toContain(part);
    });

    it('a COUNT that would take seconds to count is refused at once, naming COUNT; the same rule with UNTIL, or a small COUNT, is fine', async () => {
      // Counted step by step, this one held the API's thread for 8 s.
      for (const rrule of ['FREQ=HOURLY;INTERVAL=25;BYDAY=MO;COUNT=100000', 'FREQ=MINUTELY;INTERVAL=100000;BYMONTH=2;COUNT=100000', 'FREQ=MINUTELY;INTERVAL=7;BYMONTH=2;COUNT=100000']) {
        const started = performance.now();
        const res = await create({ rrule });
        expect(performance.now() - started, rrule).toBeLessThan(1000);
        expect(res.status, rrule).toBe(400);
        expect(res.body, rrule).toMatchObject({ code: 'RRULE_INVALID', part: 'COUNT' });
        expect(res.body.error).toContain('UNTIL');
        const preview = await paris.api.get(`/api/reminders/preview?date=2030-07-01&time=09:00&recurrence=CUSTOM&rrule=${encodeURIComponent(rrule)}`);
        expect(preview.body, rrule).toMatchObject({ code: 'RRULE_INVALID', part: 'COUNT' });
      }
      for (const rrule of ['FREQ=HOURLY;INTERVAL=25;BYDAY=MO;UNTIL=20400101T000000Z', 'FREQ=HOURLY;INTERVAL=25;BYDAY=MO;COUNT=500', 'FREQ=MINUTELY;INTERVAL=15;BYDAY=MO,TU,WE,TH,FR;COUNT=20000', 'FREQ=HOURLY;INTERVAL=100000;COUNT=100000']) {
        const res = await create({ rrule });
        expect(res.status, `${rrule}: ${JSON.stringify(res.body)}`).toBe(201);
      }
    });

    it('CUSTOM without a rule, a rule with a preset, a non-string rule', async () => {
      for (const body of [{ rrule: undefined }, { rrule: '' }, { recurrence: 'DAILY', rrule: 'FREQ=DAILY' }]) {
        const res = await create(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('RRULE_INVALID');
      }
      const res = await create({ rrule: 42 });
      expect(res.status).toBe(400);
      expect(res.body.code).toBeDefined();
    });

    it('a series whose occurrences are all past is REMINDER_IN_PAST', async () => {
      const res = await create({ date: '2020-01-01', rrule: 'FREQ=DAILY;COUNT=3' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('REMINDER_IN_PAST');
    });

    it('a series started in the past fires from its next occurrence', async () => {
      const res = await create({ date: '2020-01-06', rrule: 'FREQ=WEEKLY;BYDAY=MO' });
      expect(res.status).toBe(201);
      const next = Date.parse(res.body.next_fire_utc);
      expect(next).toBeGreaterThan(Date.now() - 60_000);
      expect(new Date(next).getUTCDay()).toBe(1);
    });
  });

  describe('preview', () => {
    it('accepts recurrence=CUSTOM&rrule= like create, with the summary', async () => {
      const q = new URLSearchParams({ date: '2030-01-31', time: '08:00', timezone: 'America/New_York', recurrence: 'CUSTOM', rrule: 'FREQ=MONTHLY;BYMONTHDAY=-1', count: '4' });
      const res = await paris.api.get(`/api/reminders/preview?${q}`);
      expect(res.status).toBe(200);
      expect(res.body.occurrences).toEqual(['2030-01-31T13:00:00.000Z', '2030-02-28T13:00:00.000Z', '2030-03-31T12:00:00.000Z', '2030-04-30T12:00:00.000Z']);
      expect(res.body.recurrence_text).toEqual(expect.any(String));
      const bad = await paris.api.get(`/api/reminders/preview?${new URLSearchParams({ date: '2030-01-31', time: '08:00', recurrence: 'CUSTOM', rrule: 'FREQ=DAILY;BYWEEKNO=3' })}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'RRULE_INVALID', part: 'BYWEEKNO' });
    });
  });

  describe('skip and restore', () => {
    it('skipping the pending occurrence moves next_fire_utc on; restoring brings it back', async () => {
      const created = await create({ date: '2030-07-01', rrule: 'FREQ=DAILY;COUNT=4' });
      const id = created.body.id as string;
      const skip = await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: '2030-07-01T07:00:00.000Z' });
      expect(skip.status).toBe(200);
      expect(skip.body).toMatchObject({ exceptions: ['2030-07-01T07:00:00.000Z'], next_fire_utc: '2030-07-02T07:00:00.000Z', status: 'active' });
      // Skipping it again changes nothing.
      const again = await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: '2030-07-01T07:00:00.000Z' });
      expect(again.body.exceptions).toEqual(['2030-07-01T07:00:00.000Z']);
      // Not listed any more; COUNT still counts it (RFC 5545 EXDATE): 3 are left.
      const occ = await paris.api.get(`/api/reminders/${id}/occurrences?count=10`);
      expect(occ.body.occurrences).toEqual(['2030-07-02T07:00:00.000Z', '2030-07-03T07:00:00.000Z', '2030-07-04T07:00:00.000Z']);
      const range = await paris.api.get(`/api/reminders/${id}/occurrences?from=2030-06-30T00:00:00Z&to=2030-07-10T00:00:00Z`);
      expect(range.body.occurrences).toHaveLength(3);

      const restored = await paris.api.delete(`/api/reminders/${id}/skip/${encodeURIComponent('2030-07-01T07:00:00.000Z')}`);
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ exceptions: [], next_fire_utc: '2030-07-01T07:00:00.000Z' });
    });

    it('skipping every occurrence left completes the series; restoring one revives it', async () => {
      const created = await create({ date: '2030-07-01', rrule: 'FREQ=DAILY;COUNT=2' });
      const id = created.body.id as string;
      await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: '2030-07-01T07:00:00.000Z' });
      const last = await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: '2030-07-02T07:00:00.000Z' });
      expect(last.body).toMatchObject({ status: 'completed', next_fire_utc: null });
      const back = await paris.api.delete(`/api/reminders/${id}/skip/2030-07-02T07:00:00.000Z`);
      expect(back.body).toMatchObject({ status: 'active', next_fire_utc: '2030-07-02T07:00:00.000Z' });
    });

    it('skipping a later occurrence leaves the pending one alone; presets can be skipped too', async () => {
      const created = await paris.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: 'Daily', recurrence: 'DAILY' });
      const id = created.body.id as string;
      const skip = await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: '2030-07-03T07:00:00.000Z' });
      expect(skip.body).toMatchObject({ next_fire_utc: '2030-07-01T07:00:00.000Z', exceptions: ['2030-07-03T07:00:00.000Z'] });
      const occ = await paris.api.get(`/api/reminders/${id}/occurrences?count=3`);
      expect(occ.body.occurrences).toEqual(['2030-07-01T07:00:00.000Z', '2030-07-02T07:00:00.000Z', '2030-07-04T07:00:00.000Z']);
    });

    it('refuses what is not an occurrence, a passed one and a bad instant; another account gets 404', async () => {
      const created = await create({ date: '2030-07-01', rrule: 'FREQ=WEEKLY;BYDAY=MO' });
      const id = created.body.id as string;
      const notOne = await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: '2030-07-02T07:00:00.000Z' });
      expect(notOne.status).toBe(400);
      expect(notOne.body.code).toBe('OCCURRENCE_INVALID');
      const bad = await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: 'next monday' });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      const foreign = await other.api.post(`/api/reminders/${id}/skip`, { occurrence: '2030-07-01T07:00:00.000Z' });
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('REMINDER_NOT_FOUND');
      const foreignRestore = await other.api.delete(`/api/reminders/${id}/skip/2030-07-01T07:00:00.000Z`);
      expect(foreignRestore.status).toBe(404);

      const past = await create({ date: '2020-01-06', rrule: 'FREQ=WEEKLY;BYDAY=MO' });
      const passed = await paris.api.post(`/api/reminders/${past.body.id}/skip`, { occurrence: '2020-01-13T08:00:00.000Z' });
      expect(passed.status).toBe(400);
      expect(passed.body.code).toBe('OCCURRENCE_INVALID');
    });

    it('an edit that keeps the schedule keeps the skipped occurrences; one that changes it drops them', async () => {
      const created = await create({ date: '2030-07-01', rrule: 'FREQ=DAILY' });
      const id = created.body.id as string;
      await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: '2030-07-02T07:00:00.000Z' });
      const renamed = await paris.api.put(`/api/reminders/${id}`, { date: '2030-07-01', time: '09:00', message: 'Renamed', recurrence: 'CUSTOM', rrule: 'FREQ=DAILY' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ message: 'Renamed', rrule: 'FREQ=DAILY', exceptions: ['2030-07-02T07:00:00.000Z'] });
      const moved = await paris.api.put(`/api/reminders/${id}`, { date: '2030-07-01', time: '10:00', message: 'Renamed', recurrence: 'CUSTOM', rrule: 'FREQ=DAILY' });
      expect(moved.body.exceptions).toEqual([]);
      // Back to a preset: the rule goes.
      const preset = await paris.api.put(`/api/reminders/${id}`, { date: '2030-07-01', time: '10:00', message: 'Renamed', recurrence: 'WEEKLY' });
      expect(preset.body).toMatchObject({ recurrence_type: 'WEEKLY', rrule: null });
    });

    it('a skipped occurrence that has passed stays skipped (the calendar looks back), for 400 days', async () => {
      // UTC: a week is always 7 x 24 h, whatever the date of the run.
      const created = await create({ date: '2020-01-06', timezone: 'UTC', rrule: 'FREQ=WEEKLY;BYDAY=MO' });
      const id = created.body.id as string;
      const recent = Date.parse(created.body.next_fire_utc) - 7 * 86_400_000; // the last Monday before now
      const old = Date.UTC(2020, 0, 13, 9);
      await server.app.db.updateTable('reminders').set({ exceptions: JSON.stringify([new Date(old).toISOString(), new Date(recent).toISOString()]) }).where('id', '=', id).execute();
      const next = Date.parse(created.body.next_fire_utc) + 7 * 86_400_000;
      const skip = await paris.api.post(`/api/reminders/${id}/skip`, { occurrence: new Date(next).toISOString() });
      expect(skip.body.exceptions).toEqual([new Date(recent).toISOString(), new Date(next).toISOString()]);
      const range = await paris.api.get(`/api/reminders/${id}/occurrences?from=${new Date(recent - 86_400_000).toISOString()}&to=${new Date(recent + 86_400_000).toISOString()}`);
      expect(range.body.occurrences).toEqual([]);
    });

    it('duplicate copies the rule and the skipped occurrences', async () => {
      const created = await create({ date: '2030-07-01', rrule: 'FREQ=DAILY;INTERVAL=3' });
      await paris.api.post(`/api/reminders/${created.body.id}/skip`, { occurrence: '2030-07-04T07:00:00.000Z' });
      const copy = await paris.api.post(`/api/reminders/${created.body.id}/duplicate`);
      expect(copy.status).toBe(201);
      expect(copy.body).toMatchObject({ rrule: 'FREQ=DAILY;INTERVAL=3', exceptions: ['2030-07-04T07:00:00.000Z'] });
    });
  });
});
