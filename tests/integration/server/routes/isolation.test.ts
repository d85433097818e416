import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

type User = Awaited<ReturnType<typeof signUp>>;

const NOT_FOUND = { error: 'Reminder not found', code: 'REMINDER_NOT_FOUND' };
const VALID_BODY = {
  date: '2030-07-01',
  time: '09:00',
  message: 'hijacked',
  recurrence: 'DAILY',
  destinations: [{ type: 'webhook', metadata: { url: 'https://attacker.example.com/hook' } }],
};

describe('account isolation and authentication', () => {
  let server: TestServer;
  let alice: User;
  let mallory: User;
  let aliceReminder: { id: string; destinations: Array<{ id: string; secret?: string }> };

  beforeAll(async () => {
    server = await startTestServer();
    alice = await signUp(server.url);
    mallory = await signUp(server.url);
    const res = await alice.api.post('/api/reminders', {
      date: '2030-06-01',
      time: '08:00',
      message: "Alice's secret plan",
      recurrence: 'WEEKLY',
      destinations: [{ type: 'webhook', metadata: { url: 'https://alice.example.com/hook', platform: 'slack', username: 'Alice' } }],
    });
    expect(res.status).toBe(201);
    aliceReminder = res.body;
    await mallory.api.post('/api/reminders', { date: '2030-06-02', time: '08:00', message: "Mallory's own" });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Everything about Alice's data, through the API and straight from the database. */
  async function aliceSnapshot() {
    const db = server.app.db;
    return {
      one: (await alice.api.get(`/api/reminders/${aliceReminder.id}`)).body,
      list: (await alice.api.get('/api/reminders')).body,
      account: (await alice.api.get('/api/account')).body,
      reminderRows: await db.selectFrom('reminders').selectAll().where('account_id', '=', alice.id).execute(),
      destinationRows: await db.selectFrom('destinations').selectAll().where('reminder_id', '=', aliceReminder.id).execute(),
    };
  }

  async function malloryReminderCount() {
    return (await mallory.api.get('/api/reminders')).body.length as number;
  }

  describe("another account's reminder is always 404 REMINDER_NOT_FOUND and nothing changes", () => {
    const routes: Array<[string, (id: string) => Promise<{ status: number; body: unknown }>]> = [
      ['GET /api/reminders/:id', (id) => mallory.api.get(`/api/reminders/${id}`)],
      ['PUT /api/reminders/:id', (id) => mallory.api.put(`/api/reminders/${id}`, VALID_BODY)],
      ['DELETE /api/reminders/:id', (id) => mallory.api.delete(`/api/reminders/${id}`)],
      ['POST /api/reminders/:id/pause', (id) => mallory.api.post(`/api/reminders/${id}/pause`)],
      ['POST /api/reminders/:id/resume', (id) => mallory.api.post(`/api/reminders/${id}/resume`)],
      ['POST /api/reminders/:id/snooze (minutes)', (id) => mallory.api.post(`/api/reminders/${id}/snooze`, { minutes: 10 })],
      ['POST /api/reminders/:id/snooze (until)', (id) => mallory.api.post(`/api/reminders/${id}/snooze`, { until: '2030-01-01T00:00:00.000Z' })],
      ['POST /api/reminders/:id/duplicate', (id) => mallory.api.post(`/api/reminders/${id}/duplicate`)],
      ['GET /api/reminders/:id/occurrences', (id) => mallory.api.get(`/api/reminders/${id}/occurrences`)],
      ['GET /api/reminders/:id/occurrences (range)', (id) => mallory.api.get(`/api/reminders/${id}/occurrences?from=2030-06-01T00:00:00Z&to=2030-07-01T00:00:00Z`)],
    ];

    it.each(routes)('%s', async (_name, call) => {
      const before = await aliceSnapshot();
      const mallorysBefore = await malloryReminderCount();
      const res = await call(aliceReminder.id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(await aliceSnapshot()).toEqual(before);
      expect(await malloryReminderCount()).toBe(mallorysBefore);
      // Indistinguishable from an id that does not exist at all.
      const missing = await call(randomUUID());
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(res.body);
    });

    it("Alice's reminder is absent from Mallory's list and errors", async () => {
      const list = await mallory.api.get('/api/reminders');
      expect(list.body.map((r: { id: string }) => r.id)).not.toContain(aliceReminder.id);
      expect(JSON.stringify(list.body)).not.toContain("Alice's secret plan");
      expect((await mallory.api.get('/api/reminders/errors')).body).toEqual([]);
    });

    it("sending Alice's destination id in Mallory's own reminder does not take it over", async () => {
      const before = await aliceSnapshot();
      const own = await mallory.api.post('/api/reminders', { date: '2030-06-03', time: '08:00', message: 'mine' });
      const aliceDest = aliceReminder.destinations[0]!;
      const res = await mallory.api.put(`/api/reminders/${own.body.id}`, {
        date: '2030-06-03',
        time: '08:00',
        message: 'mine',
        destinations: [{ id: aliceDest.id, type: 'webhook', metadata: { url: 'https://attacker.example.com/steal' } }],
      });
      expect(res.status).toBe(200);
      const dest = res.body.destinations[0];
      expect(dest.id).not.toBe(aliceDest.id);
      expect(dest.secret).toMatch(/^whsec_/);
      expect(dest.secret).not.toBe(aliceDest.secret);
      expect(await aliceSnapshot()).toEqual(before);
    });

    it('the owner still has full access afterwards', async () => {
      expect((await alice.api.get(`/api/reminders/${aliceReminder.id}`)).body.message).toBe("Alice's secret plan");
      expect((await alice.api.post(`/api/reminders/${aliceReminder.id}/pause`)).body.is_paused).toBe(true);
      expect((await alice.api.post(`/api/reminders/${aliceReminder.id}/resume`)).body.is_paused).toBe(false);
    });
  });

  describe('every authenticated route answers 401 before looking at the request', () => {
    const routes: Array<[string, string]> = [
      ['GET', '/api/account'],
      ['GET', '/api/account/capabilities'],
      ['PUT', '/api/account/timezone'],
      ['PUT', '/api/account/identity/app/username'],
      ['PUT', '/api/account/identity/app/email'],
      ['POST', '/api/account/identity/app/change-password'],
      ['DELETE', '/api/account'],
      ['GET', '/api/reminders'],
      ['POST', '/api/reminders'],
      ['GET', '/api/reminders/errors'],
      ['GET', '/api/reminders/preview'],
      ['GET', '/api/reminders/:id'],
      ['PUT', '/api/reminders/:id'],
      ['DELETE', '/api/reminders/:id'],
      ['POST', '/api/reminders/:id/pause'],
      ['POST', '/api/reminders/:id/resume'],
      ['POST', '/api/reminders/:id/snooze'],
      ['POST', '/api/reminders/:id/duplicate'],
      ['GET', '/api/reminders/:id/occurrences'],
    ];
    const hasBody = (method: string) => method !== 'GET' && method !== 'DELETE';

    it.each(routes)('%s %s', async (method, template) => {
      const before = await aliceSnapshot();
      const url = server.url + template.replace(':id', aliceReminder.id);
      const variants: Array<{ name: string; headers: Record<string, string>; body?: string }> = [
        { name: 'no credentials, no body', headers: {} },
        { name: 'no credentials, empty JSON body', headers: { 'content-type': 'application/json' }, body: '' },
        { name: 'no credentials, invalid JSON', headers: { 'content-type': 'application/json' }, body: '{"oops' },
        { name: 'no credentials, wrong content type', headers: { 'content-type': 'text/plain' }, body: 'hello' },
        { name: 'no credentials, valid body', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_BODY) },
        { name: 'unknown bearer token', headers: { authorization: `Bearer ${'Z'.repeat(43)}` } },
        { name: 'malformed authorization', headers: { authorization: 'Bearer <script>' } },
        { name: 'unknown cookie', headers: { cookie: `chime_session=${'Z'.repeat(43)}` } },
      ];
      for (const v of variants) {
        if (v.body !== undefined && !hasBody(method)) continue;
        const res = await fetch(url, { method, headers: v.headers, body: v.body });
        expect(res.status, v.name).toBe(401);
        expect(await res.json(), v.name).toEqual({ error: 'You are not signed in or your session has expired', code: 'NOT_AUTHENTICATED' });
      }
      expect(await aliceSnapshot()).toEqual(before);
    });

    it('public routes stay public', async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/config`)).status).toBe(200);
    });
  });
});
