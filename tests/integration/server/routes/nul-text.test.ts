/**
 * A NUL character (U+0000) in a request is refused with 400 VALIDATION_FAILED naming the field, on
 * SQLite and on PostgreSQL alike: PostgreSQL cannot store it, and answered 500 before (the fuzzer
 * found it at sign-in). Runs on both databases (vitest project `postgres`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

describe('NUL characters in requests', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ overrides: { schedulerEnabled: false } });
  });
  afterAll(() => server?.close());

  it('refuses them at sign-in and sign-up, before any lookup', async () => {
    const anon = client(server.url);
    const login = await anon.post('/api/auth/login', { email: '\u0000', password: 'whatever-it-is', remember_me: true });
    expect(login.status).toBe(400);
    expect(login.body).toEqual({ error: 'body.email contains the NUL character (U+0000), which cannot be stored', code: 'VALIDATION_FAILED' });
    const register = await anon.post('/api/auth/register', { email: 'nul@example.com', username: 'a\u0000b', password: 'correct horse battery' });
    expect(register.status).toBe(400);
    expect(register.body.code).toBe('VALIDATION_FAILED');
    expect(register.body.error).toContain('body.username');
    // Nothing was created: the same email signs up cleanly afterwards.
    expect((await anon.post('/api/auth/register', { email: 'nul@example.com', username: 'ab', password: 'correct horse battery' })).status).toBe(201);
  });

  it('refuses them anywhere in a reminder, nested fields and query strings included, and stores nothing', async () => {
    const user = await signUp(server.url);
    const base = { date: '2031-05-01', time: '09:00', message: 'fine', recurrence: 'ONCE', destinations: [] as unknown[] };
    const message = await user.api.post('/api/reminders', { ...base, message: 'call\u0000mum' });
    expect(message.status).toBe(400);
    expect(message.body.error).toContain('body.message');
    const nested = await user.api.post('/api/reminders', { ...base, destinations: [{ type: 'webhook', metadata: { url: 'https://example.com/\u0000', platform: 'generic' } }] });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toContain('body.destinations.0.metadata.url');
    const query = await user.api.get('/api/reminders/preview?date=2031-05-01&time=09:00&recurrence=ONCE%00');
    expect(query.status).toBe(400);
    expect(query.body.error).toContain('querystring.recurrence');
    expect((await user.api.get('/api/reminders')).body).toEqual([]);
    // Text without NUL, control characters around it included, is kept as typed.
    const ok = await user.api.post('/api/reminders', { ...base, message: 'tab\there' });
    expect(ok.status).toBe(201);
    expect(ok.body.message).toBe('tab\there');
  });
});
