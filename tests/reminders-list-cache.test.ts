import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from './helpers/server.ts';

// The list answer is cached per account until anything is written; these prove no write is missed.
describe('GET /api/reminders cache', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ overrides: { schedulerEnabled: false } });
  });
  afterAll(() => server.close());

  const body = { date: '2031-05-01', time: '09:00', message: 'cached?', recurrence: 'DAILY', destinations: [] };

  it('reflects writes made through the API', async () => {
    const user = await signUp(server.url);
    const created = await user.api.post('/api/reminders', body);
    expect((await user.api.get('/api/reminders')).body).toHaveLength(1);
    await user.api.post(`/api/reminders/${created.body.id}/pause`);
    const afterPause = await user.api.get('/api/reminders');
    expect(afterPause.body[0].is_paused).toBe(true);
    expect(afterPause.headers.get('content-type')).toContain('application/json');
  });

  it('reflects writes made behind the API (scheduler, bot) on the same database', async () => {
    const user = await signUp(server.url);
    const created = await user.api.post('/api/reminders', body);
    expect((await user.api.get('/api/reminders')).body[0].message).toBe('cached?');
    await server.app.db.updateTable('reminders').set({ message: 'changed underneath' }).where('id', '=', created.body.id).execute();
    expect((await user.api.get('/api/reminders')).body[0].message).toBe('changed underneath');
  });

  it('never serves one account the list of another', async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    await a.api.post('/api/reminders', { ...body, message: 'only for a' });
    expect((await a.api.get('/api/reminders')).body).toHaveLength(1);
    expect((await b.api.get('/api/reminders')).body).toEqual([]);
  });
});

describe('API answers are not cacheable by browsers or proxies', () => {
  it('sends Cache-Control: no-store on authenticated answers', async () => {
    const server = await startTestServer();
    try {
      const user = await signUp(server.url);
      expect((await user.api.get('/api/reminders')).headers.get('cache-control')).toBe('no-store');
      expect((await user.api.get('/api/account')).headers.get('cache-control')).toBe('no-store');
    } finally {
      await server.close();
    }
  });
});
