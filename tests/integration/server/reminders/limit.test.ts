import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REMINDERS_PER_ACCOUNT } from '../../../../server/reminders/input.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

describe('reminders per account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ overrides: { schedulerEnabled: false } });
  });
  afterAll(() => server.close());

  it(`refuses the ${MAX_REMINDERS_PER_ACCOUNT + 1}th reminder with a clear error, on create and duplicate`, async () => {
    const user = await signUp(server.url);
    const now = new Date().toISOString();
    const far = '2035-01-01T09:00:00.000Z';
    const rows = Array.from({ length: MAX_REMINDERS_PER_ACCOUNT - 1 }, (_, i) => ({
      id: randomUUID(),
      account_id: user.id,
      message: `filler ${i}`,
      local_date: '2035-01-01',
      local_time: '09:00',
      remind_at_utc: far,
      timezone: 'UTC',
      recurrence_type: 'ONCE' as const,
      is_paused: 0,
      snoozed_at_utc: null,
      next_fire_utc: far,
      next_occurrence_utc: far,
      last_fired_at: null,
      completed_at: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await server.app.db.insertInto('reminders').values(rows.slice(i, i + 500)).execute();

    const body = { date: '2035-02-01', time: '09:00', message: 'the last one', recurrence: 'ONCE', destinations: [] };
    const last = await user.api.post('/api/reminders', body);
    expect(last.status).toBe(201);
    const over = await user.api.post('/api/reminders', body);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ code: 'REMINDER_LIMIT', error: 'An account can hold at most 10,000 reminders. Delete some first.' });
    expect((await user.api.post(`/api/reminders/${last.body.id}/duplicate`)).body.code).toBe('REMINDER_LIMIT');

    // Another account is not affected.
    const other = await signUp(server.url);
    expect((await other.api.post('/api/reminders', body)).status).toBe(201);
  });
});
