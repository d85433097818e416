import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import botPlugin from '../../bot/plugin.ts';
import { buildApp } from '../../server/app.ts';
import { type Config, DEFAULT_PASSKEY_OPTIONS_THROTTLE, loadConfig } from '../../server/config.ts';
import { DEFAULT_LOGIN_THROTTLE } from '../../server/accounts/login-throttle.ts';
import { sendRequest } from './http.ts';
import { releaseTestDatabase, testDatabaseUrl } from './test-database.ts';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  dir: string;
  config: Config;
  close(): Promise<void>;
}

/**
 * A real Chime server on 127.0.0.1 with its own SQLite file in a temp folder (or, under
 * CHIME_TEST_DB=postgres, its own PostgreSQL database: see test-database.ts).
 * `env` takes the same variables as production; `overrides` sets Config fields directly;
 * `databaseUrl` picks the database instead (a test that needs SQLite and PostgreSQL side by side).
 */
export async function startTestServer(
  options: { env?: Record<string, string>; overrides?: Partial<Config>; dir?: string; databaseUrl?: string } = {},
): Promise<TestServer> {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'chime-test-'));
  const config = loadConfig(
    { PORT: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...options.env, DATABASE_URL: options.databaseUrl ?? (await testDatabaseUrl(dir)) },
    // The loop on the test's own thread unless a test asks for the worker: tests swap senders and step it.
    // Every test signs in from 127.0.0.1: the network's failure budget (docs/security.md) is set
    // out of reach unless a test sets the throttle itself, so the wrong passwords of one test do
    // not slow the sign-ins of the next; so are the passkey sign-ins a network may start.
    {
      serveWeb: false,
      schedulerMode: 'inline',
      loginThrottle: { ...DEFAULT_LOGIN_THROTTLE, networkFreeFailures: 1_000_000 },
      passkeyOptionsThrottle: { ...DEFAULT_PASSKEY_OPTIONS_THROTTLE, limit: 1_000_000 },
      ...options.overrides,
    },
  );
  const app = await buildApp({ config, logger: false, botPlugin });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    dir,
    config,
    async close() {
      await app.close();
      if (!options.dir) {
        await releaseTestDatabase(dir);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Small JSON client over real HTTP. */
export function client(baseUrl: string, token?: string) {
  async function call<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const res = await sendRequest(baseUrl + url, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = res.text;
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  return {
    get: <T = any>(url: string, headers?: Record<string, string>) => call<T>('GET', url, undefined, headers),
    post: <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', url, body ?? {}, headers),
    put: <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => call<T>('PUT', url, body ?? {}, headers),
    delete: <T = any>(url: string, headers?: Record<string, string>) => call<T>('DELETE', url, undefined, headers),
    call,
  };
}

let counter = 0;

/** Registers and signs in a fresh account; returns its token and a client bound to it. */
export async function signUp(baseUrl: string, overrides: Partial<{ email: string; username: string; password: string; timezone: string }> = {}) {
  counter += 1;
  const creds = {
    email: `user${counter}-${Date.now()}@example.com`,
    username: `user${counter}`,
    password: 'correct horse battery',
    timezone: 'UTC',
    ...overrides,
  };
  const anon = client(baseUrl);
  const reg = await anon.post('/api/auth/register', creds);
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await anon.post('/api/auth/login', { email: creds.email, password: creds.password, remember_me: false });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { ...creds, id: login.body.id as string, token: login.body.token as string, api: client(baseUrl, login.body.token) };
}

/**
 * Creates, through the API, a reminder due at `due` (to the second, UTC) with one generic webhook to
 * `hookUrl`: what the outage tests let fall due while the database is out.
 */
export async function createDueReminder(api: ReturnType<typeof client>, due: Date, hookUrl: string, message: string) {
  const created = await api.post('/api/reminders', {
    date: due.toISOString().slice(0, 10),
    time: due.toISOString().slice(11, 19),
    timezone: 'UTC',
    message,
    destinations: [{ type: 'webhook', metadata: { url: hookUrl, platform: 'generic' } }],
  });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body as { id: string };
}

/**
 * The answer to a write that waited for a lock another process holds: 503 DATABASE_BUSY with
 * Retry-After, after the bounded wait (3 s), neither at once nor for as long as the lock is held.
 */
export function expectBoundedBusyAnswer(res: ApiResponse, waitedMs: number): void {
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ code: 'DATABASE_BUSY' });
  expect(res.headers.get('retry-after')).toBe('2');
  expect(waitedMs).toBeGreaterThan(2500);
  expect(waitedMs).toBeLessThan(6000);
}
