import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../../server/db/connection.ts';
import { reminderListToken } from '../../../../server/reminders/service.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

// The list answer is cached per account until something of the account changes; these prove no
// change is missed, whichever connection makes it.
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

  it('reflects changes another connection makes to reminders and destinations (the delivery thread, another process)', async () => {
    const other: DatabaseHandle = createDatabase(server.config.databaseUrl);
    try {
      const user = await signUp(server.url);
      const hook = { type: 'webhook', metadata: { url: 'https://example.com/hook', platform: 'generic' } };
      const first = (await user.api.post('/api/reminders', { ...body, destinations: [hook] })).body;
      const second = (await user.api.post('/api/reminders', { ...body, message: 'second' })).body;
      const list = async () => (await user.api.get('/api/reminders')).body as { id: string; message: string; destinations: { id: string; disabled_reason: string | null }[] }[];
      const token = () => reminderListToken(server.app, user.id);
      expect(await list()).toHaveLength(2);

      let before = await token();
      const moved = async () => {
        const now = await token();
        const changed = now !== before;
        before = now;
        return changed;
      };
      await other.db.updateTable('destinations').set({ disabled_at: new Date().toISOString(), disabled_reason: 'failing' }).where('reminder_id', '=', first.id).execute();
      expect(await moved()).toBe(true);
      expect((await list()).find((r) => r.id === first.id)!.destinations[0]!.disabled_reason).toBe('failing');

      await other.db.deleteFrom('destinations').where('reminder_id', '=', first.id).execute();
      expect(await moved()).toBe(true);
      expect((await list()).find((r) => r.id === first.id)!.destinations).toEqual([]);

      await other.db.insertInto('destinations').values({ id: crypto.randomUUID(), reminder_id: second.id, type: 'webhook', metadata: JSON.stringify(hook.metadata), secret: 'whsec_x', position: 0, disabled_at: null, disabled_reason: null, created_at: new Date().toISOString() }).execute();
      expect(await moved()).toBe(true);
      expect((await list()).find((r) => r.id === second.id)!.destinations).toHaveLength(1);

      await other.db.updateTable('reminders').set({ message: 'changed by the delivery thread' }).where('id', '=', second.id).execute();
      expect(await moved()).toBe(true);
      expect((await list()).find((r) => r.id === second.id)!.message).toBe('changed by the delivery thread');

      await other.db.deleteFrom('reminders').where('id', '=', first.id).execute();
      expect(await moved()).toBe(true);
      expect((await list()).map((r) => r.id)).toEqual([second.id]);
    } finally {
      await other.db.destroy();
    }
  });

  it('keeps an account\'s cached list valid while other accounts write', async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    await a.api.post('/api/reminders', body);
    const before = await reminderListToken(server.app, a.id);
    const created = await b.api.post('/api/reminders', body);
    await b.api.post(`/api/reminders/${created.body.id}/pause`);
    await b.api.delete(`/api/reminders/${created.body.id}`);
    const after = await reminderListToken(server.app, a.id);
    // Per account on both: SQLite's list_version, PostgreSQL's change notices of the account.
    expect(after).toBe(before);
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
