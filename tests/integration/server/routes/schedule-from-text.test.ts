/**
 * GET /api/reminders/schedule-from-text: the wizard's "Or type when" box. The words are read as the
 * bot's /remind reads them (server/reminders/schedule-text/), in the account's zone and language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { wallClockToInstant, zonedParts } from '../../../../server/time/zoned.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const read = (api: { get: (path: string, headers?: Record<string, string>) => Promise<{ status: number; body: any }> }, text: string, headers?: Record<string, string>) =>
  api.get(`/api/reminders/schedule-from-text?${new URLSearchParams({ text })}`, headers);

describe('GET /api/reminders/schedule-from-text', () => {
  it('reads a repetition in the account zone: the anchor, the rule and its first occurrence', async () => {
    const user = await signUp(server.url, { timezone: 'Europe/Paris' });
    const res = await read(user.api, 'every monday at 9');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ time: '09:00', recurrence: 'WEEKLY', rrule: null, timezone: 'Europe/Paris', recurrence_text: expect.stringMatching(/Monday/) });
    // The anchor is a Monday, and the first occurrence is 09:00 Paris on it, in the future.
    const first = Date.parse(res.body.first_occurrence_utc);
    expect(first).toBeGreaterThan(Date.now());
    expect(zonedParts(first, 'Europe/Paris')).toMatchObject({ hour: 9, minute: 0 });
    expect(new Date(`${res.body.date}T12:00:00Z`).getUTCDay()).toBe(1);
    const [y, m, d] = (res.body.date as string).split('-').map(Number);
    expect(wallClockToInstant({ year: y!, month: m!, day: d!, hour: 9, minute: 0, second: 0 }, 'Europe/Paris')).toBe(first);
  });

  it('reads a custom rule and a one-off, and words the repetition in the caller\'s language', async () => {
    const user = await signUp(server.url, { timezone: 'America/New_York' });
    const custom = await read(user.api, 'the last friday of every month at 17:00', { 'accept-language': 'fr' });
    expect(custom.body).toMatchObject({ recurrence: 'CUSTOM', rrule: expect.stringContaining('BYDAY=-1FR'), time: '17:00' });
    expect(custom.body.recurrence_text).toMatch(/vendredi/);
    const once = await read(user.api, 'tomorrow at 18:30');
    expect(once.body).toMatchObject({ recurrence: 'ONCE', rrule: null, time: '18:30' });
    expect(zonedParts(Date.parse(once.body.first_occurrence_utc), 'America/New_York')).toMatchObject({ hour: 18, minute: 30 });
  });

  it('says why words cannot be read: 400 with a code, and validates the text', async () => {
    const user = await signUp(server.url);
    const unreadable = await read(user.api, 'whenever you like');
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.code).toBe('SCHEDULE_UNREADABLE');
    const repeat = await read(user.api, 'every blue moon at 9');
    expect(repeat.status).toBe(400);
    expect(repeat.body.code).toBe('SCHEDULE_REPEAT_UNREADABLE');
    expect((await read(user.api, 'x'.repeat(201))).body.code).toBe('VALIDATION_FAILED');
    expect((await user.api.get('/api/reminders/schedule-from-text')).status).toBe(400);
  });

  it('needs a session', async () => {
    expect((await read(client(server.url), 'tomorrow at 9')).status).toBe(401);
  });
});
