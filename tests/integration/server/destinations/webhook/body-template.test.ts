import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { startWebhookSink, verifyStandardWebhook, type WebhookSink } from '../../../../helpers/webhook-sink.ts';
import { dueReminder, settled, tomorrow } from '../push-test-kit.ts';

let server: TestServer;
let sink: WebhookSink;
let user: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  sink = await startWebhookSink();
  server = await startTestServer();
  user = await signUp(server.url);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

describe('webhook body templates and extra headers', () => {
  it('sends the filled-in JSON template with the extra headers, still signed', async () => {
    const template = '{"content": "{{message}}", "link": "{{reminder_url}}", "when": "{{occurrence_at}}", "late": {{late}}}';
    const r = await dueReminder(server, user, 'webhook', { url: sink.url, platform: 'generic', body_template: template, headers: { Authorization: 'Bot abc', 'X-Title': 'Chime' } }, 'Say "hi"\nnow');
    await sink.waitFor(1);
    expect((await settled(server, r.id)).status).toBe('delivered');
    const req = sink.requests.at(-1)!;
    expect(req.json).toEqual({ content: 'Say "hi"\nnow', link: `${server.config.publicUrl.replace(/\/$/, '')}/reminders/${r.id}`, when: expect.any(String), late: false });
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe('Bot abc');
    expect(req.headers['x-title']).toBe('Chime');
    const row = await server.app.db.selectFrom('destinations').select('secret').where('reminder_id', '=', r.id).executeTakeFirstOrThrow();
    expect(verifyStandardWebhook(row.secret!, req.headers, req.body)).toBe(true);
  });

  it('sends a text template as text/plain', async () => {
    const before = sink.requests.length;
    const r = await dueReminder(server, user, 'webhook', { url: sink.url, body_template: 'Reminder: {{message}}', body_format: 'text' }, 'Water the plants');
    await sink.waitFor(before + 1);
    await settled(server, r.id);
    const req = sink.requests.at(-1)!;
    expect(req.body).toBe('Reminder: Water the plants');
    expect(req.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('refuses a template or headers that cannot work when saved, with the reason', async () => {
    const check = (metadata: Record<string, unknown>) => user.api.post('/api/destinations/check', { type: 'webhook', metadata: { url: sink.url, ...metadata } });
    expect((await check({ body_template: '{"a": "{{mesage}}"}' })).body).toMatchObject({ ok: false, code: 'WEBHOOK_TEMPLATE_INVALID', params: { name: 'mesage' } });
    expect((await check({ body_template: '{"a": {{message}}}' })).body).toMatchObject({ ok: false, code: 'WEBHOOK_TEMPLATE_INVALID' });
    expect((await check({ headers: { Host: 'evil' } })).body).toMatchObject({ ok: false, code: 'WEBHOOK_HEADER_INVALID' });
    expect((await check({ platform: 'discord', body_template: '{}' })).body).toMatchObject({ ok: false, code: 'INVALID_DESTINATION' });
    const create = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message: 'x', destinations: [{ type: 'webhook', metadata: { url: sink.url, headers: { 'X-A': 'a\r\nX-B: b' } } }] });
    expect(create.status).toBe(400);
    expect(create.body.code).toBe('WEBHOOK_HEADER_INVALID');
  });

  it('a webhook not saved yet is tested with its template and headers, as it will be delivered, and refused like a save', async () => {
    const before = sink.requests.length;
    const test = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'generic', body_template: '{"text": "{{message}}", "n": {{attempt}}}', headers: { Authorization: 'Bearer t' } });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    expect(test.body).toMatchObject({ ok: true, secret: expect.stringMatching(/^whsec_/) });
    const [req] = (await sink.waitFor(before + 1)).slice(before);
    expect(req!.json).toEqual({ text: 'This is a test message from Chime. If you can read it, your webhook works.', n: 1 });
    expect(req!.headers.authorization).toBe('Bearer t');
    expect(verifyStandardWebhook(test.body.secret, req!.headers, req!.body)).toBe(true);

    const text = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'generic', body_template: 'Now: {{message}}', body_format: 'text' });
    expect(text.body.ok).toBe(true);
    expect(sink.requests.at(-1)!.body).toBe('Now: This is a test message from Chime. If you can read it, your webhook works.');
    expect(sink.requests.at(-1)!.headers['content-type']).toBe('text/plain; charset=utf-8');

    const sent = sink.requests.length;
    const unknown = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'generic', body_template: '{"a": "{{mesage}}"}' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'WEBHOOK_TEMPLATE_INVALID', params: { name: 'mesage' } });
    const reserved = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'generic', headers: { 'Content-Type': 'text/html' } });
    expect(reserved.status).toBe(400);
    expect(reserved.body).toMatchObject({ code: 'WEBHOOK_HEADER_INVALID', params: { name: 'Content-Type' } });
    const slack = await user.api.post('/api/webhooks/test', { url: sink.url, platform: 'slack', body_template: '{}' });
    expect(slack.status).toBe(400);
    expect(slack.body.code).toBe('INVALID_DESTINATION');
    // Nothing was sent for a refused test.
    expect(sink.requests.length).toBe(sent);
  });
});
