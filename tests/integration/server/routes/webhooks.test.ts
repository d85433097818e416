import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { seedReminder, startWebhookSink, verifyStandardWebhook, type WebhookSink } from '../../../helpers/webhook-sink.ts';

let server: TestServer;
let sink: WebhookSink;

beforeAll(async () => {
  sink = await startWebhookSink();
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

describe('POST /api/webhooks/test', () => {
  it('sends a webhook.test payload and answers { ok, http_status }', async () => {
    const user = await signUp(server.url);
    const res = await user.api.post('/api/webhooks/test', { url: `${sink.url}/t`, platform: 'generic' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, http_status: 200, secret: expect.stringMatching(/^whsec_/) });
    const req = sink.requests.at(-1)!;
    expect(req.path).toBe('/t');
    expect(req.json).toMatchObject({ type: 'webhook.test' });
    expect(req.json.id).toMatch(/^msg_/);
  });

  it('signs an unsaved webhook\'s test with the secret it answers, which the next test and the save keep', async () => {
    const user = await signUp(server.url);
    const first = await user.api.post('/api/webhooks/test', { url: `${sink.url}/signed`, platform: 'generic' });
    const secret = first.body.secret as string;
    expect(verifyStandardWebhook(secret, sink.requests.at(-1)!.headers, sink.requests.at(-1)!.body)).toBe(true);

    const again = await user.api.post('/api/webhooks/test', { url: `${sink.url}/signed`, platform: 'generic', secret });
    expect(again.body).toMatchObject({ ok: true, secret });
    expect(verifyStandardWebhook(secret, sink.requests.at(-1)!.headers, sink.requests.at(-1)!.body)).toBe(true);

    // Saved with it: answered once by the save (as an issued secret is), and the saved test is signed with it.
    const created = await user.api.post('/api/reminders', {
      date: '2031-01-01',
      time: '09:00',
      message: 'signed alike',
      recurrence: 'ONCE',
      destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/signed`, platform: 'generic', secret } }],
    });
    expect(created.status).toBe(201);
    const saved = created.body.destinations[0];
    expect(saved.secret).toBe(secret);
    expect(saved.metadata.secret).toBeUndefined();
    expect((await user.api.get(`/api/reminders/${created.body.id}`)).body.destinations[0].secret).toBeUndefined();
    const test = await user.api.post(`/api/reminders/${created.body.id}/destinations/${saved.id}/test`, {});
    expect(test.body.ok).toBe(true);
    expect(verifyStandardWebhook(secret, sink.requests.at(-1)!.headers, sink.requests.at(-1)!.body)).toBe(true);
  });

  it('refuses a secret Chime could not have issued, on a test and on a save (400 WEBHOOK_SECRET_INVALID)', async () => {
    const user = await signUp(server.url);
    const before = sink.requests.length;
    for (const secret of ['whsec_c2hvcnQ=', 'hunter2', `whsec_${'A'.repeat(43)}!`, `whsec_${Buffer.alloc(66).toString('base64')}`]) {
      const test = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'generic', secret });
      expect(test.status).toBe(400);
      expect(test.body.code).toBe('WEBHOOK_SECRET_INVALID');
      const save = await user.api.post('/api/reminders', {
        date: '2031-01-01',
        time: '09:00',
        message: 'bad secret',
        recurrence: 'ONCE',
        destinations: [{ type: 'webhook', metadata: { url: sink.url, platform: 'generic', secret } }],
      });
      expect(save.status).toBe(400);
      expect(save.body.code).toBe('WEBHOOK_SECRET_INVALID');
    }
    expect(sink.requests.length).toBe(before);
    expect((await user.api.get('/api/reminders')).body).toEqual([]);
  });

  it('a failing target is data, not an error: 200 { ok: false, http_status, error, code }', async () => {
    const user = await signUp(server.url);
    sink.reply({ status: 500 });
    try {
      const res = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'slack', username: 'Chime' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: false, http_status: 500, error: 'HTTP 500 from 127.0.0.1', code: 'WEBHOOK_HTTP_5XX', secret: expect.stringMatching(/^whsec_/) });
      expect(sink.requests.at(-1)!.json).toMatchObject({ username: 'Chime' });
      expect(typeof sink.requests.at(-1)!.json.text).toBe('string');
    } finally {
      sink.reply({ status: 200 });
    }
  });

  it('validates the URL and the body', async () => {
    const user = await signUp(server.url);
    const bad = await user.api.post('/api/webhooks/test', { url: 'ftp://example.com/x', platform: 'generic' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('WEBHOOK_URL_INVALID');
    const platform = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'teams' });
    expect(platform.status).toBe(400);
    expect(platform.body.code).toBe('VALIDATION_FAILED');
  });

  it('refuses private targets when they are not allowed', async () => {
    const strict = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      const user = await signUp(strict.url);
      const res = await user.api.post('/api/webhooks/test', { url: `http://127.0.0.1:${sink.port}/`, platform: 'generic' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('WEBHOOK_TARGET_FORBIDDEN');
    } finally {
      await strict.close();
    }
  });

  it('requires authentication', async () => {
    const res = await client(server.url).post('/api/webhooks/test', { url: sink.url, platform: 'generic' });
    expect(res.status).toBe(401);
  });

  it('is rate limited per account (10 a minute)', async () => {
    const user = await signUp(server.url);
    const other = await signUp(server.url);
    for (let i = 0; i < 10; i++) expect((await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'generic' })).status).toBe(200);
    const limited = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'generic' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect((await other.api.post('/api/webhooks/test', { url: sink.url, platform: 'generic' })).status).toBe(200);
  });
});

describe('destination test and secret rotation', () => {
  it('tests a saved destination with its signing secret', async () => {
    const user = await signUp(server.url);
    const { id, destinations } = await seedReminder(server.app.db, { accountId: user.id, at: Date.now() + 86_400_000, message: 'Pay rent', destinations: [{ url: `${sink.url}/saved` }] });
    const res = await user.api.post(`/api/reminders/${id}/destinations/${destinations[0]!.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, http_status: 200 });
    const req = sink.requests.at(-1)!;
    expect(req.path).toBe('/saved');
    expect(req.json).toMatchObject({ type: 'webhook.test' });
    expect(req.json.message).toContain('Pay rent');
    expect(verifyStandardWebhook(destinations[0]!.secret!, req.headers, req.body)).toBe(true);
  });

  it('a successful test re-enables a disabled destination', async () => {
    const user = await signUp(server.url);
    const { id, destinations } = await seedReminder(server.app.db, { accountId: user.id, at: Date.now() + 86_400_000, destinations: [{ url: sink.url }] });
    await server.app.db.updateTable('destinations').set({ disabled_at: new Date().toISOString(), disabled_reason: 'HTTP 410' }).where('id', '=', destinations[0]!.id).execute();
    expect((await user.api.post(`/api/reminders/${id}/destinations/${destinations[0]!.id}/test`)).body.ok).toBe(true);
    const dest = await server.app.db.selectFrom('destinations').selectAll().where('id', '=', destinations[0]!.id).executeTakeFirstOrThrow();
    expect(dest.disabled_at).toBeNull();
  });

  it('rotates the secret: the next delivery is signed with the new one', async () => {
    const user = await signUp(server.url);
    const { id, destinations } = await seedReminder(server.app.db, { accountId: user.id, at: Date.now() + 86_400_000, destinations: [{ url: sink.url }] });
    const res = await user.api.post(`/api/reminders/${id}/destinations/${destinations[0]!.id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.secret).not.toBe(destinations[0]!.secret);
    await user.api.post(`/api/reminders/${id}/destinations/${destinations[0]!.id}/test`);
    const req = sink.requests.at(-1)!;
    expect(verifyStandardWebhook(res.body.secret, req.headers, req.body)).toBe(true);
    expect(verifyStandardWebhook(destinations[0]!.secret!, req.headers, req.body)).toBe(false);
  });

  it("another account's reminder is 404 REMINDER_NOT_FOUND; an unknown destination is 404", async () => {
    const owner = await signUp(server.url);
    const intruder = await signUp(server.url);
    const { id, destinations } = await seedReminder(server.app.db, { accountId: owner.id, at: Date.now() + 86_400_000, destinations: [{ url: sink.url }] });
    for (const action of ['test', 'rotate-secret']) {
      const res = await intruder.api.post(`/api/reminders/${id}/destinations/${destinations[0]!.id}/${action}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('REMINDER_NOT_FOUND');
    }
    const missing = await owner.api.post(`/api/reminders/${id}/destinations/nope/test`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('DESTINATION_NOT_FOUND');
  });

  it('rotate-secret on a non-webhook destination is 400', async () => {
    const user = await signUp(server.url);
    const { id, destinations } = await seedReminder(server.app.db, { accountId: user.id, at: Date.now() + 86_400_000, destinations: [{ type: 'discord_dm' }] });
    const res = await user.api.post(`/api/reminders/${id}/destinations/${destinations[0]!.id}/rotate-secret`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_DESTINATION');
  });
});
