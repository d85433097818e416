// Runs on SQLite only: the webhook address guard does not depend on the database (vitest.config.ts).
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup } from '../../../../server/net/ssrf-guard.ts';
import { createWebhookSender, type WebhookSender } from '../../../../server/destinations/webhook/sender.ts';
import { startTestServer } from '../../../helpers/server.ts';
import { seedAccount, seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

let sink: WebhookSink;
let guarded: WebhookSender;
let open: WebhookSender;

beforeAll(async () => {
  sink = await startWebhookSink();
  guarded = createWebhookSender({ allowPrivateTargets: false, timeoutMs: 2000 });
  open = createWebhookSender({ allowPrivateTargets: true, timeoutMs: 2000 });
});
afterAll(async () => {
  await guarded?.close();
  await open?.close();
  await sink?.close();
});

const forbidden = (ip: string) => `Webhook target resolves to a private network address (${ip}), which is not allowed`;

describe('SSRF guard at connect time', () => {
  it('refuses a host name that resolves to loopback (localhost)', async () => {
    const before = sink.requests.length;
    const result = await guarded.sendTest({ url: `http://localhost:${sink.port}/hook`, platform: 'generic' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^Webhook target resolves to a private network address \((127\.0\.0\.1|::1)\), which is not allowed$/);
    expect(sink.requests.length).toBe(before);
  });

  it.each([
    ['dotted', `http://127.0.0.1:PORT/`, '127.0.0.1'],
    ['decimal', `http://2130706433:PORT/`, '127.0.0.1'],
    ['hex', `http://0x7f000001:PORT/`, '127.0.0.1'],
    ['short', `http://127.1:PORT/`, '127.0.0.1'],
    ['IPv6-mapped', `http://[::ffff:127.0.0.1]:PORT/`, '::ffff:7f00:1'],
    ['IPv6 loopback', `http://[::1]:PORT/`, '::1'],
    ['unspecified', `http://0.0.0.0:PORT/`, '0.0.0.0'],
  ])('refuses an IP literal in %s form', async (_name, template, ip) => {
    const before = sink.requests.length;
    const result = await guarded.sendTest({ url: template.replace('PORT', String(sink.port)), platform: 'generic' });
    expect(result).toEqual({ ok: false, error: forbidden(ip) });
    expect(sink.requests.length).toBe(before);
  });

  it('refuses a name when ANY of its addresses is private (DNS rebinding style answer)', async () => {
    const fakeDns = (_host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) =>
      cb(null, [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ]);
    const sender = createWebhookSender({ allowPrivateTargets: false, timeoutMs: 1000, lookup: fakeDns });
    try {
      const result = await sender.sendTest({ url: 'http://hooks.example.test/x', platform: 'generic' });
      expect(result).toEqual({ ok: false, error: forbidden('10.0.0.7') });
    } finally {
      await sender.close();
    }
  });

  it('guardedLookup passes public answers through in both lookup shapes', async () => {
    const fakeDns = (_host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) =>
      cb(null, [{ address: '93.184.216.34', family: 4 }]);
    const lookup = guardedLookup(fakeDns);
    const all = await new Promise((resolve) => lookup('example.test', { all: true }, (err, addresses) => resolve({ err, addresses })));
    expect(all).toEqual({ err: null, addresses: [{ address: '93.184.216.34', family: 4 }] });
    const one = await new Promise((resolve) => lookup('example.test', {}, (err, address, family) => resolve({ err, address, family })));
    expect(one).toEqual({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('with private targets allowed, a sink on 127.0.0.1 and localhost receives', async () => {
    const before = sink.requests.length;
    expect(await open.sendTest({ url: `http://127.0.0.1:${sink.port}/ok`, platform: 'generic' })).toEqual({ ok: true, http_status: 200 });
    expect(await open.sendTest({ url: `http://localhost:${sink.port}/ok`, platform: 'generic' })).toEqual({ ok: true, http_status: 200 });
    expect(sink.requests.length).toBe(before + 2);
    expect(sink.requests.at(-1)!.json).toMatchObject({ type: 'webhook.test' });
  });

  it('the scheduler records a refused target as a failed delivery, not retried (flag off)', async () => {
    const server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      const accountId = await seedAccount(server.app.db);
      const { id } = await seedReminder(server.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: `http://localhost:${sink.port}/` }] });
      const before = sink.requests.length;
      await server.app.scheduler.runOnce();
      const [d] = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
      expect(d!.status).toBe('failed');
      expect(d!.last_error).toMatch(/^Webhook target resolves to a private network address/);
      expect(sink.requests.length).toBe(before);
    } finally {
      await server.close();
    }
  });

  it('the scheduler delivers to 127.0.0.1 with the flag on', async () => {
    const server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    try {
      const accountId = await seedAccount(server.app.db);
      const { id } = await seedReminder(server.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: `http://127.0.0.1:${sink.port}/` }] });
      await server.app.scheduler.runOnce();
      const [d] = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
      expect(d!.status).toBe('delivered');
    } finally {
      await server.close();
    }
  });
});
