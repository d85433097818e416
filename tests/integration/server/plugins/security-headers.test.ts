// Runs on SQLite only: the HTTP headers do not depend on the database (vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../../../server/app.ts';
import { loadConfig } from '../../../../server/config.ts';
import { client, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { type ChimeProcess, startChime } from '../../../helpers/chime-process.ts';


function cspDirectives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  // A public route, an authentication failure, an unknown route and a validation failure.
  const samples: Array<[string, string, RequestInit?]> = [
    ['GET /healthz', '/healthz'],
    ['GET /api/config', '/api/config'],
    ['401', '/api/account'],
    ['404', '/api/nope'],
    ['400', '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":1}' }],
  ];

  it.each(samples)('%s carries a strict Content-Security-Policy', async (_name, url, init) => {
    const res = await fetch(server.url + url, init);
    const csp = cspDirectives(res.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    const scriptSrc = csp.get('script-src') ?? csp.get('default-src')!;
    expect(scriptSrc).toEqual(["'self'"]);
    for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:']) expect(scriptSrc).not.toContain(unsafe);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.has('script-src-attr') ? csp.get('script-src-attr') : ["'none'"]).toEqual(["'none'"]);
  });

  it.each(samples)('%s carries the other hardening headers', async (_name, url, init) => {
    const res = await fetch(server.url + url, init);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toMatch(/^(DENY|SAMEORIGIN)$/);
    expect(res.headers.get('referrer-policy')).toMatch(/no-referrer|strict-origin|same-origin/);
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(res.headers.get('x-dns-prefetch-control')).toBe('off');
    expect(res.headers.get('x-powered-by')).toBeNull();
    // Served over http here: HSTS would be meaningless and is left out.
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8$/);
  });

  it('an https deployment adds HSTS and marks the session cookie Secure', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chime-https-'));
    const app = await buildApp({
      config: loadConfig({ PUBLIC_URL: 'https://chime.example.com', DATABASE_URL: path.join(dir, 'chime.db') }, { serveWeb: false, schedulerEnabled: false }),
      logger: false,
    });
    try {
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect(health.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
      const creds = { email: 'secure@example.com', password: 'longenough1' };
      const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...creds, username: 'Secure', timezone: 'UTC' } });
      expect(reg.statusCode).toBe(201);
      const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: creds });
      expect(login.statusCode).toBe(200);
      const cookie = String(login.headers['set-cookie']);
      expect(cookie).toMatch(/chime_session=/);
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The production logger (buildApp without a `logger` option, LOG_LEVEL=trace) runs in a child
 * process whose stdout is captured: pino writes straight to file descriptor 1.
 */
describe('logs never contain secrets', () => {
  let dir: string;
  let chime: ChimeProcess;
  let url = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'chime-logs-'));
    // As `npm start` runs it (the compiled server), web role only.
    chime = startChime(dir, { LOG_LEVEL: 'trace', CHIME_ROLES: 'web', DATABASE_URL: path.join(dir, 'chime.db'), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', PUBLIC_URL: 'http://127.0.0.1:1' });
    url = await chime.url();
  }, 90_000);

  afterAll(async () => {
    await chime?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passwords, tokens, webhook URLs and secrets stay out of the logs', async () => {
    const anon = client(url);
    const password = 'Pa55-logcheck-0xCAFE';
    const wrongPassword = 'Wrong-logcheck-0xBEEF';
    const newPassword = 'New-logcheck-0xF00D';
    const email = 'logcheck@example.com';

    expect((await anon.post('/api/auth/register', { email, username: 'Logger', password, timezone: 'UTC' })).status).toBe(201);
    // A failing registration carries the password too.
    expect((await anon.post('/api/auth/register', { email: 'not-an-email', username: 'x', password, timezone: 'UTC' })).status).toBe(400);
    expect((await anon.post('/api/auth/login', { email, password: wrongPassword })).status).toBe(401);
    const login = await anon.post('/api/auth/login', { email, password, remember_me: true });
    expect(login.status).toBe(200);
    const token: string = login.body.token;
    const api = client(url, token);

    expect((await api.get('/api/account')).status).toBe(200);
    expect((await client(url).get('/api/account', { cookie: `chime_session=${token}` })).status).toBe(200);
    expect((await client(url).put('/api/account/timezone', { timezone: 'UTC' }, { cookie: `chime_session=${token}` })).status).toBe(403);
    expect((await api.get(`/api/reminders?token=${token}&password=${password}`)).status).toBe(200);
    const hookPath = 'hook-path-secret-0xD00D';
    const created = await api.post('/api/reminders', {
      date: '2030-07-01',
      time: '09:00',
      message: 'log check',
      destinations: [{ type: 'webhook', metadata: { url: `https://hooks.example.com/${hookPath}` } }],
    });
    expect(created.status).toBe(201);
    const webhookSecret: string = created.body.destinations[0].secret;
    expect(webhookSecret).toMatch(/^whsec_/);
    expect((await api.post('/api/account/identity/app/change-password', { current_password: password, new_password: newPassword })).status).toBe(200);
    expect((await api.post('/api/auth/logout')).status).toBe(200);
    // Let pino flush.
    await new Promise((r) => setTimeout(r, 300));

    // The capture works: request logs are there.
    expect(chime.output()).toMatch(/request completed/);
    expect(chime.output()).toContain('/api/auth/login');
    for (const secret of [password, wrongPassword, newPassword, token, hookPath, webhookSecret, webhookSecret.slice(6)]) {
      expect(chime.output().includes(secret), `log contains ${secret.slice(0, 12)}...`).toBe(false);
    }
  });
});

describe('errors raised before a request reaches Fastify', () => {
  it('oversized headers get a 431 in the API error shape', async () => {
    const s = await startTestServer();
    try {
      const res = await fetch(`${s.url}/api/reminders`, { headers: { 'x-padding': 'a'.repeat(20_000) } });
      expect(res.status).toBe(431);
      expect(await res.json()).toEqual({ error: 'Request headers are too large', code: 'HEADERS_TOO_LARGE' });
    } finally {
      await s.close();
    }
  });
});
